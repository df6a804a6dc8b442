import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageView } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { upsertThreadMessage, type ThreadPages } from '@/lib/live-messaging';
import { conversationKeys } from '@/lib/messaging-keys';

export function retryMessage({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  return apiRequest(
    `/api/v1/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/retry`,
    messageView,
    { method: 'POST' },
  );
}

export function useRetryMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryMessage,
    retry: false,
    onSuccess: (message) => {
      queryClient.setQueryData<ThreadPages>(conversationKeys.thread(message.conversationId), (old) => upsertThreadMessage(old, message));
    },
  });
}
