import { useMutation, useQueryClient } from '@tanstack/react-query';
import { knowledgeArticle, type KnowledgeArticleInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';

export function updateKnowledgeArticle({ id, values }: { id: string; values: KnowledgeArticleInput }) {
  return apiRequest(`/api/v1/knowledge/articles/${encodeURIComponent(id)}`, knowledgeArticle, { method: 'PUT', body: values });
}

export function useUpdateKnowledgeArticle(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateKnowledgeArticle,
    retry: false,
    onSettled: () => invalidateKnowledge(queryClient, clientId),
  });
}
