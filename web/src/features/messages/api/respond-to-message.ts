import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageView, type SendMessageInput } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { messageKeys } from '@/lib/messaging-keys';

/** Answers a customer message in its conversation, through its channel (spec part 1 §7 "Send response"). */
export function respondToMessage({ messageId, text }: SendMessageInput & { messageId: string }) {
  return apiRequest(`/api/v1/messages/${encodeURIComponent(messageId)}/respond`, messageView, { method: 'POST', body: { text } });
}

export function useRespondToMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: respondToMessage,
    // A retried POST could send the answer twice.
    retry: false,
    // "then reload list" (spec part 1 §7): the answered message now has a response time.
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageKeys.lists() }),
  });
}
