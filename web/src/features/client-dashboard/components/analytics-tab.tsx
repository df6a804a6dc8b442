import type { ClientDashboardView, DashboardDay } from '@common/api/client-dashboard';
import { chartColor } from '@/components/charts/chart-colors';
import { ChartFigure } from '@/components/charts/chart-figure';
import { BarsChart, LinesChart } from '@/components/charts/lazy-charts';
import { formatCount, formatDuration } from '@/lib/figures';
import { dayLabel, hasActivity, periodText } from '../lib/dashboard';

const NOTHING = 'No messages or conversations in this period.';

/** Small charts of the client's last 30 days: messages and conversations per day, and the day's average first response. */
export function AnalyticsTab({ view }: { view: ClientDashboardView }) {
  const empty = hasActivity(view.daily) ? null : NOTHING;
  const data = view.daily.map((d) => ({
    day: dayLabel(d.day),
    messages: d.messages,
    conversations: d.conversations,
    response: d.avgResponseSeconds === null ? null : Math.round(d.avgResponseSeconds),
  }));
  const rowKey = (d: DashboardDay) => d.day;
  const rowHeader = (d: DashboardDay) => dayLabel(d.day);
  const answeredAny = view.daily.some((d) => d.avgResponseSeconds !== null);
  return (
    <div className="grid min-w-0 gap-8 lg:grid-cols-2">
      <ChartFigure
        title="Messages and conversations per day"
        description={`${periodText(view.period)}. Conversations by the day they started.`}
        rows={view.daily}
        rowKey={rowKey}
        rowHeader={rowHeader}
        rowHeaderLabel="Day"
        columns={[
          { header: 'Messages', cell: (d) => formatCount(d.messages) },
          { header: 'Conversations', cell: (d) => formatCount(d.conversations) },
        ]}
        empty={empty}
        chart={
          <BarsChart
            data={data}
            categoryKey="day"
            series={[
              { key: 'messages', label: 'Messages', color: chartColor(0) },
              { key: 'conversations', label: 'Conversations', color: chartColor(3) },
            ]}
          />
        }
      />
      <ChartFigure
        title="Average first response per day"
        description="Conversations that started that day and got a reply; a day without one is a gap."
        rows={view.daily}
        rowKey={rowKey}
        rowHeader={rowHeader}
        rowHeaderLabel="Day"
        columns={[
          { header: 'Answered', cell: (d) => `${formatCount(d.answered)} of ${formatCount(d.conversations)}` },
          { header: 'Average first response', cell: (d) => formatDuration(d.avgResponseSeconds) },
        ]}
        empty={empty ?? (answeredAny ? null : 'No conversation of this period was answered yet.')}
        chart={<LinesChart data={data} categoryKey="day" series={[{ key: 'response', label: 'Average first response', color: chartColor(1) }]} format={formatDuration} />}
      />
    </div>
  );
}
