import { useMutation, useQueryClient } from '@tanstack/react-query';
import { knowledgeEntry, type KnowledgeEntryInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';
import { clientPath } from './keys';

export function createKnowledgeEntry({ clientId, values }: { clientId: string; values: KnowledgeEntryInput }) {
  return apiRequest(`${clientPath(clientId)}/knowledge/entries`, knowledgeEntry, { method: 'POST', body: values });
}

export function useCreateKnowledgeEntry(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: KnowledgeEntryInput) => createKnowledgeEntry({ clientId, values }),
    retry: false,
    onSettled: () => invalidateKnowledge(queryClient, clientId),
  });
}
