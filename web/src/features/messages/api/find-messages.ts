import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findMessagesResponse } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { messageKeys, type MessagesFilter } from '@/lib/messaging-keys';

/** Spec part 1 §9: the messages query reads the latest 50. */
export const MESSAGES_LIMIT = 50;

export function findMessages(filter: MessagesFilter, signal?: AbortSignal) {
  return apiRequest('/api/v1/messages', findMessagesResponse, {
    query: { filter: filter.filter, search: filter.search, limit: filter.limit ?? MESSAGES_LIMIT },
    signal,
  });
}

export function findMessagesQueryOptions(filter: MessagesFilter) {
  return queryOptions({
    queryKey: messageKeys.list(filter),
    queryFn: ({ signal }) => findMessages(filter, signal),
    placeholderData: keepPreviousData,
    // Live events keep it current; a refetch on mount covers a missed one.
    staleTime: 0,
  });
}

export function useMessages(filter: MessagesFilter) {
  return useQuery(findMessagesQueryOptions(filter));
}
