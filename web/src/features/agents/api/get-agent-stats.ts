import { queryOptions, useQuery } from '@tanstack/react-query';
import { agentStats } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { agentKeys, clientPath } from './keys';

/** A client's agent over the last `days` days: answers by engine, hand-offs, LLM cost. */
export function getAgentStats(clientId: string, days: number, signal?: AbortSignal) {
  return apiRequest(`${clientPath(clientId)}/agent/stats?days=${days}`, agentStats, { signal });
}

export function getAgentStatsQueryOptions(clientId: string, days: number) {
  return queryOptions({
    queryKey: agentKeys.stats(clientId, days),
    queryFn: ({ signal }) => getAgentStats(clientId, days, signal),
    staleTime: 30_000,
  });
}

export function useAgentStats(clientId: string | null, days: number) {
  return useQuery({ ...getAgentStatsQueryOptions(clientId ?? '', days), enabled: clientId !== null });
}
