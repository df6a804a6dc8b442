/**
 * GET /api/v1/insights, read by the insights page and the AI Summary's Trends tab: one query key,
 * so both share the cache and a live reload of either refreshes both.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { insightsView, type InsightsQuery, type InsightsView } from '@common/api/insights';
import { apiRequest } from '@/lib/api-client';
import { insightsSearch } from '@/lib/period';

export const insightsKeys = {
  all: ['insights'] as const,
  views: () => [...insightsKeys.all, 'view'] as const,
  view: (query: InsightsQuery) => [...insightsKeys.views(), query] as const,
};

/** GET /api/v1/insights: the figures of one period (and client), parsed with the contract's schema. */
export function getInsights(query: InsightsQuery, signal?: AbortSignal): Promise<InsightsView> {
  return apiRequest('/api/v1/insights', insightsView, {
    query: { period: query.period, from: query.from, to: query.to, clientId: query.clientId },
    signal,
  });
}

export function getInsightsQueryOptions(query: InsightsQuery) {
  return queryOptions({
    queryKey: insightsKeys.view(query),
    queryFn: ({ signal }) => getInsights(query, signal),
    // Always current when the page opens; live events and Refresh refetch it meanwhile.
    staleTime: 0,
    // Another period keeps the figures on screen (marked as updating) until its own arrive.
    placeholderData: keepPreviousData,
  });
}

export function useInsights(query: InsightsQuery) {
  return useQuery(getInsightsQueryOptions(query));
}

/**
 * GET /api/v1/insights/export.csv with the page's query: the server answers text/csv as an
 * attachment, so a plain `<a href download>` saves it with the session cookie and no script.
 */
export function exportInsightsUrl(query: InsightsQuery): string {
  const search = insightsSearch(query);
  return search === '' ? '/api/v1/insights/export.csv' : `/api/v1/insights/export.csv?${search}`;
}

/**
 * GET /api/v1/insights/report.pdf with the page's query and the browser's time zone (the dates the
 * report prints): a PDF attachment, downloaded by a plain link like the CSV.
 */
export function insightsReportUrl(query: InsightsQuery, timeZone: string): string {
  const params = new URLSearchParams(insightsSearch(query));
  params.set('timeZone', timeZone);
  return `/api/v1/insights/report.pdf?${params.toString()}`;
}
