import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { conversationKeys, messageKeys } from '@/lib/messaging-keys';

export function markConversationRead(id: string): Promise<void> {
  return apiSend(`/api/v1/conversations/${encodeURIComponent(id)}/read`, { method: 'POST' });
}

export function useMarkConversationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markConversationRead,
    onSettled: async (_data, _error, id) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: messageKeys.lists() }),
      ]);
    },
  });
}
