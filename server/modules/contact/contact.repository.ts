/**
 * The contact module's tables (migration 0024): contact messages and their replies, newsletter
 * subscribers and the public forms' per-IP counters. The only file of the module with SQL. Times
 * come from the service's clock, so every rule reads one clock.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { NewsletterStatus } from '../../db/schema';

export interface ContactMessageRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  message: string;
  createdAt: Date;
  readAt: Date | null;
  replyCount: number;
}

export interface ContactReplyRow {
  id: string;
  body: string;
  sentAt: Date;
  sentById: string | null;
  sentByName: string | null;
  emailId: string | null;
}

export interface SubscriberRow {
  id: string;
  email: string;
  status: NewsletterStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
  confirmSentAt: Date | null;
  confirmTokenHash: string | null;
}

const MESSAGE_COLUMNS = [
  'contactMessages.id',
  'contactMessages.firstName',
  'contactMessages.lastName',
  'contactMessages.email',
  'contactMessages.company',
  'contactMessages.message',
  'contactMessages.createdAt',
  'contactMessages.readAt',
] as const;

const SUBSCRIBER_COLUMNS = ['id', 'email', 'status', 'createdAt', 'confirmedAt', 'unsubscribedAt', 'confirmSentAt', 'confirmTokenHash'] as const;

export class ContactRepository {
  constructor(private readonly db: Db) {}

  // Per-IP counters (fixed windows, shared by every instance)

  /**
   * Counts one request against `key`'s window and returns the window after it: a window that
   * started before `windowStartAfter` is over, and this request starts a new one. One statement
   * under the row's lock, so concurrent requests on any instance count exactly.
   */
  async hitRateLimit(key: string, now: Date, windowStartAfter: Date, db: Db = this.db): Promise<{ hits: number; windowStartedAt: Date }> {
    return db
      .insertInto('contactRateLimits')
      .values({ key, windowStartedAt: now, hits: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when contact_rate_limits.window_started_at <= ${windowStartAfter} then 1 else contact_rate_limits.hits + 1 end`,
          windowStartedAt: sql<Date>`case when contact_rate_limits.window_started_at <= ${windowStartAfter} then ${now}::timestamptz else contact_rate_limits.window_started_at end`,
        }),
      )
      .returning(['hits', 'windowStartedAt'])
      .executeTakeFirstOrThrow();
  }

  /** Forgets counters whose window started before `before` (they no longer limit anything). */
  async pruneRateLimits(before: Date, db: Db = this.db): Promise<number> {
    const result = await db.deleteFrom('contactRateLimits').where('windowStartedAt', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // Contact messages

  async insertMessage(
    message: { firstName: string; lastName: string; email: string; company: string | null; message: string; createdAt: Date },
    db: Db = this.db,
  ): Promise<ContactMessageRow> {
    const row = await db
      .insertInto('contactMessages')
      .values(message)
      .returning(['id', 'firstName', 'lastName', 'email', 'company', 'message', 'createdAt', 'readAt'])
      .executeTakeFirstOrThrow();
    return { ...row, replyCount: 0 };
  }

  /** The newest messages first, each with its number of replies. */
  async findMessages(limit: number, db: Db = this.db): Promise<ContactMessageRow[]> {
    return this.#messages(db).orderBy('contactMessages.createdAt', 'desc').orderBy('contactMessages.id', 'desc').limit(limit).execute();
  }

  async findMessage(id: string, db: Db = this.db): Promise<ContactMessageRow | undefined> {
    return this.#messages(db).where('contactMessages.id', '=', id).executeTakeFirst();
  }

  async countUnread(db: Db = this.db): Promise<number> {
    const { count } = await db
      .selectFrom('contactMessages')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('readAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The message, locked until the transaction ends (a reply), or undefined. */
  async lockMessage(id: string, trx: Db): Promise<{ id: string; firstName: string; email: string; message: string; createdAt: Date } | undefined> {
    return trx.selectFrom('contactMessages').select(['id', 'firstName', 'email', 'message', 'createdAt']).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /** Marks the message read by `readerId` unless it was read already (the first reader stays); false when there is no such message. */
  async markRead(id: string, readerId: string, at: Date, db: Db = this.db): Promise<boolean> {
    const row = await db
      .updateTable('contactMessages')
      .set({
        readAt: sql<Date>`coalesce(read_at, ${at}::timestamptz)`,
        readBy: sql<string | null>`case when read_at is null then ${readerId}::uuid else read_by end`,
      })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the message with its replies; false when there is no such message. */
  async deleteMessage(id: string, db: Db = this.db): Promise<boolean> {
    const row = await db.deleteFrom('contactMessages').where('id', '=', id).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  async insertReply(reply: { messageId: string; body: string; sentAt: Date; sentBy: string; emailId: string }, trx: Db): Promise<string> {
    const row = await trx.insertInto('contactReplies').values(reply).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** A message's replies, oldest first, with who sent each (null once that account is gone). */
  async findReplies(messageId: string, db: Db = this.db): Promise<ContactReplyRow[]> {
    return db
      .selectFrom('contactReplies')
      .leftJoin('users', 'users.id', 'contactReplies.sentBy')
      .select([
        'contactReplies.id',
        'contactReplies.body',
        'contactReplies.sentAt',
        'contactReplies.emailId',
        'users.id as sentById',
        'users.fullName as sentByName',
      ])
      .where('contactReplies.messageId', '=', messageId)
      .orderBy('contactReplies.sentAt')
      .orderBy('contactReplies.id')
      .execute();
  }

  #messages(db: Db) {
    return db
      .selectFrom('contactMessages')
      .select(MESSAGE_COLUMNS)
      .select(sql<number>`(select count(*)::int from contact_replies where contact_replies.message_id = contact_messages.id)`.as('replyCount'));
  }

  // Newsletter subscribers

  /** Adds the address as pending unless it is known already (then nothing changes). */
  async insertSubscriberIfNew(subscriber: { id: string; email: string; unsubscribeTokenHash: string; createdAt: Date }, trx: Db): Promise<void> {
    await trx
      .insertInto('newsletterSubscribers')
      .values({ ...subscriber, status: 'pending' })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  }

  /** The subscriber with this address, locked until the transaction ends. */
  async lockSubscriberByEmail(email: string, trx: Db): Promise<SubscriberRow | undefined> {
    return trx.selectFrom('newsletterSubscribers').select(SUBSCRIBER_COLUMNS).where('email', '=', email).forUpdate().executeTakeFirst();
  }

  /** A new confirmation link for the subscriber (the previous one stops working). */
  async setConfirmToken(id: string, token: { hash: string; expiresAt: Date; sentAt: Date }, trx: Db): Promise<void> {
    await trx
      .updateTable('newsletterSubscribers')
      .set({ confirmTokenHash: token.hash, confirmExpiresAt: token.expiresAt, confirmSentAt: token.sentAt })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Subscribes the address whose unexpired confirmation link has this hash (again is fine: it
   * stays subscribed since its first confirmation); false for no such link.
   */
  async confirmByTokenHash(hash: string, now: Date, db: Db = this.db): Promise<boolean> {
    const row = await db
      .updateTable('newsletterSubscribers')
      .set({
        status: 'subscribed',
        confirmedAt: sql<Date>`case when status = 'subscribed' then confirmed_at else ${now}::timestamptz end`,
        unsubscribedAt: null,
      })
      .where('confirmTokenHash', '=', hash)
      .where('confirmExpiresAt', '>', now)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Unsubscribes the address whose unsubscribe link has this hash, and voids its confirmation link
   * (again is fine: the first time stays); false for no such link.
   */
  async unsubscribeByTokenHash(hash: string, now: Date, db: Db = this.db): Promise<boolean> {
    const row = await db
      .updateTable('newsletterSubscribers')
      .set({
        status: 'unsubscribed',
        unsubscribedAt: sql<Date>`case when status = 'unsubscribed' then unsubscribed_at else ${now}::timestamptz end`,
        confirmTokenHash: null,
        confirmExpiresAt: null,
      })
      .where('unsubscribeTokenHash', '=', hash)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every subscriber, newest first. */
  async findSubscribers(db: Db = this.db): Promise<SubscriberRow[]> {
    return db.selectFrom('newsletterSubscribers').select(SUBSCRIBER_COLUMNS).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  }

  async countSubscribersByStatus(db: Db = this.db): Promise<Record<NewsletterStatus, number>> {
    const rows = await db
      .selectFrom('newsletterSubscribers')
      .select(['status', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy('status')
      .execute();
    const counts: Record<NewsletterStatus, number> = { pending: 0, subscribed: 0, unsubscribed: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }
}
