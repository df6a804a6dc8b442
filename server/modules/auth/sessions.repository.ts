import { sql } from 'kysely';
import type { Db } from '../../db/database';

export interface SessionRow {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** A user's sign-in sessions (better-auth's `sessions` table): every query is keyed by that user's id. */
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
}
