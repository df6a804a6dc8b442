/**
 * Message lists of the portal: a conversation's thread and the messages view (/messages, the
 * dashboard inbox, its CSV export). Rows are in the shape of `toMessageView`
 * (conversations.repository.ts) and scoped like every query there.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { findMessagesQuery } from '../../../common/api/conversations';
import type { Db } from '../../db/database';
import { containsPattern } from '../../lib/search';
import { contactLabelSql, messageQuery, type Scope } from './conversations.repository';

/** The messages view's filter (all, unread or a priority) and search. */
export type MessageFilter = Pick<z.output<typeof findMessagesQuery>, 'filter' | 'search'>;

/** Customer messages matching the filter and search (content, client, contact label, AI summary). */
function filteredMessages(db: Db, scope: Scope, filter: MessageFilter) {
  let q = messageQuery(db, scope).where('m.direction', '=', 'inbound');
  if (filter.filter === 'unread') q = q.where('m.readAt', 'is', null);
  else if (filter.filter !== 'all') q = q.where('m.priority', '=', filter.filter);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    q = q.where((eb) =>
      eb.or([
        eb('m.content', 'ilike', pattern),
        eb('cl.companyName', 'ilike', pattern),
        eb(contactLabelSql, 'ilike', pattern),
        eb('m.aiSummary', 'ilike', pattern),
      ]),
    );
  }
  return q;
}

export class MessagesViewRepository {
  constructor(private readonly db: Db) {}

  /** Whether the message exists and belongs to the conversation. */
  async isMessageInConversation(messageId: string, conversationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('messages')
      .select('id')
      .where('id', '=', messageId)
      .where('conversationId', '=', conversationId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A conversation's messages, newest first, `limit` rows; with `before`, those older than that message. */
  async findThreadRows(scope: Scope, conversationId: string, page: { before?: string | undefined; limit: number }) {
    let q = messageQuery(this.db, scope).where('m.conversationId', '=', conversationId);
    if (page.before) q = q.where(sql<boolean>`(m.created_at, m.id) < (select created_at, id from messages where id = ${page.before})`);
    return q
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(page.limit)
      .execute();
  }

  /** The messages view's rows, newest first, `limit` rows. */
  async findMessageRows(scope: Scope, filter: MessageFilter, limit: number) {
    return filteredMessages(this.db, scope, filter)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Every unread customer message in the scope. */
  async countUnreadMessages(scope: Scope): Promise<number> {
    let unread = this.db
      .selectFrom('messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('direction', '=', 'inbound')
      .where('readAt', 'is', null);
    if (scope.clientId !== null) unread = unread.where('clientId', '=', scope.clientId);
    const { n } = await unread.executeTakeFirstOrThrow();
    return n;
  }

  /** The unread messages matching the filter and search (every match), in the caller's transaction. */
  async findUnreadMessageRefs(scope: Scope, filter: MessageFilter, trx: Db): Promise<{ id: string; conversationId: string }[]> {
    return filteredMessages(trx, scope, filter).where('m.readAt', 'is', null).clearSelect().select(['m.id', 'm.conversationId']).execute();
  }
}
