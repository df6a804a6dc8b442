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
