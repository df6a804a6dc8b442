/** Admin Settings → Security: the audit log, page by page, and its CSV. */
import { infiniteQueryOptions, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { securityEventsResponse } from '@common/api/security';
import { apiRequest, apiResponse } from '@/lib/api-client';
import { fileNameFromDisposition, saveBlob } from '@/lib/download';
import { type AuditLogFilters, settingsKeys } from './keys';

export const AUDIT_LOG_PAGE_SIZE = 50;

function filterQuery(filters: AuditLogFilters) {
  return { type: filters.type, user: filters.user, from: filters.from, to: filters.to };
}

export function findSecurityEvents(filters: AuditLogFilters, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest('/api/v1/admin/security/events', securityEventsResponse, {
    signal,
    query: { ...filterQuery(filters), cursor, limit: AUDIT_LOG_PAGE_SIZE },
  });
}

export function securityEventsQueryOptions(filters: AuditLogFilters) {
  return infiniteQueryOptions({
    queryKey: settingsKeys.events(filters),
    queryFn: ({ pageParam, signal }) => findSecurityEvents(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    staleTime: 5_000,
  });
}

export function useSecurityEvents(filters: AuditLogFilters) {
  return useInfiniteQuery(securityEventsQueryOptions(filters));
}

/** Downloads the filtered log as CSV under the name the server gives it. */
export async function downloadSecurityEvents(filters: AuditLogFilters): Promise<void> {
  const response = await apiResponse('/api/v1/admin/security/events.csv', { query: filterQuery(filters) });
  const name = fileNameFromDisposition(response.headers.get('content-disposition'), 'security-events.csv');
  saveBlob(await response.blob(), name);
}

export function useDownloadSecurityEvents() {
  return useMutation({ mutationFn: downloadSecurityEvents, retry: false });
}
