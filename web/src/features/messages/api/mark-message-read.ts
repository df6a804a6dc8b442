import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageView } from '@common/api/conversations';
import { apiSend } from '@/lib/api-client';
import { replaceMessage, type MessagesList } from '@/lib/live-messaging';
import { conversationKeys, messageKeys } from '@/lib/messaging-keys';

export function markMessageRead(message: MessageView): Promise<void> {
  return apiSend(`/api/v1/messages/${encodeURIComponent(message.id)}/read`, { method: 'POST' });
}

export function useMarkMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markMessageRead,
    onSuccess: (_data, message) => {
      queryClient.setQueriesData<MessagesList>({ queryKey: messageKeys.lists() }, (old) => replaceMessage(old, { ...message, read: true }));
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
      ]);
    },
  });
}
