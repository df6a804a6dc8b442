import { queryOptions, useQuery } from '@tanstack/react-query';
import { contactMessagesResponse } from '@common/api/contact';
import { apiRequest } from '@/lib/api-client';
import { contactMessageKeys } from './keys';

/** Spec part 2 §9: the messages list refreshes every 5 seconds (new ones also arrive over the WebSocket). */
export const CONTACT_MESSAGES_REFRESH_MS = 5_000;

/** Contact messages, newest first, with the unread count. */
export function findContactMessages(signal?: AbortSignal) {
  return apiRequest('/api/v1/contact-messages', contactMessagesResponse, { signal });
}

export function contactMessagesQueryOptions() {
  return queryOptions({
    queryKey: contactMessageKeys.list(),
    queryFn: ({ signal }) => findContactMessages(signal),
    refetchInterval: CONTACT_MESSAGES_REFRESH_MS,
    staleTime: 0,
  });
}

export function useContactMessages() {
  return useQuery(contactMessagesQueryOptions());
}
