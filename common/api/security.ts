/**
 * Admin Settings → Security (spec part 1 §2.17; server: server/modules/security). Administrators
 * only; sessions only (no API keys). Paths under /api/v1/admin/security.
 *
 *   GET    /settings                  -> securitySettings
 *   PUT    /settings                  securitySettings -> securitySettings
 *          400 with field messages; recorded as a `security.settings_changed` event. A shorter
 *          session lifetime also shortens the sessions already open (docs/admin-settings.md).
 *   GET    /events?type=&user=&userId=&from=&to=&cursor=&limit=
 *                                     -> securityEventsResponse (newest first; `nextCursor` pages on)
 *   GET    /events.csv?type=&user=&userId=&from=&to=
 *                                     -> text/csv, the same filter, newest first, at most SECURITY_CSV_MAX_ROWS rows
 *   GET    /sessions?user=&cursor=&limit=
 *                                     -> adminSessionsResponse (live sessions of every user, most recently active first)
 *   DELETE /sessions/:id              -> 204; that session is signed out at once (`auth.session_revoked`)
 *
 * Two-factor requirement: while `requireTwoFactorForStaff` is on, an admin or manager without
 * two-factor gets 403 TWO_FACTOR_REQUIRED from every API call but the two-factor setup, `GET
 * /api/v1/me`, the session and sign-out.
 */
import { z } from 'zod';
import { role } from './users';

const isoDate = z.iso.datetime({ offset: true });

/** Session lifetime bounds, in hours: one hour to 30 days. */
export const SESSION_LIFETIME_MIN_HOURS = 1;
export const SESSION_LIFETIME_MAX_HOURS = 30 * 24;
/** Parley's session lifetime before it was a setting: 7 days, renewed while in use. */
export const DEFAULT_SESSION_LIFETIME_HOURS = 7 * 24;

export const SECURITY_MESSAGES = {
  lifetimeRange: 'Session lifetime must be between 1 hour and 30 days',
  lifetimeWhole: 'Session lifetime must be a whole number of hours',
  dateRange: 'The end date must be after the start date',
  twoFactorRequired: 'Two-factor authentication is required for admins and managers. Set it up to continue.',
} as const;

export const securitySettings = z.object({
  /** Admins and managers must have two-factor authentication on to use the app. */
  requireTwoFactorForStaff: z.boolean(),
  /** How long a session lasts without being used; renewed while in use. */
  sessionLifetimeHours: z
    .number({ error: SECURITY_MESSAGES.lifetimeRange })
    .int({ error: SECURITY_MESSAGES.lifetimeWhole })
    .min(SESSION_LIFETIME_MIN_HOURS, { error: SECURITY_MESSAGES.lifetimeRange })
    .max(SESSION_LIFETIME_MAX_HOURS, { error: SECURITY_MESSAGES.lifetimeRange }),
});
export type SecuritySettings = z.infer<typeof securitySettings>;
export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  requireTwoFactorForStaff: false,
  sessionLifetimeHours: DEFAULT_SESSION_LIFETIME_HOURS,
};

/**
 * The security log's event types Parley records, with what the audit log calls them. The log may
 * hold others (recorded by a newer version); they show by their type.
 */
export const SECURITY_EVENT_LABELS: Readonly<Record<string, string>> = {
  'auth.account_locked': 'Account locked after failed sign-ins',
  'auth.login_escalated': 'Repeated failed sign-ins escalated',
  'auth.password_reset': 'Password reset',
  'auth.password_changed': 'Password changed',
  'auth.two_factor_enabled': 'Two-factor turned on',
  'auth.two_factor_disabled': 'Two-factor turned off',
  'auth.session_revoked': 'Session signed out by an administrator',
  'users.role_changed': 'Role changed',
  'access.permission_denied': 'Refused access to an admin screen',
  'api_keys.created': 'API key created',
  'api_keys.revoked': 'API key revoked',
  'clients.automation_paused': "Client's automation paused",
  'clients.automation_resumed': "Client's automation resumed",
  'clients.deactivated': 'Client deactivated',
  'clients.reactivated': 'Client reactivated',
  'security.settings_changed': 'Security settings changed',
};

export function securityEventLabel(type: string): string {
  return SECURITY_EVENT_LABELS[type] ?? type;
}

export const securitySeverity = z.enum(['info', 'warning', 'critical']);

export const securityEventView = z.object({
  id: z.uuid(),
  type: z.string(),
  severity: securitySeverity,
  /** The account the event is about (null: none, or deleted since). */
  userId: z.uuid().nullable(),
  userName: z.string().nullable(),
  /** The address the event names (a sign-in attempt's, or the account's). */
  email: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: isoDate,
});
export type SecurityEventView = z.infer<typeof securityEventView>;

/** A date-time, or a day (`2026-11-28`, read as 00:00 UTC), from 1970 to 9999. */
const instant = z.union([isoDate, z.iso.date()]).refine(
  (value) => {
    const at = Date.parse(value);
    return at >= 0 && at < Date.UTC(10_000, 0, 1);
  },
  { error: 'Choose a date between 1970 and 9999' },
);

const securityEventFilterShape = {
  /** One event type (`auth.account_locked`, …). */
  type: z
    .string()
    .trim()
    .regex(/^[a-z_]+(\.[a-z_]+)+$/u, { error: 'Unknown event type' })
    .max(64, { error: 'Unknown event type' })
    .optional(),
  /** Part of the e-mail address or name of the user the event is about. */
  user: z.string().trim().max(254, { error: 'Search text is too long' }).optional(),
  /** Exactly this user's events. */
  userId: z.uuid({ error: 'Invalid user' }).optional(),
  /** From this instant (inclusive). */
  from: instant.optional(),
  /** Until this instant (exclusive). */
  to: instant.optional(),
};

function checkRange(query: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (query.from && query.to && Date.parse(query.to) <= Date.parse(query.from)) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: SECURITY_MESSAGES.dateRange });
  }
}

export const securityEventsQuery = z
  .object({
    ...securityEventFilterShape,
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .superRefine(checkRange);
export type SecurityEventsQuery = z.infer<typeof securityEventsQuery>;

export const securityEventsExportQuery = z.object(securityEventFilterShape).superRefine(checkRange);
export type SecurityEventsExportQuery = z.infer<typeof securityEventsExportQuery>;

export const securityEventsResponse = z.object({ events: z.array(securityEventView), nextCursor: z.string().nullable() });
export type SecurityEventsResponse = z.infer<typeof securityEventsResponse>;

/** The CSV export's limit: the newest rows of the filter. */
export const SECURITY_CSV_MAX_ROWS = 10_000;

export const adminSessionView = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  userName: z.string(),
  userEmail: z.string(),
  userRole: role,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: isoDate,
  lastActiveAt: isoDate,
  expiresAt: isoDate,
  /** The session this request came with. */
  current: z.boolean(),
});
export type AdminSessionView = z.infer<typeof adminSessionView>;

export const adminSessionsQuery = z.object({
  /** Part of the user's e-mail address or name. */
  user: z.string().trim().max(254, { error: 'Search text is too long' }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminSessionsQuery = z.infer<typeof adminSessionsQuery>;

export const adminSessionsResponse = z.object({ sessions: z.array(adminSessionView), nextCursor: z.string().nullable() });
export type AdminSessionsResponse = z.infer<typeof adminSessionsResponse>;

export const sessionParams = z.object({ id: z.uuid({ error: 'Session not found' }) });
