/**
 * Admin Settings → Security (docs/admin-settings.md): the settings, the audit log of security events
 * and every user's live sessions with revocation. Administrators only (the routes' access list).
 * Sessions are the auth module's, reached through the `SessionDirectory` app.ts fills in.
 */
import { z } from 'zod';
import type {
  AdminSessionsQuery,
  AdminSessionView,
  SecurityEventsExportQuery,
  SecurityEventsQuery,
  SecurityEventsResponse,
  SecuritySettings,
} from '../../../common/api/security';
import type { Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { SecurityEventsService } from './security-events.service';
import type { SecuritySettingsService, SettingsActor } from './security-settings.service';

/** A live session with its user (the auth module's `UserSessionRow`). */
export interface DirectorySession {
  id: string;
  userId: string;
  userName: string;
  userEmail: string;
  userRole: Role;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  /** Last activity in whole microseconds (the cursor). */
  key: string;
}

/** Every user's sessions (AuthService): listed, and one signed out. */
export interface SessionDirectory {
  find(filter: { user?: string | undefined; after: { key: string; id: string } | null; limit: number }): Promise<DirectorySession[]>;
  /** Deletes the session (in `db`'s transaction); whose it was, or undefined for none. */
  revoke(sessionId: string, db: Db): Promise<{ userId: string; email: string | null } | undefined>;
}

/** The administrator making the request. */
export interface AdminCaller extends SettingsActor {
  sessionId: string;
}

// Microseconds since 1970, at most 17 digits (year 5138): always a valid time for PostgreSQL.
const cursorSchema = z.object({ k: z.string().regex(/^\d{1,17}$/u), id: z.uuid() });

function decodeCursor(cursor: string): { key: string; id: string } {
  try {
    const parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { key: parsed.k, id: parsed.id };
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' }, cause: error });
  }
}

const encodeCursor = (row: { key: string; id: string }): string => Buffer.from(JSON.stringify({ k: row.key, id: row.id })).toString('base64url');

export interface SecurityAdminDeps {
  db: Db;
  settings: SecuritySettingsService;
  events: SecurityEventsService;
  sessions: SessionDirectory;
  clock: Clock;
}

export class SecurityAdminService {
  constructor(private readonly deps: SecurityAdminDeps) {}

  async getSettings(): Promise<SecuritySettings> {
    return this.deps.settings.get();
  }

  async updateSettings(caller: AdminCaller, input: SecuritySettings): Promise<SecuritySettings> {
    return this.deps.settings.update(caller, input);
  }

  async findEvents(query: SecurityEventsQuery): Promise<SecurityEventsResponse> {
    return this.deps.events.findEvents(query);
  }

  async exportEvents(query: SecurityEventsExportQuery): Promise<{ filename: string; csv: string }> {
    return this.deps.events.exportCsv(query, this.deps.clock.now());
  }

  /** Every user's live sessions, most recently active first; the caller's own is marked. */
  async findSessions(caller: AdminCaller, query: AdminSessionsQuery): Promise<{ sessions: AdminSessionView[]; nextCursor: string | null }> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await this.deps.sessions.find({ user: query.user || undefined, after, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      sessions: page.map((row) => ({
        id: row.id,
        userId: row.userId,
        userName: row.userName,
        userEmail: row.userEmail,
        userRole: row.userRole,
        ipAddress: row.ipAddress,
        userAgent: row.userAgent,
        createdAt: row.createdAt.toISOString(),
        lastActiveAt: row.updatedAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        current: row.id === caller.sessionId,
      })),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  /** Signs a session out at once, recorded as `auth.session_revoked` (with who did it) in the same transaction. */
  async revokeSession(caller: AdminCaller, sessionId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const revoked = await this.deps.sessions.revoke(sessionId, trx);
      if (!revoked) throw notFound('Session');
      await this.deps.events.record(
        {
          type: 'auth.session_revoked',
          severity: 'warning',
          userId: revoked.userId,
          email: revoked.email,
          ipAddress: caller.ip,
          userAgent: caller.userAgent,
          details: { sessionId, revokedBy: caller.id, revokedByEmail: caller.email, own: revoked.userId === caller.id },
        },
        trx,
      );
    });
  }
}
