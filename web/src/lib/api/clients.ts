/**
 * The client list (`GET /api/v1/clients`), read by many features: one fetcher, one query key.
 * Client users get their own business only. Features that need another order use `select`.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClientsResponse, type ClientView } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';

/** Under `['clients']`, so invalidating every client query (after create/update) refreshes it too. */
export const clientListKey = ['clients', 'list'] as const;

export function findClients(signal?: AbortSignal): Promise<ClientView[]> {
  return apiRequest('/api/v1/clients', findClientsResponse, { signal }).then((r) => r.clients);
}

export function clientListQueryOptions() {
  return queryOptions({ queryKey: clientListKey, queryFn: ({ signal }) => findClients(signal), staleTime: 30_000 });
}

/** The client list; `enabled: false` for users who cannot see it. */
export function useClientList(options: { enabled?: boolean; select?: (clients: ClientView[]) => ClientView[] } = {}) {
  return useQuery({ ...clientListQueryOptions(), enabled: options.enabled ?? true, select: options.select });
}
