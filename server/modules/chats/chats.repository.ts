/**
 * Read side of internal chats, in the API shapes of common/api/chats.ts, always as one viewer sees
 * them: a thread is listed only for its participants, shows the other person, and counts the
 * messages from others after the viewer's `last_read_at` as unread.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { ChatThreadView, chatMessageView } from '../../../common/api/chats';
import type { Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { presenceOf } from './presence';

export type ChatMessageView = z.infer<typeof chatMessageView>;

const role = (column: string) => sql<Role>`coalesce(${sql.ref(column)}, 'client')`;

/** Advisory lock namespace for "one thread per pair of people". */
const CHAT_PAIR_LOCK = 0x63686174;

/** Someone a viewer may start a chat with (ChatsService.findRecipients). */
export interface Recipient {
  id: string;
  name: string;
  email: string;
  company: string | null;
  role: 'admin' | 'manager' | 'client';
}

/** Who starts a chat: the recipients depend on their role. */
interface Viewer {
  id: string;
  role: Role;
}

export class ChatsRepository {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** The viewer's threads, most recent first. */
  async findThreadViews(viewerId: string, threadId?: string, db: Db = this.deps.db): Promise<ChatThreadView[]> {
    let q = db
      .selectFrom('chatParticipants as me')
      .innerJoin('chatThreads as t', 't.id', 'me.threadId')
      .innerJoin('chatParticipants as op', (join) => join.onRef('op.threadId', '=', 't.id').onRef('op.userId', '<>', 'me.userId'))
      .innerJoin('users as other', 'other.id', 'op.userId')
      .leftJoin('userRoles as otherRole', 'otherRole.userId', 'other.id')
      .leftJoin('clients as cl', 'cl.id', 'other.clientId')
      .select((eb) => [
        't.id',
        't.lastMessageAt',
        't.lastMessagePreview',
        't.createdAt',
        'other.id as otherId',
        'other.fullName as otherName',
        'other.email as otherEmail',
        'other.avatarUrl as otherAvatarUrl',
        'other.lastSeenAt as otherLastSeenAt',
        sql<string | null>`coalesce(cl.company_name, other.company)`.as('otherCompany'),
        role('otherRole.role').as('otherRole'),
        eb
          .selectFrom('chatMessages as m')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('m.threadId', '=', 't.id')
          .where(sql<boolean>`m.sender_id is distinct from me.user_id`)
          .where(sql<boolean>`m.created_at > coalesce(me.last_read_at, '-infinity'::timestamptz)`)
          .as('unreadCount'),
      ])
      .where('me.userId', '=', viewerId)
      .orderBy(sql`coalesce(t.last_message_at, t.created_at)`, 'desc')
      .orderBy('t.id', 'desc');
    if (threadId) q = q.where('t.id', '=', threadId);
    const now = this.deps.clock.now();
    return (await q.execute()).map((r) => ({
      id: r.id,
      type: r.otherRole === 'client' ? 'client' : 'admin',
      participant: {
        id: r.otherId,
        name: r.otherName,
        email: r.otherEmail,
        company: r.otherCompany,
        avatarUrl: r.otherAvatarUrl,
        role: r.otherRole,
      },
      lastMessage: r.lastMessagePreview,
      lastMessageAt: r.lastMessageAt ? r.lastMessageAt.toISOString() : null,
      unreadCount: r.unreadCount ?? 0,
      status: presenceOf(r.otherLastSeenAt, now),
    }));
  }

  async findThreadView(viewerId: string, threadId: string, db: Db = this.deps.db): Promise<ChatThreadView | undefined> {
    return (await this.findThreadViews(viewerId, threadId, db))[0];
  }

  #messages(db: Db) {
    return db
      .selectFrom('chatMessages as m')
      .leftJoin('users as sender', 'sender.id', 'm.senderId')
      .leftJoin('userRoles as senderRole', 'senderRole.userId', 'm.senderId')
      .select(['m.id', 'm.threadId', 'm.senderId', 'm.body', 'm.createdAt', 'sender.fullName as senderName', role('senderRole.role').as('senderRole')]);
  }

  /** The latest `limit` messages of a thread, oldest first. */
  async findMessageViews(threadId: string, limit: number): Promise<ChatMessageView[]> {
    const rows = await this.#messages(this.deps.db)
      .where('m.threadId', '=', threadId)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map(toChatMessageView);
  }

  /** A message, if `viewerId` takes part in its thread. */
  async findMessageView(messageId: string, viewerId: string, db: Db = this.deps.db): Promise<ChatMessageView | undefined> {
    const row = await this.#messages(db)
      .where('m.id', '=', messageId)
      .where((eb) =>
        eb.exists(eb.selectFrom('chatParticipants as p').select('p.userId').whereRef('p.threadId', '=', 'm.threadId').where('p.userId', '=', viewerId)),
      )
      .executeTakeFirst();
    return row ? toChatMessageView(row) : undefined;
  }

  async participantIds(threadId: string, db: Db = this.deps.db): Promise<string[]> {
    const rows = await db.selectFrom('chatParticipants').select('userId').where('threadId', '=', threadId).execute();
    return rows.map((r) => r.userId);
  }

  /**
   * People the viewer may start a chat with: administrators with any active user; managers and
   * client users with administrators.
   */
  #recipients(viewer: Viewer, db: Db) {
    let q = db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .leftJoin('clients', 'clients.id', 'users.clientId')
      .select([
        'users.id',
        'users.fullName as name',
        'users.email',
        sql<string | null>`coalesce(clients.company_name, users.company)`.as('company'),
        sql<Recipient['role']>`coalesce(user_roles.role, 'client')`.as('role'),
      ])
      .where('users.id', '<>', viewer.id)
      .where('users.disabledAt', 'is', null);
    if (viewer.role !== 'admin') q = q.where('userRoles.role', '=', 'admin');
    return q;
  }

  /** Every recipient the viewer may pick, by name. */
  async findRecipients(viewer: Viewer, db: Db = this.deps.db): Promise<Recipient[]> {
    return this.#recipients(viewer, db).orderBy('users.fullName').orderBy('users.id').execute();
  }

  /** One recipient, if the viewer may start a chat with them. */
  async findRecipient(viewer: Viewer, recipientId: string, db: Db = this.deps.db): Promise<Recipient | undefined> {
    return this.#recipients(viewer, db).where('users.id', '=', recipientId).executeTakeFirst();
  }

  /** Transaction-scoped lock on a pair of people (`pair`: their sorted ids joined), held until `trx` ends. */
  async lockPair(pair: string, trx: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(${CHAT_PAIR_LOCK}, hashtext(${pair}))`.execute(trx);
  }

  /** The oldest thread with exactly these two participants. */
  async findPairThreadId(userId: string, otherId: string, db: Db = this.deps.db): Promise<string | undefined> {
    const existing = await db
      .selectFrom('chatThreads as t')
      .select('t.id')
      .where((eb) =>
        eb.and([
          eb.exists(eb.selectFrom('chatParticipants as a').select('a.userId').whereRef('a.threadId', '=', 't.id').where('a.userId', '=', userId)),
          eb.exists(eb.selectFrom('chatParticipants as b').select('b.userId').whereRef('b.threadId', '=', 't.id').where('b.userId', '=', otherId)),
          eb(eb.selectFrom('chatParticipants as c').select(sql<number>`count(*)::int`.as('n')).whereRef('c.threadId', '=', 't.id'), '=', 2),
        ]),
      )
      .orderBy('t.createdAt')
      .limit(1)
      .executeTakeFirst();
    return existing?.id;
  }

  /** A new two-person thread started by `createdBy`; its id. Call inside a transaction. */
  async createThread(createdBy: string, otherId: string, trx: Db): Promise<string> {
    const { id } = await trx.insertInto('chatThreads').values({ createdBy }).returning('id').executeTakeFirstOrThrow();
    await trx
      .insertInto('chatParticipants')
      .values([
        { threadId: id, userId: createdBy },
        { threadId: id, userId: otherId },
      ])
      .execute();
    return id;
  }

  async isParticipant(threadId: string, userId: string, db: Db = this.deps.db): Promise<boolean> {
    const row = await db.selectFrom('chatParticipants').select('userId').where('threadId', '=', threadId).where('userId', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  /** Moves the participant's read mark to the thread's latest message (never backwards). */
  async markReadToLatest(threadId: string, userId: string, db: Db = this.deps.db): Promise<void> {
    await db
      .updateTable('chatParticipants')
      .set({
        lastReadAt: sql<Date>`greatest(coalesce(last_read_at, '-infinity'::timestamptz), coalesce((select max(created_at) from chat_messages where thread_id = ${threadId}), now()))`,
      })
      .where('threadId', '=', threadId)
      .where('userId', '=', userId)
      .execute();
  }

  async insertMessage(
    message: { threadId: string; senderId: string; body: string; createdAt: Date },
    db: Db = this.deps.db,
  ): Promise<{ id: string; createdAt: Date }> {
    return db.insertInto('chatMessages').values(message).returning(['id', 'createdAt']).executeTakeFirstOrThrow();
  }

  /** The thread's latest message time and preview. */
  async touchThread(threadId: string, last: { lastMessageAt: Date; lastMessagePreview: string }, db: Db = this.deps.db): Promise<void> {
    await db.updateTable('chatThreads').set(last).where('id', '=', threadId).execute();
  }

  /** Moves the participant's read mark to `at` (never backwards). */
  async advanceReadMark(threadId: string, userId: string, at: Date, db: Db = this.deps.db): Promise<void> {
    await db
      .updateTable('chatParticipants')
      .set({ lastReadAt: sql<Date>`greatest(coalesce(last_read_at, '-infinity'::timestamptz), ${at}::timestamptz)` })
      .where('threadId', '=', threadId)
      .where('userId', '=', userId)
      .execute();
  }
}

function toChatMessageView(r: {
  id: string;
  threadId: string;
  senderId: string | null;
  body: string;
  createdAt: Date;
  senderName: string | null;
  senderRole: Role;
}): ChatMessageView {
  return {
    id: r.id,
    threadId: r.threadId,
    senderId: r.senderId,
    senderName: r.senderName ?? 'Former user',
    message: r.body,
    timestamp: r.createdAt.toISOString(),
    isAdmin: r.senderId !== null && r.senderRole === 'admin',
  };
}
