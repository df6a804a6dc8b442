import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationPreferences, type NotificationPreferences } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { notificationPreferencesKey } from '@/lib/api/notification-preferences';

// The switches are read through the shared query (Admin Settings shows some of them too).
export { useNotificationPreferences } from '@/lib/api/notification-preferences';

export function updateNotificationPreferences(values: NotificationPreferences) {
  return apiRequest('/api/v1/me/notification-preferences', notificationPreferences, { method: 'PUT', body: values });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesKey, saved),
  });
}
