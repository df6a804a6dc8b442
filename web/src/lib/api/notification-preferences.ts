/**
 * The signed-in user's notification switches (`/api/v1/me/notification-preferences`), read by the
 * profile's Notifications tab and Admin Settings → Notifications: one fetcher, one query key.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationPreferences, type NotificationPreferences, type UpdateNotificationPreferencesInput } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';

export const notificationPreferencesKey = ['me', 'notification-preferences'] as const;

export function getNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return apiRequest('/api/v1/me/notification-preferences', notificationPreferences, { signal });
}

export function notificationPreferencesQueryOptions() {
  return queryOptions({ queryKey: notificationPreferencesKey, queryFn: ({ signal }) => getNotificationPreferences(signal) });
}

export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQueryOptions());
}

/** Changes only the switches given (PATCH): another page's switches stay as they are. */
export function updateNotificationPreferences(changes: UpdateNotificationPreferencesInput): Promise<NotificationPreferences> {
  return apiRequest('/api/v1/me/notification-preferences', notificationPreferences, { method: 'PATCH', body: changes });
}
