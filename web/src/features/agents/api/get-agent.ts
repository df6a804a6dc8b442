import { queryOptions, useQuery } from '@tanstack/react-query';
import { agentView } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { isTrainingActive } from '../lib/training';
import { agentKeys, clientPath } from './keys';

/** A client's agent: its configuration, training status and last 7 days. */
export function getAgent(clientId: string, signal?: AbortSignal) {
  return apiRequest(`${clientPath(clientId)}/agent`, agentView, { signal });
}

export function getAgentQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: agentKeys.detail(clientId),
    queryFn: ({ signal }) => getAgent(clientId, signal),
    staleTime: 15_000,
    // Every second while the knowledge base trains; quiet once it is idle or failed.
    refetchInterval: (query) => (isTrainingActive(query.state.data?.training) ? 1_000 : false),
  });
}

export function useAgent(clientId: string | null) {
  return useQuery({ ...getAgentQueryOptions(clientId ?? ''), enabled: clientId !== null });
}
