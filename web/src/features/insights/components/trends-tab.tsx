import { TREND_MONTHS, type TrendMonth } from '@common/api/insights';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { chartColor } from '@/components/charts/chart-colors';
import { formatCount, formatRate, formatSatisfaction, monthLabel, ratePercent } from '@/lib/figures';
import { ChartFigure } from '@/components/charts/chart-figure';
import { BarsChart, LinesChart } from '@/components/charts/lazy-charts';
import { RATINGS_NOT_COLLECTED } from './metric-cards';

const percentTick = (value: number) => `${value}%`;

/**
 * Trends: the last six months (UTC months, the current one so far), whatever period is chosen above;
 * a month without conversations shows zero, and its rates a gap.
 */
export function TrendsTab({ trends, ratingsCollected }: { trends: readonly TrendMonth[]; ratingsCollected: boolean }) {
  const data = trends.map((m) => ({
    month: monthLabel(m.month),
    conversations: m.conversations,
    messages: m.messages,
    automated: ratePercent(m.automatedResolutionRate),
    satisfaction: m.satisfaction,
  }));
  const rowKey = (m: TrendMonth) => m.month;
  const rowHeader = (m: TrendMonth) => monthLabel(m.month);

  return (
    <Card role="region" aria-labelledby="insights-trends" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-trends">Trends</CardTitle>
        <CardDescription>
          The last {TREND_MONTHS} months by the month conversations started (UTC), this month so far; the period chosen above does not change them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-8 lg:grid-cols-2">
        <ChartFigure
          title="Conversations and messages by month"
          rows={trends}
          rowKey={rowKey}
          rowHeader={rowHeader}
          rowHeaderLabel="Month"
          columns={[
            { header: 'Conversations', cell: (m) => formatCount(m.conversations) },
            { header: 'Messages', cell: (m) => formatCount(m.messages) },
          ]}
          chart={
            <BarsChart
              data={data}
              categoryKey="month"
              series={[
                { key: 'conversations', label: 'Conversations', color: chartColor(0) },
                { key: 'messages', label: 'Messages', color: chartColor(3) },
              ]}
            />
          }
        />
        <ChartFigure
          title="Automated resolution rate by month"
          description="Conversations resolved with the AI's answers alone, of the month's conversations."
          rows={trends}
          rowKey={rowKey}
          rowHeader={rowHeader}
          rowHeaderLabel="Month"
          columns={[{ header: 'Automated resolution', cell: (m) => formatRate(m.automatedResolutionRate) }]}
          chart={
            <LinesChart
              data={data}
              categoryKey="month"
              series={[{ key: 'automated', label: 'Automated resolution', color: chartColor(1) }]}
              format={percentTick}
              domain={[0, 100]}
            />
          }
        />
        {ratingsCollected ? (
          <ChartFigure
            title="Customer satisfaction by month"
            rows={trends}
            rowKey={rowKey}
            rowHeader={rowHeader}
            rowHeaderLabel="Month"
            columns={[{ header: 'Satisfaction', cell: (m) => formatSatisfaction(m.satisfaction) }]}
            chart={
              <LinesChart
                data={data}
                categoryKey="month"
                series={[{ key: 'satisfaction', label: 'Satisfaction (out of 5)', color: chartColor(2) }]}
                domain={[1, 5]}
              />
            }
          />
        ) : (
          <p className="self-start rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{RATINGS_NOT_COLLECTED}.</p>
        )}
      </CardContent>
    </Card>
  );
}
