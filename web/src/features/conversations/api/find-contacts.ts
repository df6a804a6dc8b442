import { queryOptions, useQuery } from '@tanstack/react-query';
import { findContactsResponse } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

export function findContacts(clientId: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/contacts', findContactsResponse, { query: { clientId, limit: 200 }, signal }).then((r) => r.contacts);
}

export function findContactsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: conversationKeys.contacts(clientId),
    queryFn: ({ signal }) => findContacts(clientId, signal),
    staleTime: 30_000,
  });
}

/** A client's contacts, for the Start New Conversation dialog. */
export function useContacts(clientId: string | null) {
  return useQuery({ ...findContactsQueryOptions(clientId ?? ''), enabled: clientId !== null });
}
