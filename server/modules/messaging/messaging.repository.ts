/**
 * The messaging module's SQL for messages: the hot paths' database functions (messaging.sql.ts),
 * echoes, delivery statuses, a send's attempts and the AI agent's changes to a conversation.
 * MessagingService decides every value (times, previews, ranks, status changes) and passes them;
 * this file only reads and writes. Payloads of the database functions arrive as JSON text, already
 * serialized by the service. Methods that run in the caller's transaction take it as `db`.
 *
 * The statements are the hot path's: their text (and the `PREPARED` marker, which makes
 * PostgreSQL plan them once per connection) matters for the prepared-statement cache.
 */
import { sql, type Updateable } from 'kysely';
import { type Db, PREPARED } from '../../db/database';
import type { AiMessageInfo, ChannelKind, ConversationStatus, Message, MessageMedia, MessageStatus, MessageType, MessagesTable } from '../../db/schema';
import type { ClaimedRow } from '../../jobs/queue';
import type { RecordResult } from './messaging.types';

/** Order of delivery statuses; a status only moves forward. */
// `unknown` (a send interrupted by a crash) sits between queued and sent: any sign from the platform
// that the message went out (an echo, sent, delivered, read) still moves it on.
const STATUS_RANK = sql<number>`case status when 'queued' then 0 when 'unknown' then 5 when 'sent' then 10 when 'failed' then 15 when 'delivered' then 20 when 'read' then 30 else -1 end`;

/** Response times: a reply closes the wait that the first unanswered customer message opened. */
function answeredWait(now: Date) {
  return {
    responseCount: sql<number>`response_count + case when awaiting_since is not null then 1 else 0 end`,
    responseSecondsTotal: sql<number>`response_seconds_total + coalesce(greatest(0, extract(epoch from (${now}::timestamptz - awaiting_since))), 0)`,
    awaitingSince: null,
  };
}

/** `parley_record_inbound`'s answer. */
export interface RecordInboundRows {
  /** messageId null: a rating naming a survey no longer pending, not stored. */
  results: (Omit<RecordResult, 'messageId'> & { messageId: string | null })[];
  claimed: ClaimedRow[];
}

/** `parley_send_message`'s answer. */
export type SendMessageRow = { skipped: true } | { skipped?: undefined; message: unknown; claimed: ClaimedRow[]; channel: unknown; recipient: string };

/** `parley_begin_send`'s answer. */
export type BeginSendRow =
  | { state: 'send'; resent: boolean; message?: unknown; channel?: unknown; recipient?: string }
  | { state: 'settled' | 'unknown' | 'missing' };

/** A message's changed delivery status, as the service decided it. */
export type StatusChanges = Pick<Updateable<MessagesTable>, 'status' | 'deliveredAt' | 'seenAt' | 'errorCode' | 'errorMessage'> & { status: MessageStatus };

/** A message whose status changed. */
export interface ChangedMessage {
  id: string;
  conversationId: string;
  status: MessageStatus;
}

export class MessagingRepository {
  constructor(private readonly db: Db) {}

  // ---- The hot paths' database functions (one round trip each) ----

  async recordInbound(json: string): Promise<RecordInboundRows> {
    const { rows } = await sql<{ result: RecordInboundRows }>`${sql.raw(PREPARED)}select parley_record_inbound(${json}::jsonb) as result`.execute(this.db);
    if (!rows[0]) throw new Error('parley_record_inbound returned nothing');
    return rows[0].result;
  }

  async sendMessage(json: string): Promise<SendMessageRow> {
    const { rows } = await sql<{ result: SendMessageRow }>`${sql.raw(PREPARED)}select parley_send_message(${json}::jsonb) as result`.execute(this.db);
    if (!rows[0]) throw new Error('parley_send_message returned nothing');
    return rows[0].result;
  }

  async beginSend(json: string): Promise<BeginSendRow> {
    const { rows } = await sql<{ result: BeginSendRow }>`${sql.raw(PREPARED)}select parley_begin_send(${json}::jsonb) as result`.execute(this.db);
    const result = rows[0]?.result;
    if (!result) throw new Error('parley_begin_send returned nothing');
    return result;
  }

  /** The jobs claimed for the payload's `local` (parley_finish_send). */
  async finishSend(json: string): Promise<ClaimedRow[]> {
    const { rows } = await sql<{ result: { changed: boolean; claimed: ClaimedRow[] } }>`${sql.raw(PREPARED)}select parley_finish_send(${json}::jsonb) as result`.execute(this.db);
    return rows[0]?.result.claimed ?? [];
  }

  async setConversationSummary(json: string): Promise<void> {
    await sql`${sql.raw(PREPARED)}select parley_set_conversation_summary(${json}::jsonb)`.execute(this.db);
  }

  async completeJob(db: Db, json: string): Promise<void> {
    await sql`select parley_complete_job(${json}::jsonb)`.execute(db);
  }

  // ---- Echoes (the business's own messages, as the platform reports them) ----

  async findIdByExternalId(db: Db, channelId: string, externalMessageId: string): Promise<{ id: string } | undefined> {
    return db.selectFrom('messages').select('id').where('channelId', '=', channelId).where('externalMessageId', '=', externalMessageId).executeTakeFirst();
  }

  async getIdByExternalId(db: Db, channelId: string, externalMessageId: string): Promise<{ id: string }> {
    return db
      .selectFrom('messages')
      .select('id')
      .where('channelId', '=', channelId)
      .where('externalMessageId', '=', externalMessageId)
      .executeTakeFirstOrThrow();
  }

  async findOutbound(db: Db, channelId: string, messageId: string): Promise<{ id: string } | undefined> {
    return db.selectFrom('messages').select('id').where('id', '=', messageId).where('channelId', '=', channelId).where('direction', '=', 'outbound').executeTakeFirst();
  }

  /** The newest outbound message of this text with no external id yet, created after `since`. */
  async findUnsentByText(db: Db, conversationId: string, text: string, since: Date): Promise<{ id: string } | undefined> {
    return db
      .selectFrom('messages')
      .select('id')
      .where('conversationId', '=', conversationId)
      .where('direction', '=', 'outbound')
      .where('externalMessageId', 'is', null)
      .where('content', '=', text)
      .where('createdAt', '>', since)
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async setExternalId(db: Db, messageId: string, externalMessageId: string): Promise<void> {
    await db.updateTable('messages').set({ externalMessageId }).where('id', '=', messageId).where('externalMessageId', 'is', null).execute();
  }

  /** An `unknown` send confirmed sent (by its echo). */
  async confirmUnknownSent(db: Db, messageId: string, now: Date): Promise<(ChangedMessage & { clientId: string }) | undefined> {
    return db
      .updateTable('messages')
      .set({ status: 'sent', sentAt: now, sendStartedAt: null, errorCode: null, errorMessage: null })
      .where('id', '=', messageId)
      .where('status', '=', 'unknown')
      .returning(['id', 'conversationId', 'clientId', 'status'])
      .executeTakeFirst();
  }

  /**
   * A reply a person typed in the platform's own app, stored as sent; undefined when the external
   * id is already stored (the unique index decides).
   */
  async insertEcho(
    db: Db,
    echo: { conversationId: string; clientId: string; channelId: string; text: string; type: MessageType; media: MessageMedia | undefined; externalId: string; now: Date },
  ): Promise<{ id: string; createdAt: Date } | undefined> {
    const { conversationId, clientId, channelId, text, type, media, externalId, now } = echo;
    return db
      .insertInto('messages')
      .values({
        conversationId,
        clientId,
        channelId,
        direction: 'outbound',
        senderType: 'agent',
        content: text,
        messageType: type,
        media: media ? JSON.stringify(media) : null,
        status: 'sent',
        externalMessageId: externalId,
        sentAt: now,
        // A conversation's messages have strictly increasing times (as in parley_record_inbound).
        createdAt: sql<Date>`greatest(${now}::timestamptz, (select last_message_at from conversations where id = ${conversationId}) + interval '1 microsecond')`,
      })
      .onConflict((oc) => oc.columns(['channelId', 'externalMessageId']).where('externalMessageId', 'is not', null).doNothing())
      .returning(['id', 'createdAt'])
      .executeTakeFirst();
  }

  /** The conversation after a person's reply in the platform's app: handled by people, the wait answered. */
  async recordHumanReply(db: Db, conversationId: string, reply: { createdAt: Date; preview: string; now: Date }): Promise<{ status: ConversationStatus }> {
    const { createdAt, preview, now } = reply;
    return db
      .updateTable('conversations')
      .set({
        lastMessageAt: createdAt,
        lastMessagePreview: preview,
        handledBy: 'human',
        firstResponseAt: sql`coalesce(first_response_at, case when last_inbound_at is not null then ${now}::timestamptz end)`,
        ...answeredWait(now),
        updatedAt: now,
      })
      .where('id', '=', conversationId)
      .returning('status')
      .executeTakeFirstOrThrow();
  }

  // ---- Delivery statuses ----

  /** A platform's status for one outbound message, where it moves the status forward (`rank`). */
  async updateStatus(db: Db, channelId: string, externalMessageId: string, changes: StatusChanges, rank: number): Promise<ChangedMessage[]> {
    return db
      .updateTable('messages')
      .set(changes)
      .where('channelId', '=', channelId)
      .where('externalMessageId', '=', externalMessageId)
      .where('direction', '=', 'outbound')
      .where(STATUS_RANK, '<', rank)
      .returning(['id', 'conversationId', 'status'])
      .execute();
  }

  /** Messenger's watermark: the contact's outbound messages up to `watermark`, where it moves their status forward. */
  async updateStatusUpTo(db: Db, channelId: string, contactExternalId: string, changes: StatusChanges, watermark: Date, rank: number): Promise<ChangedMessage[]> {
    return db
      .updateTable('messages')
      .set(changes)
      .where('channelId', '=', channelId)
      .where('direction', '=', 'outbound')
      // A watermark is no proof that a send interrupted by a crash went out (only its echo is).
      .where('status', 'not in', ['queued', 'unknown'])
      .where('createdAt', '<=', watermark)
      .where(STATUS_RANK, '<', rank)
      .where('conversationId', 'in', (eb) =>
        eb
          .selectFrom('conversations')
          .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
          .select('conversations.id')
          .where('contacts.channelId', '=', channelId)
          .where('contacts.externalId', '=', contactExternalId),
      )
      .returning(['id', 'conversationId', 'status'])
      .execute();
  }

  // ---- A send's attempts ----

  /** A failed or `unknown` outbound message queued again; undefined when it is neither. */
  async requeue(db: Db, messageId: string): Promise<Message | undefined> {
    return db
      .updateTable('messages')
      .set({ status: 'queued', errorCode: null, errorMessage: null, sendStartedAt: null })
      .where('id', '=', messageId)
      .where('direction', '=', 'outbound')
      .where('status', 'in', ['failed', 'unknown'])
      .returningAll()
      .executeTakeFirst();
  }

  /** A started send (queued, `send_started_at` set) marked `unknown` with `reason`. */
  async markOutcomeUnknown(
    db: Db,
    messageId: string,
    reason: string,
  ): Promise<{ id: string; conversationId: string; clientId: string; channelId: string; content: string; status: MessageStatus } | undefined> {
    return db
      .updateTable('messages')
      .set({ status: 'unknown', errorCode: 'outcome_unknown', errorMessage: reason, sendStartedAt: null })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .where('sendStartedAt', 'is not', null)
      .returning(['id', 'conversationId', 'clientId', 'channelId', 'content', 'status'])
      .executeTakeFirst();
  }

  /** What the team's notification of an unknown outcome names about its conversation. */
  async outcomeContext(db: Db, conversationId: string): Promise<{ kind: ChannelKind; name: string | null; externalId: string; companyName: string }> {
    return db
      .selectFrom('conversations')
      .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
      .innerJoin('channels', 'channels.id', 'conversations.channelId')
      .innerJoin('clients', 'clients.id', 'conversations.clientId')
      .select(['channels.kind', 'contacts.name', 'contacts.externalId', 'clients.companyName'])
      .where('conversations.id', '=', conversationId)
      .executeTakeFirstOrThrow();
  }

  /** A retryable failure on a queued message: the last error and attempt count; the attempt is over. */
  async recordAttemptError(messageId: string, error: { code: string; message: string }, attempt: number): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ errorCode: error.code, errorMessage: error.message, attempts: attempt, sendStartedAt: null })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .execute();
  }

  // ---- The AI agent's changes ----

  /** An active conversation put on hold (`pending`); undefined when it was not active. */
  async holdActive(db: Db, conversationId: string, at: Date): Promise<{ status: ConversationStatus } | undefined> {
    return db
      .updateTable('conversations')
      .set({ status: 'pending', updatedAt: at })
      .where('id', '=', conversationId)
      .where('status', '=', 'active')
      .returning('status')
      .executeTakeFirst();
  }

  async aiDecidedSince(conversationId: string, decision: AiMessageInfo['decision'], since: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('messages')
      .select('id')
      .where('conversationId', '=', conversationId)
      .where('senderType', '=', 'ai')
      .where(sql<boolean>`ai->>'decision' = ${decision}`)
      .where('createdAt', '>', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The conversation escalated to people at high priority, and so is the message that caused it.
   * `reason` becomes the escalation reason; the priority's reason says "Handed to a person" unless
   * the row was already high for a reason of its own (a keyword, the mood), which stays.
   */
  async escalate(db: Db, conversationId: string, messageId: string, at: Date, fullReason: string | null = null): Promise<{ status: ConversationStatus }> {
    // The columns hold at most 300 characters.
    const reason = fullReason && fullReason.length > 250 ? `${fullReason.slice(0, 249)}…` : fullReason;
    const raised = reason ? `Handed to a person: ${reason}` : 'Handed to a person';
    const priorityReason = sql<string>`case when priority = 'high' and priority_reason is not null then priority_reason else ${raised} end`;
    const row = await db
      .updateTable('conversations')
      .set({ status: 'escalated', handledBy: 'human', priority: 'high', priorityReason, escalationReason: reason, updatedAt: at })
      .where('id', '=', conversationId)
      .returning('status')
      .executeTakeFirstOrThrow();
    await db.updateTable('messages').set({ priority: 'high', priorityReason }).where('id', '=', messageId).execute();
    return row;
  }
}
