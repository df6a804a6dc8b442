import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientDashboardView } from '@common/api/client-dashboard';
import { apiRequest } from '@/lib/api-client';
import { clientDashboardKeys, clientPath } from './keys';

/** One client's dashboard: header, the last 30 days' figures, recent conversations, automation settings. */
export function getClientDashboard(clientId: string, signal?: AbortSignal) {
  return apiRequest(`${clientPath(clientId)}/dashboard`, clientDashboardView, { signal });
}

export function getClientDashboardQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientDashboardKeys.detail(clientId),
    queryFn: ({ signal }) => getClientDashboard(clientId, signal),
    staleTime: 15_000,
    // The figures move with every message: refreshed each minute while the page is open.
    refetchInterval: 60_000,
  });
}

export function useClientDashboard(clientId: string | null) {
  return useQuery({ ...getClientDashboardQueryOptions(clientId ?? ''), enabled: clientId !== null });
}
