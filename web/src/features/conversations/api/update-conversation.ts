import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationView, type UpdateConversationInput } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { replaceConversation, type ConversationPages } from '@/lib/live-messaging';
import { conversationKeys } from '@/lib/messaging-keys';

export function updateConversation({ id, ...changes }: UpdateConversationInput & { id: string }) {
  return apiRequest(`/api/v1/conversations/${encodeURIComponent(id)}`, conversationView, { method: 'PATCH', body: changes });
}

export function useUpdateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConversation,
    onSuccess: (view) => {
      queryClient.setQueryData(conversationKeys.detail(view.id), view);
      queryClient.setQueriesData<ConversationPages>({ queryKey: conversationKeys.lists() }, (old) => replaceConversation(old, view));
    },
    // Tabs and counts depend on the status.
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
  });
}
