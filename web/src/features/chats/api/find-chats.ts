import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findChatsResponse } from '@common/api/chats';
import { apiRequest } from '@/lib/api-client';
import { chatKeys, type ChatsFilter } from '@/lib/messaging-keys';

export function findChats(filter: ChatsFilter, signal?: AbortSignal) {
  return apiRequest('/api/v1/chats', findChatsResponse, { query: { tab: filter.tab, search: filter.search }, signal });
}

export function findChatsQueryOptions(filter: ChatsFilter) {
  return queryOptions({
    queryKey: chatKeys.list(filter),
    queryFn: ({ signal }) => findChats(filter, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Presence (online, away, offline) changes without a chat event: look again now and then.
    refetchInterval: 60_000,
  });
}

export function useChats(filter: ChatsFilter) {
  return useQuery(findChatsQueryOptions(filter));
}
