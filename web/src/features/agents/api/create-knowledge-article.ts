import { useMutation, useQueryClient } from '@tanstack/react-query';
import { knowledgeArticle, type KnowledgeArticleInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';
import { clientPath } from './keys';

export function createKnowledgeArticle({ clientId, values }: { clientId: string; values: KnowledgeArticleInput }) {
  return apiRequest(`${clientPath(clientId)}/knowledge/articles`, knowledgeArticle, { method: 'POST', body: values });
}

export function useCreateKnowledgeArticle(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: KnowledgeArticleInput) => createKnowledgeArticle({ clientId, values }),
    retry: false,
    onSettled: () => invalidateKnowledge(queryClient, clientId),
  });
}
