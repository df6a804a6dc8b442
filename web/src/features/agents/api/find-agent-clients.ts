import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClientsResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { agentKeys } from './keys';

/** The clients whose agent an admin can pick. */
export function findAgentClients(signal?: AbortSignal) {
  return apiRequest('/api/v1/clients', findClientsResponse, { signal }).then((r) =>
    [...r.clients].sort((a, b) => a.companyName.localeCompare(b.companyName)),
  );
}

export function useAgentClients() {
  return useQuery(queryOptions({ queryKey: agentKeys.clientChoices(), queryFn: ({ signal }) => findAgentClients(signal), staleTime: 30_000 }));
}
