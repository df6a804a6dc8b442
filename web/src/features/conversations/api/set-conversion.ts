import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationView } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { replaceConversation, type ConversationPages } from '@/lib/live-messaging';
import { conversationKeys } from '@/lib/messaging-keys';

/** "Mark as converted" on a lead, or undo it (the client dashboard's conversion rate). */
export function setConversion({ id, converted }: { id: string; converted: boolean }) {
  return apiRequest(`/api/v1/conversations/${encodeURIComponent(id)}/conversion`, conversationView, { method: 'PUT', body: { converted } });
}

export function useSetConversion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setConversion,
    onSuccess: (view) => {
      queryClient.setQueryData(conversationKeys.detail(view.id), view);
      queryClient.setQueriesData<ConversationPages>({ queryKey: conversationKeys.lists() }, (old) => replaceConversation(old, view));
    },
    // The client dashboard's figures count conversions.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['client-dashboard'] }),
  });
}
