/** Admin Settings → Notifications: saves its four switches (PATCH: the profile's own stay as they are). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences } from '@common/api/me';
import { notificationPreferencesKey, updateNotificationPreferences } from '@/lib/api/notification-preferences';

/** The four switches of spec part 1 §3, in its order. */
export const ADMIN_NOTIFICATION_SWITCHES = ['escalations', 'lowConfidence', 'dailyReports', 'errorAlerts'] as const;
export type AdminNotificationSwitch = (typeof ADMIN_NOTIFICATION_SWITCHES)[number];
export type AdminNotificationSwitches = Pick<NotificationPreferences, AdminNotificationSwitch>;

export function useUpdateNotificationSwitches() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: AdminNotificationSwitches) => updateNotificationPreferences(values),
    retry: false,
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesKey, saved),
  });
}
