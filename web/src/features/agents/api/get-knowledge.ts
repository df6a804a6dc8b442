import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { knowledgeView } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { agentKeys, clientPath } from './keys';

/** A client's FAQ entries and articles (`search` filters both), with the training status. */
export function getKnowledge(clientId: string, search: string, signal?: AbortSignal) {
  return apiRequest(`${clientPath(clientId)}/knowledge`, knowledgeView, { query: { search: search.trim() }, signal });
}

export function getKnowledgeQueryOptions(clientId: string, search: string) {
  return queryOptions({
    queryKey: agentKeys.knowledge(clientId, search.trim()),
    queryFn: ({ signal }) => getKnowledge(clientId, search, signal),
    placeholderData: keepPreviousData,
    // The training status shown comes from the agent's query, which polls while training.
    staleTime: 15_000,
  });
}

export function useKnowledge(clientId: string, search: string) {
  return useQuery(getKnowledgeQueryOptions(clientId, search));
}
