import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { findConversationsResponse } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys, type ConversationsFilter } from '@/lib/messaging-keys';

export const CONVERSATIONS_PAGE_SIZE = 50;

export function findConversations(filter: ConversationsFilter, cursor: string | null, signal?: AbortSignal) {
  return apiRequest('/api/v1/conversations', findConversationsResponse, {
    query: { tab: filter.tab, search: filter.search, clientId: filter.clientId, limit: CONVERSATIONS_PAGE_SIZE, cursor },
    signal,
  });
}

export function findConversationsQueryOptions(filter: ConversationsFilter) {
  return infiniteQueryOptions({
    queryKey: conversationKeys.list(filter),
    queryFn: ({ pageParam, signal }) => findConversations(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // Live events keep the list current; a refetch on mount covers a missed one.
    staleTime: 0,
  });
}

export function useConversations(filter: ConversationsFilter) {
  return useInfiniteQuery(findConversationsQueryOptions(filter));
}
