import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { SecuritySeverity } from '../../db/schema';
import { json } from '../../db/sql';
import { containsPattern } from '../../lib/search';

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
  | 'api_keys.revoked'
  // A client's automation paused or resumed, a client deactivated or reactivated (docs/client-dashboard.md).
  | 'clients.automation_paused'
  | 'clients.automation_resumed'
  | 'clients.deactivated'
  | 'clients.reactivated'
  // An administrator signed a session out; the Security tab's settings changed (docs/admin-settings.md).
  | 'auth.session_revoked'
  | 'security.settings_changed'
  // Billing changes by administrators (docs/billing.md).
  | 'billing.plan_changed'
  | 'billing.payment_recorded'
  | 'billing.invoice_voided'
  | 'billing.invoices_generated'
  // Onboarding requests decided and invitations to a business (docs/onboarding.md).
  | 'onboarding.approved'
  | 'onboarding.declined'
  | 'invitations.sent'
  | 'invitations.accepted'
  | 'invitations.revoked';

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

  /** The audit log: newest first, filtered; rows carry `key`, their time in whole microseconds, for the cursor. */
  async findEvents(filter: SecurityEventFilter): Promise<SecurityEventRow[]> {
    let query = this.db
      .selectFrom('securityEvents as e')
      .leftJoin('users as u', 'u.id', 'e.userId')
      .select([
        'e.id',
        'e.type',
        'e.severity',
        'e.userId',
        'u.fullName as userName',
        'u.email as userEmail',
        'e.email',
        'e.ipAddress',
        'e.userAgent',
        'e.details',
        'e.createdAt',
        sql<string>`(extract(epoch from e.created_at) * 1000000)::bigint::text`.as('key'),
      ]);
    if (filter.type) query = query.where('e.type', '=', filter.type);
    if (filter.userId) query = query.where('e.userId', '=', filter.userId);
    if (filter.user) {
      const pattern = containsPattern(filter.user);
      query = query.where((eb) => eb.or([eb('e.email', 'ilike', pattern), eb('u.email', 'ilike', pattern), eb('u.fullName', 'ilike', pattern)]));
    }
    if (filter.from) query = query.where('e.createdAt', '>=', filter.from);
    if (filter.to) query = query.where('e.createdAt', '<', filter.to);
    if (filter.after) {
      // Whole microseconds from the epoch: exact, unlike a JavaScript Date.
      query = query.where(
        sql<boolean>`(e.created_at, e.id) < ('epoch'::timestamptz + ${filter.after.key}::bigint * interval '1 microsecond', ${filter.after.id}::uuid)`,
      );
    }
    return query.orderBy('e.createdAt', 'desc').orderBy('e.id', 'desc').limit(filter.limit).execute();
  }
}

export interface SecurityEventFilter {
  type?: string | undefined;
  userId?: string | undefined;
  /** Part of the event's e-mail, or of its user's e-mail or name. */
  user?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  /** The rows after this one (its `key` and id). */
  after?: { key: string; id: string } | null;
  limit: number;
}

export interface SecurityEventRow {
  id: string;
  type: string;
  severity: SecuritySeverity;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  email: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
  key: string;
}
