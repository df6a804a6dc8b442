import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { threadResponse } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

export const THREAD_PAGE_SIZE = 100;

/** One page of a thread, oldest first; `before` pages back to older messages. */
export function getThread(conversationId: string, before: string | null, signal?: AbortSignal) {
  return apiRequest(`/api/v1/conversations/${encodeURIComponent(conversationId)}/messages`, threadResponse, {
    query: { before, limit: THREAD_PAGE_SIZE },
    signal,
  });
}

/** Page 0 holds the newest messages; each next page the ones before it (lib/live-messaging.ts relies on it). */
export function getThreadQueryOptions(conversationId: string) {
  return infiniteQueryOptions({
    queryKey: conversationKeys.thread(conversationId),
    queryFn: ({ pageParam, signal }) => getThread(conversationId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => (page.hasMore ? (page.messages[0]?.id ?? null) : null),
    staleTime: 0,
  });
}

export function useThread(conversationId: string | null) {
  return useInfiniteQuery({ ...getThreadQueryOptions(conversationId ?? ''), enabled: conversationId !== null });
}
