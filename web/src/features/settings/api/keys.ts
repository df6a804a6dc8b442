import type { AdminSessionsQuery, SecurityEventsExportQuery } from '@common/api/security';

/** The audit log's filters as the page keeps them (empty strings: no filter). */
export type AuditLogFilters = Pick<SecurityEventsExportQuery, 'type' | 'user' | 'from' | 'to'>;

export const settingsKeys = {
  security: ['admin', 'security'] as const,
  securitySettings: ['admin', 'security', 'settings'] as const,
  events: (filters: AuditLogFilters) => ['admin', 'security', 'events', filters] as const,
  sessions: (filters: Pick<AdminSessionsQuery, 'user'>) => ['admin', 'security', 'sessions', filters] as const,
};
