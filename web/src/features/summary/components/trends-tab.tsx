import type { ReactNode } from 'react';
import type { InsightsQuery, InsightsView } from '@common/api/insights';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useInsights } from '@/lib/api/insights';

/** Draws six months of trends; the route passes the insights page's own Trends (features never import each other). */
export type RenderTrends = (trends: InsightsView['trends'], ratingsCollected: boolean) => ReactNode;

/**
 * Trends: the last six months of the same client, read from GET /api/v1/insights (shared with the
 * insights page's cache); only fetched once the tab is opened.
 */
export function TrendsTab({ query, renderTrends }: { query: InsightsQuery; renderTrends: RenderTrends }) {
  const insights = useInsights(query);
  if (insights.data) return <>{renderTrends(insights.data.trends, insights.data.ratingsCollected)}</>;
  if (insights.isError) {
    return (
      <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
        <p className="text-sm">
          <span className="font-medium">Error loading the trends:</span> <span className="text-muted-foreground">{insights.error.message}</span>
        </p>
        <Button variant="outline" onClick={() => void insights.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Loading trends" />
    </div>
  );
}
