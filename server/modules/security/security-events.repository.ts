import type { Db } from '../../db/database';
import type { SecuritySeverity } from '../../db/schema';
import { json } from '../../db/sql';

export type SecurityEventType =
  | 'auth.account_locked'
  | 'auth.login_escalated'
  | 'auth.password_reset'
  | 'auth.password_changed'
  | 'auth.two_factor_enabled'
  | 'auth.two_factor_disabled'
  | 'users.role_changed'
  | 'access.permission_denied'
  | 'api_keys.created'
  | 'api_keys.revoked';

export interface SecurityEventInput {
  type: SecurityEventType;
  severity?: SecuritySeverity;
  userId?: string | null;
  email?: string | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
  at?: Date;
}

/** The security log (spec "security event"), kept in the database instead of memory. */
export class SecurityEventsRepository {
  constructor(private readonly db: Db) {}

  async record(event: SecurityEventInput, db: Db = this.db): Promise<void> {
    await db
      .insertInto('securityEvents')
      .values({
        type: event.type,
        severity: event.severity ?? 'info',
        userId: event.userId ?? null,
        email: event.email ?? null,
        ipAddress: event.ipAddress ?? null,
        userAgent: event.userAgent ?? null,
        details: json(event.details ?? {}),
        ...(event.at ? { createdAt: event.at } : {}),
      })
      .execute();
  }

  async findRecent(limit = 100) {
    return this.db.selectFrom('securityEvents').selectAll().orderBy('createdAt', 'desc').limit(limit).execute();
  }
}
