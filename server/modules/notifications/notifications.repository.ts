/** The notifications table: every query is keyed by the owner's id. */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Notification } from '../../db/schema';

export class NotificationsRepository {
  constructor(private readonly db: Db) {}

  async insertNotification(
    notification: { userId: string; kind: string; title: string; body: string | null; link: string | null },
    db: Db = this.db,
  ): Promise<Notification> {
    return db.insertInto('notifications').values(notification).returningAll().executeTakeFirstOrThrow();
  }

  /** The user's newest notifications first. */
  async findNotifications(userId: string, limit: number, db: Db = this.db): Promise<Notification[]> {
    return db
      .selectFrom('notifications')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async countUnread(userId: string, db: Db = this.db): Promise<number> {
    const { count } = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Marks one of the user's notifications read (again is fine); false when the user has no such notification. */
  async markRead(userId: string, notificationId: string, db: Db = this.db): Promise<boolean> {
    const row = await db
      .updateTable('notifications')
      .set({ readAt: sql<Date>`coalesce(read_at, now())` })
      .where('id', '=', notificationId)
      .where('userId', '=', userId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks all the user's unread notifications read; how many. */
  async markAllRead(userId: string, db: Db = this.db): Promise<number> {
    const result = await db
      .updateTable('notifications')
      .set({ readAt: sql<Date>`now()` })
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
