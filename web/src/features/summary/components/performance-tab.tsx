import type { SummaryView } from '@common/api/summary';
import { chartColor } from '@/components/charts/chart-colors';
import { ChartFigure } from '@/components/charts/chart-figure';
import { BarsChart } from '@/components/charts/lazy-charts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount, formatRate } from '@/lib/figures';

type Bucket = SummaryView['performance']['byTimeOfDay'][number];

const COLUMNS = [
  { header: 'Conversations', cell: (b: Bucket) => formatCount(b.conversations) },
  { header: 'AI confidence', cell: (b: Bucket) => formatRate(b.confidence) },
] as const;

function BucketsFigure({ title, rowHeaderLabel, buckets, empty, tall = false }: { title: string; rowHeaderLabel: string; buckets: readonly Bucket[]; empty: string | null; tall?: boolean }) {
  return (
    <ChartFigure
      title={title}
      description="Bars: conversations started. The table adds the mean confidence of the AI's replies."
      rows={buckets}
      rowKey={(b) => b.key}
      rowHeader={(b) => b.label}
      rowHeaderLabel={rowHeaderLabel}
      columns={COLUMNS}
      empty={empty}
      height={tall ? 'h-72' : 'h-56'}
      chart={
        <BarsChart
          data={buckets.map((b) => ({ bucket: b.label, conversations: b.conversations }))}
          categoryKey="bucket"
          series={[{ key: 'conversations', label: 'Conversations', color: chartColor(0) }]}
        />
      }
    />
  );
}

/** Performance: when the period's conversations started (hours of the viewer's day) and where they came from. */
export function PerformanceTab({ view }: { view: SummaryView }) {
  const { byTimeOfDay, byChannel } = view.performance;
  const nothing = (buckets: readonly Bucket[]) => buckets.every((b) => b.conversations === 0 && b.confidence === null);
  return (
    <Card role="region" aria-labelledby="summary-performance" className="min-w-0">
      <CardHeader>
        <CardTitle id="summary-performance">Performance</CardTitle>
        <CardDescription>Conversations started in this period and the AI&apos;s confidence, by hour of the day ({view.timeZone}) and by channel.</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-8">
        <BucketsFigure
          title="Conversations by time of day"
          rowHeaderLabel="Hour"
          buckets={byTimeOfDay}
          empty={nothing(byTimeOfDay) ? 'No conversations in this period.' : null}
          tall
        />
        <BucketsFigure
          title="Conversations by channel"
          rowHeaderLabel="Channel"
          buckets={byChannel}
          empty={nothing(byChannel) ? 'No conversations in this period.' : null}
        />
      </CardContent>
    </Card>
  );
}
