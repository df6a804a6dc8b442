import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClientsResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';

/** The businesses a client user can belong to. */
export function getClientChoices(signal?: AbortSignal) {
  return apiRequest('/api/v1/clients', findClientsResponse, { signal }).then((r) => r.clients);
}

export function useClientChoices(enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: ['clients', 'choices', 'users'], queryFn: ({ signal }) => getClientChoices(signal), staleTime: 30_000 }),
    enabled,
  });
}
