import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SharedSummaryView, sharedSummaryView } from '@common/api/summary-shares';
import { apiRequest, isApiError } from '@/lib/api-client';

export const sharedSummaryKeys = {
  all: ['shared-summary'] as const,
  view: (token: string, timeZone: string) => [...sharedSummaryKeys.all, token, timeZone] as const,
};

/** GET /api/v1/shared/summary/:token: what a share link shows, without sign-in. */
export function getSharedSummary(token: string, timeZone: string, signal?: AbortSignal): Promise<SharedSummaryView> {
  return apiRequest(`/api/v1/shared/summary/${encodeURIComponent(token)}`, sharedSummaryView, { query: { timeZone }, signal });
}

export function getSharedSummaryQueryOptions(token: string, timeZone: string) {
  return queryOptions({
    queryKey: sharedSummaryKeys.view(token, timeZone),
    queryFn: ({ signal }) => getSharedSummary(token, timeZone, signal),
    // A link that expired or was revoked stays so: asking again cannot help.
    retry: (failures, error) => !(isApiError(error) && error.isClientError) && failures < 2,
  });
}

export function useSharedSummary(token: string, timeZone: string) {
  return useQuery(getSharedSummaryQueryOptions(token, timeZone));
}
