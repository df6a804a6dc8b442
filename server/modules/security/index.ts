/**
 * The security module: the security log, written by the modules that see the events; Admin
 * Settings → Security (the two-factor requirement, the session lifetime, the audit log and every
 * user's sessions — those through the SessionDirectory app.ts fills in).
 */
export { SecurityEventsService } from './security-events.service';
export type { SecurityEventInput, SecurityEventType } from './security-events.repository';
export { SecuritySettingsService, type SessionLimits, type SettingsStore } from './security-settings.service';
export { SecurityAdminService, type DirectorySession, type SessionDirectory } from './security-admin.service';
export { securityRoutes } from './security.routes';
