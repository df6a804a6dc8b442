export const profileKeys = {
  sessions: ['me', 'sessions'] as const,
  notificationPreferences: ['me', 'notification-preferences'] as const,
};
