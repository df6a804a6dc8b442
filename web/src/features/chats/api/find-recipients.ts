import { queryOptions, useQuery } from '@tanstack/react-query';
import { recipientsResponse } from '@common/api/chats';
import { apiRequest } from '@/lib/api-client';
import { chatKeys } from '@/lib/messaging-keys';

/** Who the user may write to: admins see everyone, everyone else Parley's admins. */
export function findRecipients(signal?: AbortSignal) {
  return apiRequest('/api/v1/chats/recipients', recipientsResponse, { signal }).then((r) => r.recipients);
}

export function useRecipients(enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: chatKeys.recipients(), queryFn: ({ signal }) => findRecipients(signal), staleTime: 60_000 }),
    enabled,
  });
}
