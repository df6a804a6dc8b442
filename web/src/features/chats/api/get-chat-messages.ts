import { queryOptions, useQuery } from '@tanstack/react-query';
import { chatMessagesResponse } from '@common/api/chats';
import { apiRequest } from '@/lib/api-client';
import { chatKeys } from '@/lib/messaging-keys';

export function getChatMessages(threadId: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/chats/${encodeURIComponent(threadId)}/messages`, chatMessagesResponse, { signal });
}

export function useChatMessages(threadId: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: chatKeys.messages(threadId ?? ''), queryFn: ({ signal }) => getChatMessages(threadId ?? '', signal), staleTime: 0 }),
    enabled: threadId !== null,
  });
}
