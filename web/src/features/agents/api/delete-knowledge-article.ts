import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { invalidateKnowledge } from './invalidate';

export function deleteKnowledgeArticle(id: string) {
  return apiSend(`/api/v1/knowledge/articles/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteKnowledgeArticle(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteKnowledgeArticle,
    retry: false,
    // Not awaited: the deleted row (and the button that called mutate) leaves the list with the
    // refetch, and the caller's onSuccess must run before that.
    onSettled: () => {
      void invalidateKnowledge(queryClient, clientId);
    },
  });
}
