import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { summaryView, type SummaryQuery, type SummaryView } from '@common/api/summary';
import { apiRequest } from '@/lib/api-client';

export const summaryKeys = {
  all: ['summary'] as const,
  views: () => [...summaryKeys.all, 'view'] as const,
  view: (query: SummaryQuery) => [...summaryKeys.views(), query] as const,
};

/** GET /api/v1/summary: the AI Summary of one period (and client), parsed with the contract's schema. */
export function getSummary(query: SummaryQuery, signal?: AbortSignal): Promise<SummaryView> {
  return apiRequest('/api/v1/summary', summaryView, {
    query: { period: query.period, from: query.from, to: query.to, clientId: query.clientId, timeZone: query.timeZone },
    signal,
  });
}

export function getSummaryQueryOptions(query: SummaryQuery) {
  return queryOptions({
    queryKey: summaryKeys.view(query),
    queryFn: ({ signal }) => getSummary(query, signal),
    // Always current when the page opens; live events and Refresh refetch it meanwhile.
    staleTime: 0,
    // Another period keeps the figures on screen (marked as updating) until its own arrive.
    placeholderData: keepPreviousData,
  });
}

export function useSummary(query: SummaryQuery) {
  return useQuery(getSummaryQueryOptions(query));
}
