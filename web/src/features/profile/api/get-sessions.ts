import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionsResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { profileKeys } from './keys';

export function getSessions(signal?: AbortSignal) {
  return apiRequest('/api/v1/me/sessions', sessionsResponse, { signal }).then((r) => r.sessions);
}

export function getSessionsQueryOptions() {
  return queryOptions({ queryKey: profileKeys.sessions, queryFn: ({ signal }) => getSessions(signal), staleTime: 0 });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}
