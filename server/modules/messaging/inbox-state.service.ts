/**
 * What people change on conversations from the portal — status, who handles it, the assignee,
 * priority, title — and what they have read (the unread counts). Part of the messaging module, the
 * one writer of conversations and messages; the conversations module (the portal's read side)
 * checks what the user may see and calls these.
 */
import type { Db } from '../../db/database';
import type { ConversationStatus, HandledBy, Priority } from '../../db/schema';
import type { PerformedBy } from '../../events/domain-events';
import type { EventBus, UnstampedEvent } from '../../events/event-bus';
import type { Scope } from '../../http/scope';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { NOT_A_LEAD_MESSAGE } from '../../../common/api/conversations';
import { ACTIVE_IF_ESCALATED, InboxStateRepository, type LockedConversation } from './inbox-state.repository';

export interface InboxStateServiceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
}

/** A person's change to a conversation; absent fields stay as they are. */
export interface ConversationChanges {
  status?: ConversationStatus | undefined;
  handledBy?: HandledBy | undefined;
  assignedAgentId?: string | null | undefined;
  priority?: Priority | undefined;
  /** '' or null clears the title. */
  title?: string | null | undefined;
}

export class InboxStateService {
  readonly #repository = new InboxStateRepository();

  constructor(private readonly deps: InboxStateServiceDeps) {}

  /**
   * Changes a conversation the scope can see (404 otherwise). `check` runs in the same
   * transaction, with the conversation locked, before anything is written (the assignee check).
   */
  async updateConversation(
    id: string,
    scope: Scope,
    changes: ConversationChanges,
    performedBy: PerformedBy,
    check?: (conversation: { id: string; clientId: string }, trx: Db) => Promise<void>,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const [conversation] = await this.#lock(trx, scope, [id]);
      if (!conversation) throw notFound('Conversation');
      if (check) await check(conversation, trx);
      const updated = await this.#repository.updateConversation(
        trx,
        id,
        {
          status:
            changes.status !== undefined
              ? changes.status
              : // "Return to AI" on an escalated conversation: the AI can only answer an active one.
                changes.handledBy === 'ai'
                ? ACTIVE_IF_ESCALATED
                : undefined,
          handledBy: changes.handledBy,
          assignedAgentId: changes.assignedAgentId,
          priority: changes.priority,
          title: changes.title === '' ? null : changes.title,
        },
        this.deps.clock.now(),
      );
      const ids = { conversationId: id, clientId: conversation.clientId };
      const events: UnstampedEvent[] = [{ name: 'conversation.updated', payload: { ...ids, status: updated.status }, performedBy }];
      // The public events (docs/events.md): handed to a person, resolved.
      const escalated = updated.status === 'escalated' && conversation.status !== 'escalated';
      const takenOver = changes.handledBy === 'human' && conversation.handledBy === 'ai';
      if (escalated || takenOver) {
        const reason = escalated ? 'A person escalated the conversation' : 'A person took over the conversation';
        events.push({ name: 'conversation.escalated', payload: { ...ids, reason }, performedBy });
      }
      if (updated.status === 'resolved' && conversation.status !== 'resolved') {
        events.push({ name: 'conversation.resolved', payload: ids, performedBy });
      }
      // Moved out of resolved by a person or a workflow (the customer's reopening is parley_record_inbound's).
      if (conversation.status === 'resolved' && updated.status !== 'resolved') {
        events.push({ name: 'conversation.reopened', payload: { ...ids, messageId: null, handledBy: updated.handledBy }, performedBy });
      }
      await this.deps.events.publishMany(trx, events);
    });
  }

  /**
   * "Mark as converted" on a lead the scope can see (or, `converted` false, undo it): the business
   * won the customer (docs/client-dashboard.md, the dashboard's conversion rate). 404 for a
   * conversation it cannot see; 409 (reason `not_a_lead`) when it is not a lead.
   */
  async setConverted(id: string, scope: Scope, converted: boolean, performedBy: PerformedBy): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const [conversation] = await this.#lock(trx, scope, [id]);
      if (!conversation) throw notFound('Conversation');
      const now = this.deps.clock.now();
      if (!(await this.#repository.setConverted(trx, id, converted ? now : null, now))) {
        throw new AppError('CONFLICT', NOT_A_LEAD_MESSAGE, { details: { reason: 'not_a_lead' } });
      }
      await this.deps.events.publish(trx, 'conversation.updated', { conversationId: id, clientId: conversation.clientId, status: conversation.status }, performedBy);
    });
  }

  /** Opening a conversation: its customer messages count as read, its unread count drops to 0. */
  async markConversationRead(id: string, scope: Scope, performedBy: PerformedBy): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const [conversation] = await this.#lock(trx, scope, [id]);
      if (!conversation) throw notFound('Conversation');
      const marked = await this.#repository.markConversationRead(trx, id, this.deps.clock.now());
      if (marked === 0 && conversation.unreadCount === 0) return;
      await this.#recountUnread(trx, [id]);
      await this.deps.events.publish(trx, 'conversation.updated', { conversationId: id, clientId: conversation.clientId, status: conversation.status }, performedBy);
    });
  }

  /** "Marked as Read" on one customer message of a conversation the scope can see. */
  async markMessageRead(message: { id: string; conversationId: string }, scope: Scope, performedBy: PerformedBy): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const [conversation] = await this.#lock(trx, scope, [message.conversationId]);
      if (!conversation) throw notFound('Message');
      const updated = await this.#repository.markMessageRead(trx, message.id, this.deps.clock.now());
      if (!updated) return;
      await this.#recountUnread(trx, [conversation.id]);
      await this.deps.events.publish(trx, 'message.updated', { messageId: message.id, conversationId: conversation.id, clientId: conversation.clientId, status: updated.status }, performedBy);
      await this.deps.events.publish(trx, 'conversation.updated', { conversationId: conversation.id, clientId: conversation.clientId, status: conversation.status }, performedBy);
    });
  }

  /**
   * "Mark All as Read": the customer messages `unread` selects (the caller's filter and search, in
   * the scope), in the conversations they belong to. Resolves with how many were marked.
   */
  async markMessagesRead(
    scope: Scope,
    unread: (trx: Db) => Promise<readonly { id: string; conversationId: string }[]>,
    performedBy: PerformedBy,
  ): Promise<number> {
    return this.deps.db.transaction().execute(async (trx) => {
      const messages = await unread(trx);
      const conversations = await this.#lock(trx, scope, [...new Set(messages.map((m) => m.conversationId))]);
      if (conversations.length === 0) return 0;
      const locked = new Set(conversations.map((c) => c.id));
      const ids = messages.filter((m) => locked.has(m.conversationId)).map((m) => m.id);
      const marked = await this.#repository.markMessagesRead(trx, ids, this.deps.clock.now());
      await this.#recountUnread(trx, [...locked]);
      for (const c of conversations) {
        await this.deps.events.publish(trx, 'conversation.updated', { conversationId: c.id, clientId: c.clientId, status: c.status }, performedBy);
      }
      return marked;
    });
  }

  /**
   * Locks conversations (in id order, so two callers never deadlock) before their read state
   * changes: an inbound message committing meanwhile then waits, and the recount that follows
   * sees it — the unread count always equals the unread customer messages.
   */
  async #lock(trx: Db, scope: Scope, ids: readonly string[]): Promise<LockedConversation[]> {
    return this.#repository.lock(trx, scope.clientId, ids);
  }

  async #recountUnread(trx: Db, ids: readonly string[]): Promise<void> {
    await this.#repository.recountUnread(trx, ids);
  }
}
