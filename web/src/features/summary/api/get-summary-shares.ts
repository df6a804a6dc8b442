import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SummaryShare, summarySharesResponse } from '@common/api/summary-shares';
import { apiRequest } from '@/lib/api-client';

export const summaryShareKeys = {
  all: ['summary-shares'] as const,
  list: () => [...summaryShareKeys.all, 'list'] as const,
};

/** GET /api/v1/summary/shares: my share links (an administrator's: everyone's), newest first. */
export function getSummaryShares(signal?: AbortSignal): Promise<SummaryShare[]> {
  return apiRequest('/api/v1/summary/shares', summarySharesResponse, { signal }).then((r) => r.shares);
}

export function getSummarySharesQueryOptions() {
  return queryOptions({ queryKey: summaryShareKeys.list(), queryFn: ({ signal }) => getSummaryShares(signal), staleTime: 0 });
}

/** Only fetched while the Share dialog is open. */
export function useSummaryShares(enabled: boolean) {
  return useQuery({ ...getSummarySharesQueryOptions(), enabled });
}
