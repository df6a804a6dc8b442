import { Download, RefreshCw, Share2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { SummaryView } from '@common/api/summary';
import type { Role } from '@common/roles';
import { PeriodFilters } from '@/components/period-filters';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useLiveFigures } from '@/hooks/use-live-figures';
import { exportInsightsUrl, insightsKeys } from '@/lib/api/insights';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { describePeriod, queryFieldErrors, toInsightsQuery, type InsightsSelection } from '@/lib/period';
import { summaryKeys, useSummary } from '../api/get-summary';
import { browserTimeZone, toSummaryQuery } from '../lib/summary-figures';
import { AiInsightsTab } from './ai-insights-tab';
import { OverviewCards } from './overview-cards';
import { PerformanceTab } from './performance-tab';
import { TrendsTab, type RenderTrends } from './trends-tab';

export const SUMMARY_TABS = ['insights', 'performance', 'trends'] as const;
export type SummaryTab = (typeof SUMMARY_TABS)[number];

export const FETCH_FAILED = 'Failed to fetch AI summary';
export const SHARE_NOT_BUILT = 'Sharing a read-only link is not built yet.';

/** What a conversation or message event reloads: the summary and the trends beside it. */
const LIVE_KEYS = [summaryKeys.all, insightsKeys.all];

function Loaded({
  view,
  selection,
  tab,
  onTabChange,
  updating,
  knowledgeBaseHref,
  renderTrends,
}: {
  view: SummaryView;
  selection: InsightsSelection;
  tab: SummaryTab;
  onTabChange: (tab: SummaryTab) => void;
  updating: boolean;
  knowledgeBaseHref: string | null;
  renderTrends: RenderTrends;
}) {
  return (
    <div aria-busy={updating} className={cn('grid min-w-0 gap-6 transition-opacity', updating && 'opacity-60')}>
      <p className="text-sm text-muted-foreground" data-testid="summary-period">
        {describePeriod(view.period)}
        <span className="block text-xs sm:inline">
          <span aria-hidden className="hidden sm:inline"> · </span>
          figures as of {formatDateTime(view.generatedAt)}
        </span>
      </p>
      <OverviewCards view={view} />
      <Tabs value={tab} onValueChange={(value) => onTabChange(SUMMARY_TABS.find((t) => t === value) ?? 'insights')} className="min-w-0">
        <TabsList aria-label="AI Summary">
          <TabsTrigger value="insights">AI Insights</TabsTrigger>
          <TabsTrigger value="performance">Performance</TabsTrigger>
          <TabsTrigger value="trends">Trends</TabsTrigger>
        </TabsList>
        <TabsContent value="insights" className="min-w-0">
          <AiInsightsTab topics={view.insights} knowledgeBaseHref={knowledgeBaseHref} />
        </TabsContent>
        <TabsContent value="performance" className="min-w-0">
          <PerformanceTab view={view} />
        </TabsContent>
        <TabsContent value="trends" className="min-w-0">
          <TrendsTab query={toInsightsQuery(selection)} renderTrends={renderTrends} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * /summary, the AI Summary (spec part 2 "AI Summary page"; issue 16 §3): any signed-in user, a
 * client user seeing their own business. Every figure comes from GET /api/v1/summary for the
 * period and client in the URL and the browser's time zone; the page reloads live as
 * conversations and messages change.
 */
export function SummaryScreen({
  role,
  selection,
  onSelectionChange,
  tab,
  onTabChange,
  renderTrends,
}: {
  role: Role;
  selection: InsightsSelection;
  onSelectionChange: (selection: InsightsSelection) => void;
  tab: SummaryTab;
  onTabChange: (tab: SummaryTab) => void;
  renderTrends: RenderTrends;
}) {
  const [timeZone] = useState(browserTimeZone);
  const query = toSummaryQuery(selection, timeZone);
  const summary = useSummary(query);
  useLiveFigures(LIVE_KEYS);
  const fieldErrors = queryFieldErrors(summary.error);
  const failed = summary.isError && fieldErrors === null;
  const exportUrl = exportInsightsUrl(toInsightsQuery(selection));
  const staff = role !== 'client';
  // The knowledge base is edited from the AI agents' page, which only managers and admins may open (common/routes.ts).
  const knowledgeBaseHref = staff ? (selection.clientId ? `/agents?client=${selection.clientId}` : '/agents') : null;

  useEffect(() => {
    if (failed) toast.error('Error', { description: FETCH_FAILED });
  }, [failed, summary.errorUpdatedAt]);

  const refresh = () => {
    void summary.refetch().then((result) => {
      if (result.isSuccess) toast.success('Refreshed');
    });
  };

  let body;
  if (fieldErrors) {
    body = <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">Choose a valid period above to see its summary.</p>;
  } else if (failed) {
    body = (
      <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
        <p className="text-sm">
          <span className="font-medium">Error loading the AI summary:</span> <span className="text-muted-foreground">{summary.error?.message}</span>
        </p>
        <Button variant="outline" onClick={() => void summary.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (summary.data) {
    body = (
      <Loaded
        view={summary.data}
        selection={selection}
        tab={tab}
        onTabChange={onTabChange}
        updating={summary.isPlaceholderData}
        knowledgeBaseHref={knowledgeBaseHref}
        renderTrends={renderTrends}
      />
    );
  } else {
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the AI summary" />
      </div>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <PeriodFilters selection={selection} onChange={onSelectionChange} canChooseClient={staff} errors={fieldErrors ?? {}} />
        <div className="grid gap-1 lg:justify-items-end lg:pt-6">
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={refresh} disabled={summary.isFetching}>
              <RefreshCw aria-hidden className={cn(summary.isFetching && 'animate-spin')} />
              Refresh
            </Button>
            <Button asChild variant="outline">
              <a href={exportUrl} download title="Downloads the insights CSV (the figures of Analytics & Insights) for this period and client">
                <Download aria-hidden />
                Export Report
              </a>
            </Button>
            <Button variant="outline" disabled aria-describedby="summary-share-note">
              <Share2 aria-hidden />
              Share
            </Button>
          </div>
          <p id="summary-share-note" className="text-xs text-muted-foreground">
            {SHARE_NOT_BUILT}
          </p>
        </div>
      </div>
      {body}
    </div>
  );
}
