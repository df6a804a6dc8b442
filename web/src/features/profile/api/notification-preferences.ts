import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationPreferences, type NotificationPreferences } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { profileKeys } from './keys';

export function getNotificationPreferences(signal?: AbortSignal) {
  return apiRequest('/api/v1/me/notification-preferences', notificationPreferences, { signal });
}

export function getNotificationPreferencesQueryOptions() {
  return queryOptions({
    queryKey: profileKeys.notificationPreferences,
    queryFn: ({ signal }) => getNotificationPreferences(signal),
  });
}

export function useNotificationPreferences() {
  return useQuery(getNotificationPreferencesQueryOptions());
}

export function updateNotificationPreferences(values: NotificationPreferences) {
  return apiRequest('/api/v1/me/notification-preferences', notificationPreferences, { method: 'PUT', body: values });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(profileKeys.notificationPreferences, saved),
  });
}
