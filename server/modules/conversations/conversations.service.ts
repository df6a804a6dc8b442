/**
 * The portal's conversations, threads, contacts and the messages view (/conversations, /messages,
 * the dashboard inbox). Every read and write is scoped to what the caller may see (`scopeFor`):
 * a client user asking for another client's conversation, message or contact gets "not found",
 * exactly as for an id that does not exist. Replies go through `MessagingService` (the one writer
 * of messages); this service changes only a conversation's handling (status, handler, assignee,
 * priority, title) and read state, publishing `conversation.updated` in the same transaction.
 */
import { sql } from 'kysely';
import { z } from 'zod';
import {
  type ContactView,
  type ConversationListItem,
  type ConversationSearchMatch,
  type ConversationView,
  type MessageView,
  type SendMessageInput,
  type UpdateConversationInput,
  conversationCounts,
  type exportMessagesQuery,
  type findContactsQuery,
  type findConversationsQuery,
  type findMessagesQuery,
  type findThreadQuery,
} from '../../../common/api/conversations';
import { contactLabel } from '../../../common/messaging/contact-label';
import type { Db } from '../../db/database';
import type { PerformedBy } from '../../events/domain-events';
import type { SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';
import { contactLabelSql, type ConversationsRepository, messageSearchHits, type Scope, toConversationView, toMessageView } from './conversations.repository';
import { searchedText, snippetSegments, wordsOf } from './search-snippet';
import type { InboxStateService, MessagingService } from '../messaging';
import type { UsersService } from '../users';
import { messagesCsv, messagesCsvFilename } from './messages-csv';
import { scopeFor } from '../../http/scope';

type FindConversationsQuery = z.output<typeof findConversationsQuery>;
type FindThreadQuery = z.output<typeof findThreadQuery>;
type FindContactsQuery = z.output<typeof findContactsQuery>;
type FindMessagesQuery = z.output<typeof findMessagesQuery>;
type ExportMessagesQuery = z.output<typeof exportMessagesQuery>;
type MessageFilter = Pick<FindMessagesQuery, 'filter' | 'search'>;
type MessageQuery = ReturnType<ConversationsRepository['messages']>;

export interface ConversationsServiceDeps {
  db: Db;
  conversations: ConversationsRepository;
  messaging: MessagingService;
  inboxState: InboxStateService;
  users: UsersService;
  clock: Clock;
}

/**
 * The list cursor: the last row's activity time (microseconds since the epoch, exact) and id; while
 * searching also its rank (a float8 as PostgreSQL prints it, which reads back exactly).
 */
const cursorSchema = z.object({
  t: z.string().regex(/^-?\d{1,17}$/u),
  id: z.uuid(),
  r: z.string().regex(/^-?\d+(\.\d+)?(e[-+]?\d+)?$/u).max(40).optional(),
});

function encodeCursor(t: string, id: string, r?: string): string {
  return Buffer.from(JSON.stringify(r === undefined ? { t, id } : { t, id, r })).toString('base64url');
}

function decodeCursor(cursor: string): z.infer<typeof cursorSchema> {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' }, cause: error });
  }
}

/** Last activity in whole microseconds: exact in a cursor, unlike a JavaScript Date. */
const activity = sql<string>`(extract(epoch from coalesce(c.last_message_at, c.created_at)) * 1000000)::bigint`;

function byUser(user: SessionUser): PerformedBy {
  return { kind: 'user', userId: user.id };
}

export class ConversationsService {
  constructor(private readonly deps: ConversationsServiceDeps) {}

  // ---- Views other modules read (the realtime hub, the website widget) -------------------------

  /** A conversation as its events announce it (staff scope; the hub filters per connection). */
  async findConversationForEvent(id: string) {
    return this.deps.conversations.findConversationForEvent(id, this.deps.clock.now());
  }

  /** A message as its events announce it (staff scope; the hub filters per connection). */
  async findMessageForEvent(id: string) {
    return this.deps.conversations.findMessageForEvent(id);
  }

  /** Whether the user may see the conversation (it exists in their scope). */
  async canSeeConversation(user: SessionUser, conversationId: string): Promise<boolean> {
    return (await this.deps.conversations.findConversationClient(conversationId, scopeFor(user))) !== undefined;
  }

  /** A message in one client's scope. */
  async findClientMessage(clientId: string, messageId: string): Promise<MessageView | undefined> {
    return this.deps.conversations.findMessageView(messageId, { clientId });
  }

  /** One contact's conversation on a channel, oldest first, its latest `limit` messages. */
  async findContactMessages(channel: { id: string; clientId: string }, contactExternalId: string, limit: number): Promise<MessageView[]> {
    return (await this.deps.conversations.findContactMessageViews(channel, contactExternalId, limit)).reverse();
  }

  // ---- Conversations -------------------------------------------------------------------------

  /**
   * One page of conversations, most recent activity first, with the tab counts. Counts cover the
   * caller's scope (and `clientId`), not the tab or the search, so the tabs and tiles stay stable
   * while a person types.
   *
   * A search matches the contact (by the label the screens show), the client, the title, the
   * messages' text (full-text, `messageSearchHits`) and part of a word in the last message's preview.
   * Results are ranked: a match on who the conversation is with (contact, client, title) first, then by the best matching message's rank, then by recency; the
   * cursor carries the rank, so the pages stay exact. Each row says which message matched, as an
   * excerpt with the matching words marked.
   */
  async findConversations(
    user: SessionUser,
    query: FindConversationsQuery,
  ): Promise<{ conversations: ConversationListItem[]; counts: z.infer<typeof conversationCounts>; nextCursor: string | null }> {
    const scope = scopeFor(user);
    const search = query.search ?? '';
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    let q = this.deps.conversations.conversations(scope).select(sql<string>`${activity}::text`.as('activityKey'));
    if (query.clientId) q = q.where('c.clientId', '=', query.clientId);
    if (query.tab !== 'all') q = q.where('c.status', '=', query.tab);
    if (search === '') {
      let plain = q.select(sql<string | null>`null::uuid`.as('hitMessageId'));
      if (cursor) plain = plain.where(sql<boolean>`(${activity}, c.id) < (${cursor.t}::bigint, ${cursor.id}::uuid)`);
      const rows = await plain
        .orderBy(activity, 'desc')
        .orderBy('c.id', 'desc')
        .limit(query.limit + 1)
        .execute();
      return this.#page(scope, query, rows, null, (last) => encodeCursor(last.activityKey, last.id));
    }
    const pattern = containsPattern(search);
    const who = sql<boolean>`(${sql.join(
      [contactLabelSql, sql`ct.external_id`, sql`cl.company_name`, sql`c.title`].map((e) => sql`${e} ilike ${pattern}`),
      sql` or `,
    )})`;
    const score = sql<number>`((case when ${who} then 1 else 0 end) + coalesce(hit.rank, 0))::float8`;
    let ranked = q
      .leftJoin(
        () => messageSearchHits(this.deps.db, scope, search, query.clientId).as('hit'),
        (join) => join.onRef('hit.conversationId', '=', 'c.id'),
      )
      .select(['hit.messageId as hitMessageId', sql<string>`${score}::text`.as('scoreKey')]).where(sql<boolean>`(${who} or hit.conversation_id is not null or c.last_message_preview ilike ${pattern})`);
    if (cursor) {
      if (cursor.r === undefined) throw new AppError('VALIDATION_ERROR', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' } });
      ranked = ranked.where(sql<boolean>`(${score}, ${activity}, c.id) < (${cursor.r}::float8, ${cursor.t}::bigint, ${cursor.id}::uuid)`);
    }
    const rows = await ranked
      .orderBy(score, 'desc')
      .orderBy(activity, 'desc')
      .orderBy('c.id', 'desc')
      .limit(query.limit + 1)
      .execute();
    return this.#page(scope, query, rows, search, (last) => encodeCursor(last.activityKey, last.id, last.scoreKey));
  }

  async #page<R extends Parameters<typeof toConversationView>[0] & { hitMessageId: string | null }>(
    scope: Scope,
    query: FindConversationsQuery,
    rows: R[],
    search: string | null,
    cursorOf: (last: R) => string,
  ) {
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const now = this.deps.clock.now();
    const matches = search === null ? new Map<string, ConversationSearchMatch>() : await this.#searchMatches(scope, page, search);
    return {
      conversations: page.map((row) => ({ ...toConversationView(row, now), searchMatch: matches.get(row.id) ?? null })),
      counts: await this.#counts(scope, query.clientId),
      nextCursor: rows.length > query.limit && last ? cursorOf(last) : null,
    };
  }

  /** The excerpt of each row's matching message, its matching words marked. */
  async #searchMatches(scope: Scope, rows: readonly { id: string; hitMessageId: string | null }[], search: string): Promise<Map<string, ConversationSearchMatch>> {
    const hits = rows.filter((r): r is { id: string; hitMessageId: string } => r.hitMessageId !== null);
    const contents = await this.deps.conversations.findMessageContents(
      hits.map((r) => r.hitMessageId),
      scope,
    );
    const words = [...new Set([...contents.values()].flatMap(wordsOf))];
    const matching = await this.deps.conversations.findMatchingWords(words, searchedText(search));
    const result = new Map<string, ConversationSearchMatch>();
    for (const hit of hits) {
      const content = contents.get(hit.hitMessageId);
      if (content !== undefined) result.set(hit.id, { messageId: hit.hitMessageId, segments: snippetSegments(content, matching) });
    }
    return result;
  }

  async #counts(scope: Scope, clientId: string | undefined): Promise<z.infer<typeof conversationCounts>> {
    let q = this.deps.db
      .selectFrom('conversations as c')
      .select([
        sql<number>`count(*)::int`.as('all'),
        sql<number>`(count(*) filter (where c.status = 'active'))::int`.as('active'),
        sql<number>`(count(*) filter (where c.status = 'pending'))::int`.as('pending'),
        sql<number>`(count(*) filter (where c.status = 'escalated'))::int`.as('escalated'),
        sql<number>`(count(*) filter (where c.status = 'resolved'))::int`.as('resolved'),
        // "Needs human": handled by a person and not resolved yet.
        sql<number>`(count(*) filter (where c.handled_by = 'human' and c.status <> 'resolved'))::int`.as('human'),
        // Conversations with unread customer messages.
        sql<number>`(count(*) filter (where c.unread_count > 0))::int`.as('unread'),
      ]);
    if (scope.clientId !== null) q = q.where('c.clientId', '=', scope.clientId);
    if (clientId) q = q.where('c.clientId', '=', clientId);
    return conversationCounts.parse(await q.executeTakeFirstOrThrow());
  }

  async getConversation(user: SessionUser, id: string): Promise<ConversationView> {
    const view = await this.deps.conversations.findConversationView(id, scopeFor(user), this.deps.clock.now());
    if (!view) throw notFound('Conversation');
    return view;
  }

  /**
   * Status (active, pending, escalated, resolved), who handles it ("Handoff to Human" and back to
   * the AI), the assignee, priority and title. Anyone who can see the conversation may change it;
   * the assignee must be an active user who can see it too (staff, or a user of its client).
   */
  async updateConversation(user: SessionUser, id: string, input: UpdateConversationInput): Promise<ConversationView> {
    const assignee = input.assignedAgentId;
    await this.deps.inboxState.updateConversation(
      id,
      scopeFor(user),
      input,
      byUser(user),
      assignee ? (conversation, trx) => this.#checkAssignee(trx, assignee, conversation.clientId) : undefined,
    );
    return this.getConversation(user, id);
  }

  /** The assignee must be an active user who can see the conversation (staff, or a user of its client). */
  async #checkAssignee(trx: Db, userId: string, clientId: string): Promise<void> {
    const assignee = await this.deps.users.findUserById(userId, trx);
    const eligible =
      assignee !== undefined && assignee.disabledAt === null && (assignee.role === 'admin' || assignee.role === 'manager' || assignee.clientId === clientId);
    if (!eligible) {
      const message = 'Please choose an active team member who can see this conversation';
      throw new AppError('VALIDATION_ERROR', message, { fields: { assignedAgentId: message } });
    }
  }

  /** Opening a conversation: its customer messages count as read, its unread count drops to 0. */
  async markConversationRead(user: SessionUser, id: string): Promise<void> {
    await this.deps.inboxState.markConversationRead(id, scopeFor(user), byUser(user));
  }

  // ---- Threads and replies -------------------------------------------------------------------

  /** A conversation's messages, oldest first; `before` pages back from a message. */
  async findThread(user: SessionUser, conversationId: string, query: FindThreadQuery): Promise<{ messages: MessageView[]; hasMore: boolean }> {
    const scope = scopeFor(user);
    await this.#visibleConversation(scope, conversationId);
    let q = this.deps.conversations.messages(scope).where('m.conversationId', '=', conversationId);
    if (query.before) {
      const reference = await this.deps.db
        .selectFrom('messages')
        .select('id')
        .where('id', '=', query.before)
        .where('conversationId', '=', conversationId)
        .executeTakeFirst();
      if (!reference) throw notFound('Message');
      q = q.where(sql<boolean>`(m.created_at, m.id) < (select created_at, id from messages where id = ${query.before})`);
    }
    const rows = await q
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(query.limit + 1)
      .execute();
    return { messages: rows.slice(0, query.limit).reverse().map(toMessageView), hasMore: rows.length > query.limit };
  }

  /** A person's reply, sent through the conversation's channel (409 window_closed outside the window). */
  async sendReply(user: SessionUser, conversationId: string, input: SendMessageInput): Promise<MessageView> {
    const scope = scopeFor(user);
    await this.#visibleConversation(scope, conversationId);
    const message = await this.deps.messaging.sendMessage(conversationId, { text: input.text, senderType: 'agent', senderId: user.id }, byUser(user));
    return this.#messageView(scope, message.id);
  }

  /** Queues a failed or unconfirmed (`unknown`) outbound message again (Retry / Resend). */
  async retryMessage(user: SessionUser, conversationId: string, messageId: string): Promise<MessageView> {
    const scope = scopeFor(user);
    await this.#visibleConversation(scope, conversationId);
    const message = await this.deps.db
      .selectFrom('messages')
      .select('id')
      .where('id', '=', messageId)
      .where('conversationId', '=', conversationId)
      .executeTakeFirst();
    if (!message) throw notFound('Message');
    await this.deps.messaging.retryMessage(messageId, byUser(user));
    return this.#messageView(scope, messageId);
  }

  /**
   * The business writes first to a contact (website chat, API channel): the contact's conversation
   * (created if needed) with the first message. WhatsApp, Messenger and Instagram refuse with
   * 409 business_cannot_start unless the customer already has a conversation.
   */
  async startConversation(user: SessionUser, input: { contactId: string; text: string }): Promise<ConversationView> {
    const scope = scopeFor(user);
    let q = this.deps.db
      .selectFrom('contacts')
      .innerJoin('channels', 'channels.id', 'contacts.channelId')
      .select(['contacts.id', 'channels.status as channelStatus'])
      .where('contacts.id', '=', input.contactId);
    if (scope.clientId !== null) q = q.where('contacts.clientId', '=', scope.clientId);
    const contact = await q.executeTakeFirst();
    if (!contact) throw notFound('Contact');
    if (contact.channelStatus !== 'active') {
      throw new AppError('CONFLICT', 'This channel is disabled. Enable it to send messages.', { details: { reason: 'channel_disabled' } });
    }
    const conversationId = await this.deps.messaging.openConversationForContact(contact.id, byUser(user));
    await this.deps.messaging.sendMessage(conversationId, { text: input.text, senderType: 'agent', senderId: user.id }, byUser(user));
    return this.getConversation(user, conversationId);
  }

  async findContacts(user: SessionUser, query: FindContactsQuery): Promise<ContactView[]> {
    return this.deps.conversations.findContactViews(scopeFor(user), query);
  }

  // ---- The messages view (/messages and the dashboard inbox) -------------------------------

  /**
   * Customer messages, newest first (latest 50 by default), with their conversation's client and
   * platform. `unreadCount` counts every unread customer message the caller may see.
   */
  async findMessages(user: SessionUser, query: FindMessagesQuery): Promise<{ messages: MessageView[]; unreadCount: number }> {
    const scope = scopeFor(user);
    const rows = await this.#filteredMessages(scope, query)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(query.limit)
      .execute();
    let unread = this.deps.db
      .selectFrom('messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('direction', '=', 'inbound')
      .where('readAt', 'is', null);
    if (scope.clientId !== null) unread = unread.where('clientId', '=', scope.clientId);
    const { n } = await unread.executeTakeFirstOrThrow();
    return { messages: rows.map(toMessageView), unreadCount: n };
  }

  /** "Marked as Read": persisted, and the conversation's unread count follows. */
  async markMessageRead(user: SessionUser, messageId: string): Promise<void> {
    const scope = scopeFor(user);
    const message = await this.#messageView(scope, messageId);
    if (message.direction !== 'inbound' || message.read) return;
    await this.deps.inboxState.markMessageRead({ id: messageId, conversationId: message.conversationId }, scope, byUser(user));
  }

  /** "Mark All as Read" for the current filter and search (every match, not only the page shown). */
  async markAllMessagesRead(user: SessionUser, filter: MessageFilter): Promise<{ updated: number }> {
    const scope = scopeFor(user);
    const updated = await this.deps.inboxState.markMessagesRead(
      scope,
      (trx) => this.#filteredMessages(scope, filter, trx).where('m.readAt', 'is', null).clearSelect().select(['m.id', 'm.conversationId']).execute(),
      byUser(user),
    );
    return { updated };
  }

  /** A response to a message from the messages view: a reply in that message's conversation. */
  async respondToMessage(user: SessionUser, messageId: string, input: SendMessageInput): Promise<MessageView> {
    const message = await this.#messageView(scopeFor(user), messageId);
    return this.sendReply(user, message.conversationId, input);
  }

  /** The messages view as CSV (same scope, filter and search), for "Export Messages". */
  async exportMessages(user: SessionUser, query: ExportMessagesQuery): Promise<{ filename: string; csv: string }> {
    const rows = await this.#filteredMessages(scopeFor(user), query)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(query.limit)
      .execute();
    // The byte-order mark lets Excel read the file as UTF-8 (names with accents, emoji).
    // Contact: the label the screens show (a name, else a readable form of the contact's id).
    const views = rows.map((row) => ({ ...toMessageView(row), contactName: contactLabel({ name: row.contactName, externalId: row.contactExternalId }, row.platform) }));
    return { filename: messagesCsvFilename(this.deps.clock.now()), csv: `\uFEFF${messagesCsv(views)}` };
  }

  #filteredMessages(scope: Scope, filter: MessageFilter, db: Db = this.deps.db): MessageQuery {
    let q = this.deps.conversations.messages(scope, db).where('m.direction', '=', 'inbound');
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

  // ---- Helpers -------------------------------------------------------------------------------

  async #visibleConversation(scope: Scope, id: string): Promise<void> {
    if ((await this.deps.conversations.findConversationClient(id, scope)) === undefined) throw notFound('Conversation');
  }

  async #messageView(scope: Scope, id: string): Promise<MessageView> {
    const view = await this.deps.conversations.findMessageView(id, scope);
    if (!view) throw notFound('Message');
    return view;
  }
}
