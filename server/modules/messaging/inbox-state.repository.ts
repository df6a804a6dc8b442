/**
 * The SQL of InboxStateService: conversations locked and changed by people in the portal, and
 * their read state (customer messages' `read_at`, the unread counts). The service decides the
 * values; every method runs in the service's transaction, passed as `trx`.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ConversationStatus, HandledBy, MessageStatus, Priority } from '../../db/schema';

/** "Return to AI" on an escalated conversation: it becomes active (the AI can only answer an active one). */
export const ACTIVE_IF_ESCALATED = 'active-if-escalated';

/** A conversation's decided changes; absent fields stay as they are. */
export interface ConversationUpdate {
  status?: ConversationStatus | typeof ACTIVE_IF_ESCALATED | undefined;
  handledBy?: HandledBy | undefined;
  assignedAgentId?: string | null | undefined;
  priority?: Priority | undefined;
  title?: string | null | undefined;
}

/** A conversation as it is locked for a change. */
export interface LockedConversation {
  id: string;
  clientId: string;
  status: ConversationStatus;
  handledBy: HandledBy;
  unreadCount: number;
}

export class InboxStateRepository {
  /**
   * Locks conversations (in id order, so two callers never deadlock), only those of `clientId`
   * when it is given.
   */
  async lock(trx: Db, clientId: string | null, ids: readonly string[]): Promise<LockedConversation[]> {
    if (ids.length === 0) return [];
    let q = trx
      .selectFrom('conversations')
      .select(['id', 'clientId', 'status', 'handledBy', 'unreadCount'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .forUpdate();
    if (clientId !== null) q = q.where('clientId', '=', clientId);
    return q.execute();
  }

  async updateConversation(trx: Db, id: string, update: ConversationUpdate, at: Date): Promise<{ status: ConversationStatus; handledBy: HandledBy }> {
    return trx
      .updateTable('conversations')
      .set({
        ...(update.status === undefined
          ? {}
          : update.status === ACTIVE_IF_ESCALATED
            ? { status: sql<ConversationStatus>`case when status = 'escalated' then 'active' else status end` }
            : { status: update.status }),
        // A person escalating it is the reason, unless it already was (the AI's reason stays).
        ...(update.status === 'escalated'
          ? { escalationReason: sql<string | null>`case when status = 'escalated' then escalation_reason else 'a person escalated it' end` }
          : {}),
        ...(update.handledBy !== undefined ? { handledBy: update.handledBy } : {}),
        ...(update.assignedAgentId !== undefined ? { assignedAgentId: update.assignedAgentId } : {}),
        // A priority a person chose has that as its reason.
        ...(update.priority !== undefined
          ? { priority: update.priority, priorityReason: sql<string | null>`case when priority = ${update.priority} then priority_reason else 'Set by a person' end` }
          : {}),
        ...(update.title !== undefined ? { title: update.title } : {}),
        updatedAt: at,
      })
      .where('id', '=', id)
      .returning(['status', 'handledBy'])
      .executeTakeFirstOrThrow();
  }

  /**
   * A lead marked converted (since `at`, or since its first marking when it already was) or not
   * (`at` null). Resolves false when the conversation is not a lead (nothing changed).
   */
  async setConverted(trx: Db, id: string, at: Date | null, now: Date): Promise<boolean> {
    const row = await trx
      .updateTable('conversations')
      .set({ convertedAt: at === null ? null : sql<Date>`coalesce(converted_at, ${at})`, updatedAt: now })
      .where('id', '=', id)
      .where('isLead', '=', true)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A conversation's unread customer messages marked read; resolves with how many. */
  async markConversationRead(trx: Db, conversationId: string, at: Date): Promise<number> {
    const result = await trx
      .updateTable('messages')
      .set({ readAt: at })
      .where('conversationId', '=', conversationId)
      .where('direction', '=', 'inbound')
      .where('readAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** One message marked read; undefined when it already was. */
  async markMessageRead(trx: Db, messageId: string, at: Date): Promise<{ status: MessageStatus } | undefined> {
    return trx.updateTable('messages').set({ readAt: at }).where('id', '=', messageId).where('readAt', 'is', null).returning('status').executeTakeFirst();
  }

  /** Messages marked read; resolves with how many were unread. */
  async markMessagesRead(trx: Db, ids: readonly string[], at: Date): Promise<number> {
    const result = await trx
      .updateTable('messages')
      .set({ readAt: at })
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .where('readAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The conversations' unread counts, counted again from their customer messages. */
  async recountUnread(trx: Db, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await trx
      .updateTable('conversations')
      .set({
        unreadCount: sql<number>`(select count(*) from messages m where m.conversation_id = conversations.id and m.direction = 'inbound' and m.read_at is null)`,
      })
      .where('id', 'in', [...ids])
      .execute();
  }
}
