import { useMutation, useQueryClient } from '@tanstack/react-query';
import { knowledgeEntry, type KnowledgeEntryInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';

export function updateKnowledgeEntry({ id, values }: { id: string; values: KnowledgeEntryInput }) {
  return apiRequest(`/api/v1/knowledge/entries/${encodeURIComponent(id)}`, knowledgeEntry, { method: 'PUT', body: values });
}

export function useUpdateKnowledgeEntry(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateKnowledgeEntry,
    retry: false,
    onSettled: () => invalidateKnowledge(queryClient, clientId),
  });
}
