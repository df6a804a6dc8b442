import { sql } from 'kysely';
import { DEFAULT_ROLE, type Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import { containsPattern } from '../../lib/search';

export interface SessionRow {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** A live session with its user, as the administrators' list shows it (`key`: last activity in whole microseconds, for the cursor). */
export interface UserSessionRow extends SessionRow {
  userId: string;
  userName: string;
  userEmail: string;
  userRole: Role;
  key: string;
}

export interface UserSessionFilter {
  /** Part of the user's e-mail address or name. */
  user?: string | undefined;
  /** The rows after this one (its `key` and id). */
  after?: { key: string; id: string } | null;
  limit: number;
}

/**
 * Sign-in sessions (better-auth's `sessions` table). A user's own are keyed by that user's id;
 * the administrators' list and revocation (Admin Settings → Security) read every user's, joined
 * with the users' names and roles.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  /** Live sessions, most recently active first. */
  async findSessions(userId: string): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'ipAddress', 'userAgent', 'createdAt', 'updatedAt', 'expiresAt'])
      .where('userId', '=', userId)
      .where('expiresAt', '>', sql<Date>`now()`)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .execute();
  }

  async deleteSession(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', sessionId).where('userId', '=', userId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteOtherSessions(userId: string, keepSessionId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('userId', '=', userId).where('id', '<>', keepSessionId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes every session of a client's users (the client's deactivation), in `db` when it is a transaction; how many. */
  async deleteClientSessions(clientId: string, db: Db = this.db): Promise<number> {
    const result = await db
      .deleteFrom('sessions')
      .where('userId', 'in', (eb) => eb.selectFrom('users').select('users.id').where('users.clientId', '=', clientId))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Every user's live sessions, most recently active first. */
  async findUserSessions(filter: UserSessionFilter): Promise<UserSessionRow[]> {
    let query = this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.userId')
      .leftJoin('userRoles as r', 'r.userId', 'u.id')
      .select([
        's.id',
        's.userId',
        's.ipAddress',
        's.userAgent',
        's.createdAt',
        's.updatedAt',
        's.expiresAt',
        'u.fullName as userName',
        'u.email as userEmail',
        sql<Role>`coalesce(r.role, ${DEFAULT_ROLE})`.as('userRole'),
        sql<string>`(extract(epoch from s.updated_at) * 1000000)::bigint::text`.as('key'),
      ])
      .where('s.expiresAt', '>', sql<Date>`now()`);
    if (filter.user) {
      const pattern = containsPattern(filter.user);
      query = query.where((eb) => eb.or([eb('u.email', 'ilike', pattern), eb('u.fullName', 'ilike', pattern)]));
    }
    if (filter.after) {
      query = query.where(
        sql<boolean>`(s.updated_at, s.id) < ('epoch'::timestamptz + ${filter.after.key}::bigint * interval '1 microsecond', ${filter.after.id}::uuid)`,
      );
    }
    return query.orderBy('s.updatedAt', 'desc').orderBy('s.id', 'desc').limit(filter.limit).execute();
  }

  /** Deletes any user's session (an administrator's revocation); whose it was, or undefined for none. */
  async deleteSessionById(sessionId: string, db: Db = this.db): Promise<{ userId: string } | undefined> {
    return db.deleteFrom('sessions').where('id', '=', sessionId).returning('userId').executeTakeFirst();
  }

  /** A live session now lasts until `expiresAt` and counts as active now (the renewal of a session in use). */
  async renewSession(sessionId: string, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expiresAt, updatedAt: sql<Date>`now()` })
      .where('id', '=', sessionId)
      .where('expiresAt', '>', sql<Date>`now()`)
      .execute();
  }

  /** Every session that would outlive `latest` ends then instead (a shorter session lifetime); how many. */
  async shortenSessions(latest: Date, db: Db = this.db): Promise<number> {
    const result = await db.updateTable('sessions').set({ expiresAt: latest }).where('expiresAt', '>', latest).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
