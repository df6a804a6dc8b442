import { queryOptions, useQuery } from '@tanstack/react-query';
import { unreadCountResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './keys';

export function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return apiRequest('/api/v1/me/notifications/unread-count', unreadCountResponse, { signal }).then((r) => r.count);
}

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.unreadCount(),
    queryFn: ({ signal }) => getUnreadCount(signal),
    // New notifications arrive without the user doing anything: look again every minute.
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
}

export function useUnreadCount() {
  return useQuery(getUnreadCountQueryOptions());
}
