export const profileKeys = {
  sessions: ['me', 'sessions'] as const,
  /** The same key as `notificationPreferencesKey` (lib/api/notification-preferences.ts), which the queries use. */
  notificationPreferences: ['me', 'notification-preferences'] as const,
};
