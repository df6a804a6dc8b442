import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { unreadCountResponse } from '@common/api/me';
import { useRealtimeReconnect, useRealtimeTopic } from '@/hooks/use-realtime';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './keys';

export function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return apiRequest('/api/v1/me/notifications/unread-count', unreadCountResponse, { signal }).then((r) => r.count);
}

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.unreadCount(),
    queryFn: ({ signal }) => getUnreadCount(signal),
    // New notifications arrive live (realtime topic "notifications"); the poll is a safety net.
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
}

export function useUnreadCount() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  useRealtimeTopic('notifications', refresh);
  useRealtimeReconnect(refresh);
  return useQuery(getUnreadCountQueryOptions());
}
