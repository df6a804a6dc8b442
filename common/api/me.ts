/**
 * The signed-in user's own account (server: server/modules/profile). Paths under /api/v1/me.
 *
 *   GET    /                          -> currentUser
 *   PATCH  /profile                   updateProfileInput -> currentUser
 *   POST   /password                  changePasswordInput -> { ok: true } (current password checked)
 *   GET    /sessions                  -> sessionsResponse
 *   DELETE /sessions/:id              -> 204 (revoke one of my sessions)
 *   POST   /sessions/revoke-others    -> 204
 *   POST   /two-factor/enable         passwordInput -> twoFactorSetup (not active until confirmed)
 *   POST   /two-factor/confirm        { code } -> { enabled: true }
 *   POST   /two-factor/disable        passwordInput -> { enabled: false }
 *   POST   /two-factor/backup-codes   passwordInput -> { backupCodes }
 *   GET    /notification-preferences  -> notificationPreferences
 *   PUT    /notification-preferences  notificationPreferences -> notificationPreferences
 *   PATCH  /notification-preferences  updateNotificationPreferencesInput -> notificationPreferences (only the switches sent)
 *   GET    /notifications?limit=      -> notificationsResponse (newest first; limit 1-100, default 50)
 *   GET    /notifications/unread-count -> { count }
 *   POST   /notifications/:id/read    -> 204
 *   POST   /notifications/read-all    -> 204
 */
import { z } from 'zod';
import { nameSchema } from '../validation/auth';

const isoDate = z.iso.datetime({ offset: true });

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { error: message })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const updateProfileInput = z.object({
  fullName: nameSchema,
  avatarUrl: z
    .string()
    .trim()
    .max(2048, { error: 'Avatar URL is too long' })
    .refine((v) => v === '' || v.startsWith('https://') || v.startsWith('/avatars/'), {
      error: 'Avatar must be an https:// URL or a preset avatar',
    })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  phone: optionalText(50, 'Phone is too long').refine((v) => v == null || /^[+\d][\d\s().-]{2,}$/u.test(v), {
    error: 'Please enter a valid phone number',
  }),
  company: optionalText(200, 'Company is too long'),
});
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

export const passwordInput = z.object({ password: z.string().min(1, { error: 'Password is required' }).max(128) });

export const okResponse = z.object({ ok: z.literal(true) });

/** `:id` of one of my sessions or notifications. */
export const idParams = z.object({ id: z.uuid() });

export const sessionInfo = z.object({
  id: z.uuid(),
  current: z.boolean(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: isoDate,
  lastActiveAt: isoDate,
  expiresAt: isoDate,
});
export const sessionsResponse = z.object({ sessions: z.array(sessionInfo) });
export type SessionInfo = z.infer<typeof sessionInfo>;

export const twoFactorSetup = z.object({
  totpUri: z.string(),
  /** An SVG image of the QR code, ready to inline. */
  qrCodeSvg: z.string(),
  backupCodes: z.array(z.string()),
});
export const twoFactorCodeInput = z.object({
  code: z.string().trim().regex(/^\d{6}$/u, { error: 'Enter the 6-digit code from your authenticator app' }),
});
export const twoFactorStatusResponse = z.object({ enabled: z.boolean() });
export const backupCodesResponse = z.object({ backupCodes: z.array(z.string()) });

export const notification = z.object({
  id: z.uuid(),
  kind: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: isoDate,
});
export const notificationsResponse = z.object({ notifications: z.array(notification), unreadCount: z.number().int() });
export const findNotificationsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });
export const unreadCountResponse = z.object({ count: z.number().int() });
export type Notification = z.infer<typeof notification>;

/**
 * Profile "Notifications" tab (spec part 2 §3), with the spec's defaults. `weeklyReports` and
 * `dailyReports` (administrators; the spec's admin Notifications setting, part 1 §3) are the
 * e-mailed reports (docs/insights.md, "Reports by e-mail"). `escalations`, `lowConfidence`,
 * `dailyReports` and `errorAlerts` are the four switches of Admin Settings → Notifications (spec
 * part 1 §3, docs/admin-settings.md). Preferences added after the first ones may be left out:
 * they read as their default.
 */
export const notificationPreferences = z.object({
  emailNotifications: z.boolean(),
  messageAlerts: z.boolean(),
  weeklyReports: z.boolean(),
  securityAlerts: z.boolean(),
  dailyReports: z.boolean().default(false),
  escalations: z.boolean().default(true),
  lowConfidence: z.boolean().default(true),
  errorAlerts: z.boolean().default(true),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;
export type NotificationPreference = keyof NotificationPreferences;
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: true,
  messageAlerts: true,
  weeklyReports: false,
  securityAlerts: true,
  dailyReports: false,
  escalations: true,
  lowConfidence: true,
  errorAlerts: true,
};
export const NOTIFICATION_PREFERENCES = Object.keys(DEFAULT_NOTIFICATION_PREFERENCES) as NotificationPreference[];

/**
 * A stored preferences document as it reads: each switch as stored when it is a boolean, else its
 * default (documents saved before a switch existed, or damaged ones).
 */
export function readNotificationPreferences(stored: unknown): NotificationPreferences {
  const document = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const preferences = { ...DEFAULT_NOTIFICATION_PREFERENCES };
  for (const key of NOTIFICATION_PREFERENCES) {
    const value = document[key];
    if (typeof value === 'boolean') preferences[key] = value;
  }
  return preferences;
}

/**
 * PATCH /notification-preferences: only the switches sent change (Admin Settings sends its four,
 * the profile page its own), so two pages never overwrite each other's switches.
 */
export const updateNotificationPreferencesInput = z
  .object({
    emailNotifications: z.boolean().optional(),
    messageAlerts: z.boolean().optional(),
    weeklyReports: z.boolean().optional(),
    securityAlerts: z.boolean().optional(),
    dailyReports: z.boolean().optional(),
    escalations: z.boolean().optional(),
    lowConfidence: z.boolean().optional(),
    errorAlerts: z.boolean().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), { error: 'Choose at least one notification setting to change' });
export type UpdateNotificationPreferencesInput = z.infer<typeof updateNotificationPreferencesInput>;
