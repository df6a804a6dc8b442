import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationsResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './keys';

export function getNotifications(signal?: AbortSignal) {
  return apiRequest('/api/v1/me/notifications', notificationsResponse, { signal });
}

export function getNotificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => getNotifications(signal),
    staleTime: 30_000,
  });
}

export function useNotifications() {
  return useQuery(getNotificationsQueryOptions());
}
