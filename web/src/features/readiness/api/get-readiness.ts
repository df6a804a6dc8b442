import { queryOptions, useQuery } from '@tanstack/react-query';
import { readinessView, type ReadinessView } from '@common/api/readiness';
import { apiRequest } from '@/lib/api-client';
import { readinessKeys } from './keys';

/** How often the page checks again while a test e-mail is on its way. */
export const WATCH_INTERVAL_MS = 3_000;

/** GET /api/v1/readiness: the server checks the installation now (and stores the run). */
export function getReadiness(signal?: AbortSignal): Promise<ReadinessView> {
  return apiRequest('/api/v1/readiness', readinessView, { signal });
}

/** Whether the e-mail check still waits for the test e-mail (neither delivered nor failed). */
export function testEmailPending(view: ReadinessView | undefined): boolean {
  return view?.items.find((item) => item.key === 'test-email')?.status === 'needs-attention';
}

/** `watchTestEmail`: check again every few seconds while the test e-mail item waits. */
export function getReadinessQueryOptions(options: { watchTestEmail?: boolean } = {}) {
  return queryOptions({
    queryKey: readinessKeys.view(),
    queryFn: ({ signal }) => getReadiness(signal),
    // Re-checked every time the page opens (issue 16 §4), not served from the cache.
    staleTime: 0,
    refetchOnMount: 'always',
    // A check takes a moment and stores a run: never repeated on its own after a failure.
    retry: false,
    refetchInterval: options.watchTestEmail ? (query) => (testEmailPending(query.state.data) ? WATCH_INTERVAL_MS : false) : false,
  });
}

export function useReadiness(options: { watchTestEmail?: boolean } = {}) {
  return useQuery(getReadinessQueryOptions(options));
}
