import { queryOptions, useQuery } from '@tanstack/react-query';
import { conversationView } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

export function getConversation(id: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/conversations/${encodeURIComponent(id)}`, conversationView, { signal });
}

export function getConversationQueryOptions(id: string) {
  return queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: ({ signal }) => getConversation(id, signal),
    staleTime: 0,
  });
}

export function useConversation(id: string | null) {
  return useQuery({ ...getConversationQueryOptions(id ?? ''), enabled: id !== null });
}
