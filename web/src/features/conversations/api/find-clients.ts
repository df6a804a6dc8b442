import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClientsResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';

export function findClients(signal?: AbortSignal) {
  return apiRequest('/api/v1/clients', findClientsResponse, { signal }).then((r) => r.clients);
}

/** Clients to start a conversation with (client users: their own business only). */
export function useClientChoices(enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: ['clients', 'choices'], queryFn: ({ signal }) => findClients(signal), staleTime: 60_000 }),
    enabled,
  });
}
