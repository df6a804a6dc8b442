import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageView, type SendMessageInput } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { upsertThreadMessage, type ThreadPages } from '@/lib/live-messaging';
import { conversationKeys } from '@/lib/messaging-keys';

export function sendMessage({ conversationId, text }: SendMessageInput & { conversationId: string }) {
  return apiRequest(`/api/v1/conversations/${encodeURIComponent(conversationId)}/messages`, messageView, {
    method: 'POST',
    body: { text },
  });
}

export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    // Never resend on the user's behalf: a retried POST could send the text twice.
    retry: false,
    onSuccess: (message) => {
      queryClient.setQueryData<ThreadPages>(conversationKeys.thread(message.conversationId), (old) => upsertThreadMessage(old, message));
    },
  });
}
