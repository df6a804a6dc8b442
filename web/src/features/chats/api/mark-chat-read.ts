import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { chatKeys } from '@/lib/messaging-keys';

export function markChatRead(threadId: string): Promise<void> {
  return apiSend(`/api/v1/chats/${encodeURIComponent(threadId)}/read`, { method: 'POST' });
}

export function useMarkChatRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markChatRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.lists() }),
  });
}
