import { sql } from 'kysely';
import { type NotificationPreferences, readNotificationPreferences, type UpdateNotificationPreferencesInput } from '../../../common/api/me';
import type { Db } from '../../db/database';
import { json } from '../../db/sql';

export interface ProfileChanges {
  fullName: string;
  avatarUrl?: string | null | undefined;
  phone?: string | null | undefined;
  company?: string | null | undefined;
}

/** A person's own profile fields and notification preferences (the profile page): keyed by their user id. */
export class UserProfileRepository {
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

  async getNotificationPreferences(userId: string): Promise<NotificationPreferences | undefined> {
    const row = await this.db.selectFrom('users').select('notificationPreferences').where('id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    // Stored documents may predate a preference: the defaults fill the gaps.
    return readNotificationPreferences(row.notificationPreferences);
  }

  /** Merges `changes` into the stored document in one statement; the preferences as they now read (undefined: no such user). */
  async updateNotificationPreferences(userId: string, changes: UpdateNotificationPreferencesInput): Promise<NotificationPreferences | undefined> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => typeof value === 'boolean'));
    const row = await this.db
      .updateTable('users')
      .set({ notificationPreferences: sql<string>`notification_preferences || ${JSON.stringify(given)}::jsonb`, updatedAt: sql<Date>`now()` })
      .where('id', '=', userId)
      .returning('notificationPreferences')
      .executeTakeFirst();
    return row ? readNotificationPreferences(row.notificationPreferences) : undefined;
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
