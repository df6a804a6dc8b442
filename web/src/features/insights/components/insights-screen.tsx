import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { InsightsView } from '@common/api/insights';
import type { Role } from '@common/roles';
import { ExportMenu } from '@/components/export-menu';
import { PeriodFilters } from '@/components/period-filters';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useLiveFigures } from '@/hooks/use-live-figures';
import { exportInsightsUrl, insightsKeys, insightsReportUrl, useInsights } from '@/lib/api/insights';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { describePeriod, queryFieldErrors, toInsightsQuery, type InsightsSelection } from '@/lib/period';
import { browserTimeZone } from '@/lib/time-zone';
import { ClientsTable } from './clients-table';
import { MetricCards } from './metric-cards';
import { PerformanceTab } from './performance-tab';
import { ReportsTab } from './reports-tab';
import { TrendsTab } from './trends-tab';

export const INSIGHTS_TABS = ['performance', 'clients', 'trends', 'reports'] as const;
export type InsightsTab = (typeof INSIGHTS_TABS)[number];

export const FETCH_FAILED = 'Failed to fetch insights data';

/** What a conversation or message event reloads. */
const LIVE_KEYS = [insightsKeys.all];

function Loaded({
  view,
  tab,
  onTabChange,
  exportUrl,
  pdfUrl,
  updating,
}: {
  view: InsightsView;
  tab: InsightsTab;
  onTabChange: (tab: InsightsTab) => void;
  exportUrl: string;
  pdfUrl: string;
  updating: boolean;
}) {
  const periodText = describePeriod(view.period);
  const clientName = view.clientId === null ? null : (view.clients.find((c) => c.clientId === view.clientId)?.name ?? null);
  return (
    <div aria-busy={updating} className={cn('grid min-w-0 gap-6 transition-opacity', updating && 'opacity-60')}>
      <p className="text-sm text-muted-foreground" data-testid="insights-period">
        {periodText}
        {clientName ? ` · ${clientName}` : null}
        <span className="block text-xs sm:inline">
          <span aria-hidden className="hidden sm:inline"> · </span>
          Compared with the period of the same length just before · figures as of {formatDateTime(view.generatedAt)}
        </span>
      </p>
      <MetricCards view={view} />
      <Tabs value={tab} onValueChange={(value) => onTabChange(INSIGHTS_TABS.find((t) => t === value) ?? 'performance')} className="min-w-0">
        <TabsList aria-label="Insights">
          <TabsTrigger value="performance">Performance</TabsTrigger>
          <TabsTrigger value="clients">Clients</TabsTrigger>
          <TabsTrigger value="trends">Trends</TabsTrigger>
          <TabsTrigger value="reports">Reports</TabsTrigger>
        </TabsList>
        <TabsContent value="performance" className="min-w-0">
          <PerformanceTab view={view} />
        </TabsContent>
        <TabsContent value="clients" className="min-w-0">
          <ClientsTable clients={view.clients} ratingsCollected={view.ratingsCollected} />
        </TabsContent>
        <TabsContent value="trends" className="min-w-0">
          <TrendsTab trends={view.trends} ratingsCollected={view.ratingsCollected} />
        </TabsContent>
        <TabsContent value="reports" className="min-w-0">
          <ReportsTab exportUrl={exportUrl} pdfUrl={pdfUrl} periodText={clientName ? `${periodText} · ${clientName}` : periodText} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * /insights (any signed-in user: a client user sees their own business), /analytics (managers) and
 * /admin/insights (admins): spec part 1 §2.16. Every figure comes from GET /api/v1/insights for the
 * period and client in the URL; the page reloads live as conversations and messages change.
 */
export function InsightsScreen({
  role,
  selection,
  onSelectionChange,
  tab,
  onTabChange,
}: {
  role: Role;
  selection: InsightsSelection;
  onSelectionChange: (selection: InsightsSelection) => void;
  tab: InsightsTab;
  onTabChange: (tab: InsightsTab) => void;
}) {
  const query = toInsightsQuery(selection);
  const insights = useInsights(query);
  useLiveFigures(LIVE_KEYS);
  const fieldErrors = queryFieldErrors(insights.error);
  const failed = insights.isError && fieldErrors === null;
  const exportUrl = exportInsightsUrl(query);
  const [timeZone] = useState(browserTimeZone);
  const pdfUrl = insightsReportUrl(query, timeZone);

  useEffect(() => {
    if (failed) toast.error('Error', { description: FETCH_FAILED });
  }, [failed, insights.errorUpdatedAt]);

  const refresh = () => {
    void insights.refetch().then((result) => {
      if (result.isSuccess) toast.success('Refreshed');
    });
  };

  let body;
  if (fieldErrors) {
    body = <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">Choose a valid period above to see its figures.</p>;
  } else if (failed) {
    body = (
      <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
        <p className="text-sm">
          <span className="font-medium">Error loading insights:</span> <span className="text-muted-foreground">{insights.error?.message}</span>
        </p>
        <Button variant="outline" onClick={() => void insights.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (insights.data) {
    body = <Loaded view={insights.data} tab={tab} onTabChange={onTabChange} exportUrl={exportUrl} pdfUrl={pdfUrl} updating={insights.isPlaceholderData} />;
  } else {
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading insights" />
      </div>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <PeriodFilters selection={selection} onChange={onSelectionChange} canChooseClient={role !== 'client'} errors={fieldErrors ?? {}} />
        <div className="flex flex-wrap gap-2 lg:pt-6">
          <Button variant="outline" onClick={refresh} disabled={insights.isFetching}>
            <RefreshCw aria-hidden className={cn(insights.isFetching && 'animate-spin')} />
            Refresh
          </Button>
          <ExportMenu
            label="Export Data"
            files={[
              { format: 'csv', label: 'CSV (spreadsheet)', href: exportUrl, title: 'The figures of this page for the period and client, as CSV' },
              { format: 'pdf', label: 'PDF report', href: pdfUrl, title: 'The period report with its tables and charts, as PDF' },
            ]}
          />
        </div>
      </div>
      {body}
    </div>
  );
}
