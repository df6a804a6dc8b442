import { RefreshCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { INSIGHTS_PERIOD_LABELS } from '@common/api/insights';
import type { SummaryView } from '@common/api/summary';
import type { Role } from '@common/roles';
import { ExportMenu } from '@/components/export-menu';
import { PeriodFilters } from '@/components/period-filters';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useLiveFigures } from '@/hooks/use-live-figures';
import { insightsKeys } from '@/lib/api/insights';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { describePeriod, queryFieldErrors, toInsightsQuery, type InsightsSelection } from '@/lib/period';
import { summaryExportUrl } from '../api/export-summary';
import { summaryKeys, useSummary } from '../api/get-summary';
import { browserTimeZone, toSummaryQuery } from '../lib/summary-figures';
import { AiInsightsTab } from './ai-insights-tab';
import { OverviewCards } from './overview-cards';
import { PerformanceTab } from './performance-tab';
import { ShareDialog } from './share-dialog';
import { TrendsTab, type RenderTrends } from './trends-tab';

export const SUMMARY_TABS = ['insights', 'performance', 'trends'] as const;
export type SummaryTab = (typeof SUMMARY_TABS)[number];

export const FETCH_FAILED = 'Failed to fetch AI summary';

/** What a conversation or message event reloads: the summary and the trends beside it. */
const LIVE_KEYS = [summaryKeys.all, insightsKeys.all];

/**
 * The summary's figures: the period, the overview cards and the three tabs. Shared by the signed-in
 * page and a share link's read-only page (./shared-summary-screen.tsx), each handing in its Trends.
 */
export function SummaryFigures({
  view,
  tab,
  onTabChange,
  updating,
  knowledgeBaseHref,
  trends,
}: {
  view: SummaryView;
  tab: SummaryTab;
  onTabChange: (tab: SummaryTab) => void;
  updating: boolean;
  knowledgeBaseHref: string | null;
  trends: ReactNode;
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
          {trends}
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
      <SummaryFigures
        view={summary.data}
        tab={tab}
        onTabChange={onTabChange}
        updating={summary.isPlaceholderData}
        knowledgeBaseHref={knowledgeBaseHref}
        trends={<TrendsTab query={toInsightsQuery(selection)} renderTrends={renderTrends} />}
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
        <div className="flex flex-wrap gap-2 lg:pt-6">
          <Button variant="outline" onClick={refresh} disabled={summary.isFetching}>
            <RefreshCw aria-hidden className={cn(summary.isFetching && 'animate-spin')} />
            Refresh
          </Button>
          <ExportMenu
            label="Export Report"
            files={[
              { format: 'pdf', label: 'PDF report', href: summaryExportUrl(query, 'pdf'), title: 'This summary for the period and client, as a PDF report' },
              { format: 'csv', label: 'CSV (spreadsheet)', href: summaryExportUrl(query, 'csv'), title: 'The figures of this summary, as CSV' },
            ]}
          />
          <ShareDialog
            query={toInsightsQuery(selection)}
            periodText={summary.data ? describePeriod(summary.data.period) : INSIGHTS_PERIOD_LABELS[selection.period]}
            showCreator={role === 'admin'}
          />
        </div>
      </div>
      {body}
    </div>
  );
}
