import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { contactMessageDetail, type ContactMessageDetail } from '@common/api/contact';
import { apiRequest } from '@/lib/api-client';
import { contactMessageKeys, contactMessagePath } from './keys';

/** One message with its replies; reading it marks it read on the server. */
export function getContactMessage(id: string, signal?: AbortSignal): Promise<ContactMessageDetail> {
  return apiRequest(contactMessagePath(id), contactMessageDetail, { signal });
}

export function contactMessageQueryOptions(id: string) {
  return queryOptions({ queryKey: contactMessageKeys.detail(id), queryFn: ({ signal }) => getContactMessage(id, signal) });
}

/** Opens a message; once loaded (now read), the list is refreshed so its unread marker and count follow. */
export function useContactMessage(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    ...contactMessageQueryOptions(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const message = await getContactMessage(id ?? '', signal);
      void queryClient.invalidateQueries({ queryKey: contactMessageKeys.list() });
      return message;
    },
  });
}
