import { queryOptions, useQuery } from '@tanstack/react-query';
import { findAgentsResponse } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { isTrainingActive } from '../lib/training';
import { agentKeys } from './keys';

/** Every client's agent (admins and managers). */
export function findAgents(signal?: AbortSignal) {
  return apiRequest('/api/v1/agents', findAgentsResponse, { signal }).then((r) => r.agents);
}

export function findAgentsQueryOptions() {
  return queryOptions({
    queryKey: agentKeys.list(),
    queryFn: ({ signal }) => findAgents(signal),
    staleTime: 15_000,
    // While an agent trains, its row follows along.
    refetchInterval: (query) => (query.state.data?.some((agent) => isTrainingActive(agent.training)) ? 2_000 : false),
  });
}

export function useAgents() {
  return useQuery(findAgentsQueryOptions());
}
