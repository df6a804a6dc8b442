import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { conversationView, type startConversationInput } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

export type StartConversationValues = z.output<typeof startConversationInput>;

/** 409 `business_cannot_start` on WhatsApp, Messenger and Instagram. */
export function startConversation(values: StartConversationValues) {
  return apiRequest('/api/v1/conversations', conversationView, { method: 'POST', body: values });
}

export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startConversation,
    retry: false,
    onSuccess: (view) => queryClient.setQueryData(conversationKeys.detail(view.id), view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all }),
  });
}
