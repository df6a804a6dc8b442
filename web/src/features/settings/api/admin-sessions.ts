/** Admin Settings → Security: every user's live sessions, and signing one out. */
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminSessionsResponse } from '@common/api/security';
import { apiRequest, apiSend } from '@/lib/api-client';
import { settingsKeys } from './keys';

export const SESSIONS_PAGE_SIZE = 50;

export function findAdminSessions(user: string, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest('/api/v1/admin/security/sessions', adminSessionsResponse, { signal, query: { user, cursor, limit: SESSIONS_PAGE_SIZE } });
}

export function adminSessionsQueryOptions(user: string) {
  return infiniteQueryOptions({
    queryKey: settingsKeys.sessions({ user }),
    queryFn: ({ pageParam, signal }) => findAdminSessions(user, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    staleTime: 5_000,
  });
}

export function useAdminSessions(user: string) {
  return useInfiniteQuery(adminSessionsQueryOptions(user));
}

export function revokeAdminSession(id: string) {
  return apiSend(`/api/v1/admin/security/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeAdminSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAdminSession,
    retry: false,
    // The session list, and the audit log that now records the revocation.
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.security, predicate: (query) => query.queryKey[2] !== 'settings' }),
  });
}
