import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { chatThreadView, type newChatInput } from '@common/api/chats';
import { apiRequest } from '@/lib/api-client';
import { chatKeys } from '@/lib/messaging-keys';

export type NewChatValues = z.output<typeof newChatInput>;

/** Starts a chat, or continues the existing one with the same person, with a first message. */
export function newChat(values: NewChatValues) {
  return apiRequest('/api/v1/chats', chatThreadView, { method: 'POST', body: values });
}

export function useNewChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: newChat,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}
