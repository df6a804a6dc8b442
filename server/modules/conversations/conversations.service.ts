/**
 * The portal's conversations, threads, contacts and the messages view (/conversations, /messages,
 * the dashboard inbox). Every read and write is scoped to what the caller may see (`scopeFor`):
 * a client user asking for another client's conversation, message or contact gets "not found",
 * exactly as for an id that does not exist. Replies go through `MessagingService` (the one writer
 * of messages); this service changes only a conversation's handling (status, handler, assignee,
 * priority, title) and read state, publishing `conversation.updated` in the same transaction.
 */
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
import { type ConversationsRepository, type ReplyOutcomes, type Scope, toConversationView, toMessageView } from './conversations.repository';
import { type MessageFilter, MessagesViewRepository } from './messages-view.repository';
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

function byUser(user: SessionUser): PerformedBy {
  return { kind: 'user', userId: user.id };
}

export class ConversationsService {
  readonly #messagesView: MessagesViewRepository;

  constructor(private readonly deps: ConversationsServiceDeps) {
    this.#messagesView = new MessagesViewRepository(deps.db);
  }

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
    const page = { clientId: query.clientId, tab: query.tab, limit: query.limit + 1 };
    if (search === '') {
      const rows = await this.deps.conversations.findConversationPage(scope, { ...page, cursor });
      return this.#page(scope, query, rows, null, (last) => encodeCursor(last.activityKey, last.id));
    }
    let rankedCursor: { t: string; id: string; r: string } | null = null;
    if (cursor) {
      if (cursor.r === undefined) throw new AppError('VALIDATION_ERROR', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' } });
      rankedCursor = { t: cursor.t, id: cursor.id, r: cursor.r };
    }
    const rows = await this.deps.conversations.searchConversationPage(scope, { ...page, search, cursor: rankedCursor });
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
    return conversationCounts.parse(await this.deps.conversations.countConversations(scope, clientId));
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

  /** "Mark as converted" on a lead (or undo it); 409 when the conversation is not a lead. */
  async setConverted(user: SessionUser, id: string, converted: boolean): Promise<ConversationView> {
    await this.deps.inboxState.setConverted(id, scopeFor(user), converted, byUser(user));
    return this.getConversation(user, id);
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
    if (query.before && !(await this.#messagesView.isMessageInConversation(query.before, conversationId))) throw notFound('Message');
    const rows = await this.#messagesView.findThreadRows(scope, conversationId, { before: query.before, limit: query.limit + 1 });
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
    if (!(await this.#messagesView.isMessageInConversation(messageId, conversationId))) throw notFound('Message');
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
    const contact = await this.deps.conversations.findContactChannelStatus(input.contactId, scope);
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
    const rows = await this.#messagesView.findMessageRows(scope, query, query.limit);
    const n = await this.#messagesView.countUnreadMessages(scope);
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
      (trx) => this.#messagesView.findUnreadMessageRefs(scope, filter, trx),
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
    const rows = await this.#messagesView.findMessageRows(scopeFor(user), query, query.limit);
    // The byte-order mark lets Excel read the file as UTF-8 (names with accents, emoji).
    // Contact: the label the screens show (a name, else a readable form of the contact's id).
    const views = rows.map((row) => ({ ...toMessageView(row), contactName: contactLabel({ name: row.contactName, externalId: row.contactExternalId }, row.platform) }));
    return { filename: messagesCsvFilename(this.deps.clock.now()), csv: `\uFEFF${messagesCsv(views)}` };
  }

  // ---- Helpers -------------------------------------------------------------------------------

  /** Every client's replies created since `since`, by delivery outcome (the readiness checks). */
  async replyOutcomes(since: Date): Promise<ReplyOutcomes> {
    return this.deps.conversations.countReplyOutcomes(since);
  }

  async #visibleConversation(scope: Scope, id: string): Promise<void> {
    if ((await this.deps.conversations.findConversationClient(id, scope)) === undefined) throw notFound('Conversation');
  }

  async #messageView(scope: Scope, id: string): Promise<MessageView> {
    const view = await this.deps.conversations.findMessageView(id, scope);
    if (!view) throw notFound('Message');
    return view;
  }
}
