import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClientsResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { clientKeys } from './keys';

/** Every client (client users: their own business only). */
export function findClients(signal?: AbortSignal) {
  return apiRequest('/api/v1/clients', findClientsResponse, { signal }).then((r) => r.clients);
}

export function findClientsQueryOptions() {
  return queryOptions({ queryKey: clientKeys.list(), queryFn: ({ signal }) => findClients(signal), staleTime: 30_000 });
}

export function useClients() {
  return useQuery(findClientsQueryOptions());
}
