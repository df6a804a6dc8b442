import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatMessageView } from '@common/api/chats';
import { apiRequest } from '@/lib/api-client';
import { upsertChatMessage, type ChatMessages } from '@/lib/live-messaging';
import { chatKeys } from '@/lib/messaging-keys';

export function sendChatMessage({ threadId, message }: { threadId: string; message: string }) {
  return apiRequest(`/api/v1/chats/${encodeURIComponent(threadId)}/messages`, chatMessageView, { method: 'POST', body: { message } });
}

export function useSendChatMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendChatMessage,
    retry: false,
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessages>(chatKeys.messages(message.threadId), (old) => upsertChatMessage(old, message));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.lists() }),
  });
}
