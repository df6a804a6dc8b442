/**
 * Internal chats (spec part 2 "Chat Management"): two-person threads between an administrator and
 * a client user (or a manager, or another administrator). Who may start a chat with whom:
 * administrators with any active user; managers and client users with administrators. Only a
 * thread's participants see it — anyone else gets "not found" for its id. Every change publishes
 * `chat.message.created` / `chat.thread.updated` in its transaction; the realtime hub delivers
 * them to the participants' sockets subscribed to "chats".
 */
import type { ChatThreadView } from '../../../common/api/chats';
import type { Db } from '../../db/database';
import type { EventBus } from '../../events/event-bus';
import type { SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { RealtimeLoaders } from '../realtime';
import type { ChatMessageView, ChatsRepository, Recipient } from './chats.repository';

export type { Recipient } from './chats.repository';

/** Messages returned for a thread: the latest ones (older history stays stored). */
export const CHAT_HISTORY_LIMIT = 500;
const PREVIEW_LENGTH = 200;

export interface ChatsServiceDeps {
  db: Db;
  chats: ChatsRepository;
  events: EventBus;
  clock: Clock;
}

function preview(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

export class ChatsService {
  constructor(private readonly deps: ChatsServiceDeps) {}

  /**
   * The caller's threads for a tab ("clients": the other person is a client user; "admin":
   * staff) and a search over the other person's name, e-mail and company. `total` and `unread`
   * (unread messages) cover all the caller's threads, whatever the tab or search.
   */
  async findChats(
    user: SessionUser,
    query: { tab: 'all' | 'clients' | 'admin'; search?: string | undefined },
  ): Promise<{ threads: ChatThreadView[]; total: number; unread: number }> {
    const all = await this.deps.chats.findThreadViews(user.id);
    const needle = query.search?.toLocaleLowerCase();
    const threads = all.filter((t) => {
      if (query.tab === 'clients' && t.type !== 'client') return false;
      if (query.tab === 'admin' && t.type !== 'admin') return false;
      if (!needle) return true;
      return [t.participant.name, t.participant.email, t.participant.company ?? ''].some((v) => v.toLocaleLowerCase().includes(needle));
    });
    return { threads, total: all.length, unread: all.reduce((sum, t) => sum + t.unreadCount, 0) };
  }

  /** People the caller may start a chat with. */
  async findRecipients(user: SessionUser): Promise<Recipient[]> {
    return this.deps.chats.findRecipients(user);
  }

  /** New Chat: the two-person thread with the recipient (reused when it exists) and a first message. */
  async startChat(user: SessionUser, input: { recipientId: string; message: string }): Promise<ChatThreadView> {
    const threadId = await this.deps.db.transaction().execute(async (trx) => {
      const recipient = await this.deps.chats.findRecipient(user, input.recipientId, trx);
      if (!recipient) throw notFound('Recipient');
      // One thread per pair, even when both start a chat with each other at the same moment.
      const pair = [user.id, recipient.id].sort().join(':');
      await this.deps.chats.lockPair(pair, trx);
      let id = await this.deps.chats.findPairThreadId(user.id, recipient.id, trx);
      if (!id) id = await this.deps.chats.createThread(user.id, recipient.id, trx);
      await this.#post(trx, id, user.id, input.message);
      return id;
    });
    const view = await this.deps.chats.findThreadView(user.id, threadId);
    if (!view) throw notFound('Chat');
    return view;
  }

  async findMessages(user: SessionUser, threadId: string): Promise<ChatMessageView[]> {
    await this.#participant(this.deps.db, threadId, user.id);
    return this.deps.chats.findMessageViews(threadId, CHAT_HISTORY_LIMIT);
  }

  async sendMessage(user: SessionUser, threadId: string, message: string): Promise<ChatMessageView> {
    const messageId = await this.deps.db.transaction().execute(async (trx) => {
      await this.#participant(trx, threadId, user.id);
      return this.#post(trx, threadId, user.id, message);
    });
    const view = await this.deps.chats.findMessageView(messageId, user.id);
    if (!view) throw notFound('Message');
    return view;
  }

  /** The caller has read the thread up to its latest message. */
  async markRead(user: SessionUser, threadId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.#participant(trx, threadId, user.id);
      await this.deps.chats.markReadToLatest(threadId, user.id, trx);
      // Only the reader's view changed (their unread count), on every tab they have open.
      await this.deps.events.publish(trx, 'chat.thread.updated', { threadId, participantIds: [user.id] }, { kind: 'user', userId: user.id });
    });
  }

  /** What the realtime hub sends to each participant's sockets. */
  realtimeLoaders(): Pick<Required<RealtimeLoaders>, 'chatMessage' | 'chatThread'> {
    return {
      chatMessage: async (messageId, viewerId) => this.deps.chats.findMessageView(messageId, viewerId),
      chatThread: async (threadId, viewerId) => this.deps.chats.findThreadView(viewerId, threadId),
    };
  }

  async #participant(db: Db, threadId: string, userId: string): Promise<void> {
    if (!(await this.deps.chats.isParticipant(threadId, userId, db))) throw notFound('Chat');
  }

  /** Stores a message, moves the thread and the sender's read mark, publishes the events. */
  async #post(trx: Db, threadId: string, senderId: string, body: string): Promise<string> {
    const message = await this.deps.chats.insertMessage({ threadId, senderId, body, createdAt: this.deps.clock.now() }, trx);
    await this.deps.chats.touchThread(threadId, { lastMessageAt: message.createdAt, lastMessagePreview: preview(body) }, trx);
    await this.deps.chats.advanceReadMark(threadId, senderId, message.createdAt, trx);
    const participantIds = await this.deps.chats.participantIds(threadId, trx);
    const performedBy = { kind: 'user' as const, userId: senderId };
    await this.deps.events.publish(trx, 'chat.message.created', { threadId, messageId: message.id, participantIds }, performedBy);
    await this.deps.events.publish(trx, 'chat.thread.updated', { threadId, participantIds }, performedBy);
    return message.id;
  }
}
