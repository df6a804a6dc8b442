import { queryOptions, useQuery } from '@tanstack/react-query';
import { findConversationsResponse, type ConversationView } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

export const ACTIVE_LIST_SIZE = 5;

/** The latest active conversations (spec part 1 §2.13's Active Conversations list). */
export async function getActiveConversations(signal?: AbortSignal): Promise<ConversationView[]> {
  const response = await apiRequest('/api/v1/conversations', findConversationsResponse, { query: { tab: 'active', limit: ACTIVE_LIST_SIZE }, signal });
  return response.conversations;
}

export function useActiveConversations() {
  return useQuery(
    queryOptions({
      // Under the conversations key: live events refresh it (lib/live-messaging.ts).
      queryKey: [...conversationKeys.overview(), 'active'],
      queryFn: ({ signal }) => getActiveConversations(signal),
      staleTime: 0,
    }),
  );
}
