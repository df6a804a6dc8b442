import { sql } from 'kysely';
import { DEFAULT_NOTIFICATION_PREFERENCES, notificationPreferences, type NotificationPreferences } from '../../../common/api/me';
import type { Db } from '../../db/database';
import { json } from '../../db/sql';

export interface ProfileChanges {
  fullName: string;
  avatarUrl?: string | null | undefined;
  phone?: string | null | undefined;
  company?: string | null | undefined;
}

export interface SessionRow {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** The signed-in user's own rows: every query is keyed by that user's id. */
export class ProfileRepository {
  constructor(private readonly db: Db) {}

  /** Undefined fields stay as they are; null clears. */
  async updateProfile(userId: string, changes: ProfileChanges): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({
        fullName: changes.fullName,
        ...(changes.avatarUrl !== undefined ? { avatarUrl: changes.avatarUrl } : {}),
        ...(changes.phone !== undefined ? { phone: changes.phone } : {}),
        ...(changes.company !== undefined ? { company: changes.company } : {}),
        updatedAt: sql<Date>`now()`,
      })
      .where('id', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

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

  async getNotificationPreferences(userId: string): Promise<NotificationPreferences | undefined> {
    const row = await this.db.selectFrom('users').select('notificationPreferences').where('id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    // Stored documents may predate a preference: the defaults fill the gaps.
    const parsed = notificationPreferences.safeParse({ ...DEFAULT_NOTIFICATION_PREFERENCES, ...row.notificationPreferences });
    return parsed.success ? parsed.data : DEFAULT_NOTIFICATION_PREFERENCES;
  }

  async setNotificationPreferences(userId: string, preferences: NotificationPreferences): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ notificationPreferences: json(preferences), updatedAt: sql<Date>`now()` })
      .where('id', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
