/**
 * The messaging core: the one place that writes conversations and messages. Channel adapters,
 * the widget, the custom-platform API and the portal all come through here, so idempotency,
 * status ordering, the 24-hour window and the domain events hold the same way for every channel.
 */
import { sql } from 'kysely';
import { CONVERSATION_MESSAGES, type Priority } from '../../../common/api/conversations';
import { derivePriority, keywordSummary } from '../../../common/messaging/keyword-rules';
import { type Db, type Engine, PREPARED } from '../../db/database';
import { HOT_PATH_ERRORS } from './messaging.sql';
import { cleanJson, mightNeedCleaning } from '../../http/json-body';
import type { AiMessageInfo, Channel, ChannelKind, Message, MessageMedia, MessageStatus, MessageType, SenderType } from '../../db/schema';
import type { PerformedBy } from '../../events/domain-events';
import type { EventBus } from '../../events/event-bus';
import type { JobCompletion } from '../../jobs/define-job';
import { channelFromJson, messageFromJson } from '../../db/json-rows';
import type { ClaimedRow, JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { fetchContactProfileJob } from './fetch-contact-profile.job';
import { sendMessageJob } from './send-message.job';

/** Channels where Meta's 24-hour customer-service window applies to free text. */
export const WINDOW_CHANNELS: ReadonlySet<ChannelKind> = new Set(['whatsapp', 'messenger', 'instagram']);
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Channels whose webhooks name a customer only by an id: a new contact's name and picture come
 * from the Graph API's user profile endpoint, by a job (fetch-contact-profile.job.ts).
 */
export const PROFILE_CHANNELS: ReadonlySet<ChannelKind> = new Set(['messenger', 'instagram']);
/** Channels where a business may write first. */
export const BUSINESS_FIRST_CHANNELS: ReadonlySet<ChannelKind> = new Set(['webchat', 'api']);

const PREVIEW_LENGTH = 200;
/** An echo with no id of ours matches an unsent message of the same text this recently. */
const ECHO_MATCH_WINDOW_MS = 10 * 60_000;

/** Order of delivery statuses; a status only moves forward. */
// `unknown` (a send interrupted by a crash) sits between queued and sent: any sign from the platform
// that the message went out (an echo, sent, delivered, read) still moves it on.
const STATUS_RANK = sql<number>`case status when 'queued' then 0 when 'unknown' then 5 when 'sent' then 10 when 'failed' then 15 when 'delivered' then 20 when 'read' then 30 else -1 end`;
const RANK: Record<DeliveryStatus, number> = { sent: 10, failed: 15, delivered: 20, read: 30 };

/** A platform's word on a message the business sent (webhook statuses, the API channel's receipts). */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What a platform tells about a contact; null where it says nothing. */
export interface ContactProfile {
  name: string | null;
  avatarUrl: string | null;
}

export interface InboundMessageInput {
  contact: { externalId: string; name?: string | null; avatarUrl?: string | null };
  message: { externalId: string; type: MessageType; text: string; media?: MessageMedia };
}

export interface RecordResult {
  created: boolean;
  messageId: string;
  conversationId: string;
}

export interface SendInput {
  text: string;
  senderType: Exclude<SenderType, 'customer'>;
  senderId: string | null;
  aiConfidence?: number | null;
  /** AI messages: what produced them (engine, decision, sources, latency, usage). */
  ai?: AiMessageInfo | null;
}

/** Response times: a reply closes the wait that the first unanswered customer message opened. */
function answeredWait(now: Date) {
  return {
    responseCount: sql<number>`response_count + case when awaiting_since is not null then 1 else 0 end`,
    responseSecondsTotal: sql<number>`response_seconds_total + coalesce(greatest(0, extract(epoch from (${now}::timestamptz - awaiting_since))), 0)`,
    awaitingSince: null,
  };
}

/** What Parley derives from a customer's message as it is stored (the AI agent's intelligence). */
export interface InboundAnnotation {
  priority: Priority;
  /** The message's summary (the spec's category). */
  aiSummary: string;
  /** -1 … 1, or null when not measured. */
  sentiment: number | null;
}

export type AnnotateInbound = (text: string, type: MessageType) => InboundAnnotation;

/** The spec's keyword rules (§9), the default until the agents module provides more. */
export const keywordAnnotation: AnnotateInbound = (text) => ({ priority: derivePriority(text), aiSummary: keywordSummary(text), sentiment: null });

export interface MessagingServiceDeps {
  db: Db;
  /**
   * `postgres`: a send attempt's record (`beginSend`) commits without waiting for its WAL flush —
   * PostgreSQL keeps it whatever happens to Parley, and it saves a disk flush on the reply path.
   * Not on PGlite, whose database dies with the process.
   */
  engine?: Engine;
  events: EventBus;
  queue: JobQueue;
  clock: Clock;
  annotate?: AnnotateInbound;
}

export interface RecordInboundOptions {
  performedBy?: PerformedBy;
  /** Raw deliveries to mark processed (with their errors) in the same transaction. */
  processed?: readonly { id: number; error: string | null }[];
  /** The job to complete in the same transaction. */
  completeJob?: JobCompletion;
}

export interface SendOptions {
  /** The conversation's new summary (the AI agent's), written with the reply. */
  conversationSummary?: string | null;
  /** The answered message's new summary (the topic the agent recognised). */
  inboundSummary?: { messageId: string; aiSummary: string } | null;
  /** The job to complete in the same transaction. */
  completeJob?: JobCompletion;
}

/** What a send job claimed where its reply was queued gets in memory (`JobContext.hint`). */
export interface SendJobHint {
  message: Message;
  channel: Channel;
  /** The contact's id on the channel. */
  recipient: string;
}

/** What a person reads on a send whose outcome is unknown (MessagingService.markOutcomeUnknown). */
export const OUTCOME_UNKNOWN_REASON =
  'Parley was interrupted while sending this message, so it may or may not have reached the customer. Resend it if they did not get it.';

/** `parley_begin_send`'s answer (MessagingService.beginSend). */
export type BeginSend =
  | { state: 'send'; resent: boolean; found?: SendJobHint }
  | { state: 'settled' }
  | { state: 'unknown' }
  | { state: 'missing' };

/** A send marked unknown: what the team's notification names. */
export interface UnknownOutcome {
  messageId: string;
  conversationId: string;
  clientId: string;
  content: string;
  kind: ChannelKind;
  contactName: string | null;
  contactExternalId: string;
  companyName: string;
}

/** `parley_send_message`'s errors as the API states them. */
function sendError(error: unknown): unknown {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === HOT_PATH_ERRORS.notFound) return notFound('Conversation');
  if (e?.code === HOT_PATH_ERRORS.conflict) {
    if (e.message === 'channel_disabled') {
      return new AppError('CONFLICT', 'This channel is disabled. Enable it to send messages.', { details: { reason: 'channel_disabled' }, cause: error });
    }
    if (e.message === 'window_closed') {
      return new AppError('CONFLICT', CONVERSATION_MESSAGES.windowClosed, { details: { reason: 'window_closed' }, cause: error });
    }
  }
  return error;
}

function preview(text: string, type: MessageType): string {
  const value = text.trim() || `[${type}]`;
  return value.length > PREVIEW_LENGTH ? `${value.slice(0, PREVIEW_LENGTH - 1)}…` : value;
}

export class MessagingService {
  constructor(private readonly deps: MessagingServiceDeps) {}

  /** Whether free text may be sent on this conversation now. */
  windowOpen(kind: ChannelKind, lastInboundAt: Date | null, now: Date = this.deps.clock.now()): boolean {
    if (!WINDOW_CHANNELS.has(kind)) return true;
    return lastInboundAt !== null && now.getTime() - lastInboundAt.getTime() < CUSTOMER_SERVICE_WINDOW_MS;
  }

  /**
   * A customer's message. Idempotent on (channel, external message id): a redelivery — even 50 at
   * once — stores nothing new, because the unique index decides.
   */
  async recordInbound(channel: Channel, input: InboundMessageInput, performedBy: PerformedBy = { kind: 'customer' }): Promise<RecordResult> {
    const [result] = await this.recordInboundBatch(channel, [input], { performedBy });
    if (!result) throw new Error('parley_record_inbound returned no result');
    return result;
  }

  /**
   * Customers' messages on one channel, in order, in one transaction and one round trip
   * (`parley_record_inbound`): contacts, conversations, messages, the events and their
   * subscribers' jobs — and, for the webhook job, its raw deliveries marked processed and the job
   * completed. A result per input, in order.
   */
  async recordInboundBatch(channel: Channel, inputs: readonly InboundMessageInput[], options: RecordInboundOptions = {}): Promise<RecordResult[]> {
    const annotate = this.deps.annotate ?? keywordAnnotation;
    const now = this.deps.clock.now();
    const items = inputs.map(({ contact, message }) => {
      const annotation = annotate(message.text, message.type);
      return {
        contactExternalId: contact.externalId,
        contactName: contact.name ?? null,
        contactAvatarUrl: contact.avatarUrl ?? null,
        externalId: message.externalId,
        type: message.type,
        text: message.text,
        media: message.media ?? null,
        preview: preview(message.text, message.type),
        priority: annotation.priority,
        aiSummary: annotation.aiSummary,
        sentiment: annotation.sentiment,
      };
    });
    // The subscribers' jobs (the AI agent's) run here, at once, where a slot is free.
    const local = this.deps.queue.reserve(
      this.deps.events.jobsFor(['message.created', 'conversation.created', 'conversation.updated', 'conversation.reopened']).map((definition) => ({ definition, n: inputs.length })),
    );
    const input = {
      channelId: channel.id,
      clientId: channel.clientId,
      now: now.toISOString(),
      at: new Date().toISOString(),
      performedBy: options.performedBy ?? { kind: 'customer' },
      items,
      // New contacts without a name get their profile fetched (not claimed here: it waits on the Graph API).
      profileJob: PROFILE_CHANNELS.has(channel.kind) ? { name: fetchContactProfileJob.name, maxAttempts: fetchContactProfileJob.maxAttempts ?? 5 } : null,
      ...this.deps.events.publishContext,
      local,
      processed: options.processed ? { events: options.processed } : null,
      completeJob: options.completeJob ?? null,
    };
    let result: { results: RecordResult[]; claimed: ClaimedRow[] };
    try {
      const { rows } = await sql<{ result: typeof result }>`${sql.raw(PREPARED)}select parley_record_inbound(${JSON.stringify(input)}::jsonb) as result`.execute(this.deps.db);
      if (!rows[0]) throw new Error('parley_record_inbound returned nothing');
      result = rows[0].result;
    } catch (error) {
      this.deps.queue.release(local);
      throw error;
    }
    this.deps.queue.runLocal(local, result.claimed);
    return result.results;
  }

  /**
   * An echo of a message the business sent. Our own sends are matched (by our id in the echo's
   * metadata, by external id, or by text for a send still in flight) and not stored again; a reply
   * a person typed in the platform's own app is recorded as an outgoing agent message.
   */
  async recordEcho(
    channel: Channel,
    input: InboundMessageInput & { ourMessageId?: string | null },
  ): Promise<RecordResult & { matched: boolean }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const { conversationId, conversationCreated } = await this.#ensureConversation(trx, channel, input.contact);
      const { externalId, text, type, media } = input.message;
      const now = this.deps.clock.now();

      const known = await trx
        .selectFrom('messages')
        .select('id')
        .where('channelId', '=', channel.id)
        .where('externalMessageId', '=', externalId)
        .executeTakeFirst();
      if (known) return { created: false, matched: true, messageId: known.id, conversationId };

      let match = input.ourMessageId
        ? await trx
            .selectFrom('messages')
            .select('id')
            .where('id', '=', input.ourMessageId)
            .where('channelId', '=', channel.id)
            .where('direction', '=', 'outbound')
            .executeTakeFirst()
        : undefined;
      match ??= await trx
        .selectFrom('messages')
        .select('id')
        .where('conversationId', '=', conversationId)
        .where('direction', '=', 'outbound')
        .where('externalMessageId', 'is', null)
        .where('content', '=', text)
        .where('createdAt', '>', new Date(now.getTime() - ECHO_MATCH_WINDOW_MS))
        .orderBy('createdAt', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (match) {
        await trx
          .updateTable('messages')
          .set({ externalMessageId: externalId })
          .where('id', '=', match.id)
          .where('externalMessageId', 'is', null)
          .execute();
        // A send whose outcome was unknown (interrupted by a crash) did go out: the echo says so.
        const confirmed = await trx
          .updateTable('messages')
          .set({ status: 'sent', sentAt: now, sendStartedAt: null, errorCode: null, errorMessage: null })
          .where('id', '=', match.id)
          .where('status', '=', 'unknown')
          .returning(['id', 'conversationId', 'clientId', 'status'])
          .executeTakeFirst();
        if (confirmed) {
          await this.deps.events.publish(
            trx,
            'message.updated',
            { messageId: confirmed.id, conversationId: confirmed.conversationId, clientId: confirmed.clientId, status: confirmed.status },
            { kind: 'system' },
          );
        }
        return { created: false, matched: true, messageId: match.id, conversationId };
      }

      const inserted = await trx
        .insertInto('messages')
        .values({
          conversationId,
          clientId: channel.clientId,
          channelId: channel.id,
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
      if (!inserted) {
        const existing = await trx
          .selectFrom('messages')
          .select('id')
          .where('channelId', '=', channel.id)
          .where('externalMessageId', '=', externalId)
          .executeTakeFirstOrThrow();
        return { created: false, matched: true, messageId: existing.id, conversationId };
      }
      // A person answered in the platform's own app: they are handling the conversation now.
      const conversation = await trx
        .updateTable('conversations')
        .set({
          lastMessageAt: inserted.createdAt,
          lastMessagePreview: preview(text, type),
          handledBy: 'human',
          firstResponseAt: sql`coalesce(first_response_at, case when last_inbound_at is not null then ${now}::timestamptz end)`,
          ...answeredWait(now),
          updatedAt: now,
        })
        .where('id', '=', conversationId)
        .returning('status')
        .executeTakeFirstOrThrow();
      const performedBy: PerformedBy = { kind: 'system' };
      await this.deps.events.publish(
        trx,
        'message.created',
        { messageId: inserted.id, conversationId, clientId: channel.clientId, channelId: channel.id, direction: 'outbound', senderType: 'agent' },
        performedBy,
      );
      await this.deps.events.publish(
        trx,
        conversationCreated ? 'conversation.created' : 'conversation.updated',
        conversationCreated ? { conversationId, clientId: channel.clientId } : { conversationId, clientId: channel.clientId, status: conversation.status },
        performedBy,
      );
      return { created: true, matched: false, messageId: inserted.id, conversationId };
    });
  }

  /** A platform's delivery status for one of our messages; never moves a status backwards. */
  async recordStatus(
    channel: Channel,
    externalMessageId: string,
    status: DeliveryStatus,
    error?: { code: string; message: string },
  ): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('messages')
        .set(this.#statusChanges(status, error))
        .where('channelId', '=', channel.id)
        .where('externalMessageId', '=', externalMessageId)
        .where('direction', '=', 'outbound')
        .where(STATUS_RANK, '<', RANK[status])
        .returning(['id', 'conversationId', 'status'])
        .execute();
      for (const m of updated) {
        await this.deps.events.publish(
          trx,
          'message.updated',
          { messageId: m.id, conversationId: m.conversationId, clientId: channel.clientId, status: m.status },
          { kind: 'customer' },
        );
      }
      return updated.length > 0;
    });
  }

  /** Messenger's watermarks: everything sent to the contact up to `watermark` reached `status`. */
  async recordWatermark(channel: Channel, contactExternalId: string, status: 'delivered' | 'read', watermark: Date): Promise<number> {
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('messages')
        .set(this.#statusChanges(status))
        .where('channelId', '=', channel.id)
        .where('direction', '=', 'outbound')
        // A watermark is no proof that a send interrupted by a crash went out (only its echo is).
        .where('status', 'not in', ['queued', 'unknown'])
        .where('createdAt', '<=', watermark)
        .where(STATUS_RANK, '<', RANK[status])
        .where('conversationId', 'in', (eb) =>
          eb
            .selectFrom('conversations')
            .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
            .select('conversations.id')
            .where('contacts.channelId', '=', channel.id)
            .where('contacts.externalId', '=', contactExternalId),
        )
        .returning(['id', 'conversationId', 'status'])
        .execute();
      for (const m of updated) {
        await this.deps.events.publish(
          trx,
          'message.updated',
          { messageId: m.id, conversationId: m.conversationId, clientId: channel.clientId, status: m.status },
          { kind: 'customer' },
        );
      }
      return updated.length;
    });
  }

  /**
   * Queues a reply on a conversation and its delivery job, in one transaction and one round trip
   * (`parley_send_message`). Refuses free text outside the 24-hour window on Meta channels, and on
   * a disabled channel.
   */
  async sendMessage(conversationId: string, input: SendInput, performedBy: PerformedBy, options: SendOptions = {}): Promise<Message> {
    const message = await this.#send(conversationId, input, performedBy, options, null);
    if (!message) throw new Error('parley_send_message skipped a reply it was not asked to check');
    return message;
  }

  /**
   * The AI agent's reply to customer message `replyTo`, queued only if that message is still the
   * newest customer message of the conversation and nobody answered it — checked under the
   * conversation's lock. Null when it was not sent for that reason.
   */
  async sendAgentReply(conversationId: string, replyTo: string, input: SendInput, options: SendOptions = {}): Promise<Message | null> {
    return this.#send(conversationId, input, { kind: 'ai' }, options, replyTo);
  }

  async #send(conversationId: string, input: SendInput, performedBy: PerformedBy, options: SendOptions, replyTo: string | null): Promise<Message | null> {
    const now = this.deps.clock.now();
    // The send job (and subscribers' jobs) run here, at once, where a slot is free.
    const local = this.deps.queue.reserve([
      { definition: sendMessageJob, n: 1 },
      ...this.deps.events.jobsFor(['message.created', 'conversation.updated']).map((definition) => ({ definition, n: 1 })),
    ]);
    const payload = {
      conversationId,
      local,
      replyTo,
      now: now.toISOString(),
      at: new Date().toISOString(),
      text: input.text,
      preview: preview(input.text, 'text'),
      senderType: input.senderType,
      senderId: input.senderId,
      aiConfidence: input.aiConfidence ?? null,
      ai: input.ai ?? null,
      performedBy,
      windowKinds: [...WINDOW_CHANNELS],
      windowMs: CUSTOMER_SERVICE_WINDOW_MS,
      sendJob: { name: sendMessageJob.name, maxAttempts: sendMessageJob.maxAttempts ?? 5 },
      conversationSummary: options.conversationSummary ?? null,
      inboundSummary: options.inboundSummary ?? null,
      completeJob: options.completeJob ?? null,
      ...this.deps.events.publishContext,
    };
    type Result = { skipped: true } | { skipped?: undefined; message: unknown; claimed: ClaimedRow[]; channel: unknown; recipient: string };
    let result: Result;
    try {
      const { rows } = await sql<{ result: Result }>`${sql.raw(PREPARED)}select parley_send_message(${storableJson(payload)}::jsonb) as result`.execute(this.deps.db);
      if (!rows[0]) throw new Error('parley_send_message returned nothing');
      result = rows[0].result;
    } catch (error) {
      this.deps.queue.release(local);
      throw sendError(error);
    }
    if (result.skipped) {
      this.deps.queue.release(local);
      return null;
    }
    const message = messageFromJson(result.message);
    const hint: SendJobHint = { message, channel: channelFromJson(result.channel), recipient: result.recipient };
    this.deps.queue.runLocal(local, result.claimed, (row) => (row.name === sendMessageJob.name ? hint : undefined));
    return message;
  }

  /** A conversation's new summary (the AI agent's), its event, and optionally the job done: one round trip. */
  async setConversationSummary(conversationId: string, summary: string, performedBy: PerformedBy, completeJob?: JobCompletion): Promise<void> {
    const payload = { conversationId, summary, at: new Date().toISOString(), performedBy, completeJob: completeJob ?? null, ...this.deps.events.publishContext };
    await sql`${sql.raw(PREPARED)}select parley_set_conversation_summary(${storableJson(payload)}::jsonb)`.execute(this.deps.db);
  }

  /**
   * The AI agent's away reply (outside business hours) puts an active conversation on hold:
   * status `pending`, with its event. A conversation in any other state keeps it.
   */
  async markAway(conversation: { conversationId: string; clientId: string }, performedBy: PerformedBy, at: Date = this.deps.clock.now()): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('conversations')
        .set({ status: 'pending', updatedAt: at })
        .where('id', '=', conversation.conversationId)
        .where('status', '=', 'active')
        .returning('status')
        .executeTakeFirst();
      if (row) await this.deps.events.publish(trx, 'conversation.updated', { conversationId: conversation.conversationId, clientId: conversation.clientId, status: row.status }, performedBy);
    });
  }

  /** Whether the AI agent sent a reply of this decision (its `ai.decision`) in the conversation since `since`. */
  async aiDecidedSince(conversationId: string, decision: AiMessageInfo['decision'], since: Date): Promise<boolean> {
    const row = await this.deps.db
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
   * Handed to people (the AI agent's hand-off): the conversation is escalated, handled by a
   * person and at high priority, and so is the message that caused it; its event is published.
   * `alsoInTransaction` runs in the same transaction (telling the staff), so a hand-off is never
   * recorded without its notifications, nor the reverse.
   */
  async escalate(
    conversation: { conversationId: string; clientId: string; messageId: string },
    performedBy: PerformedBy,
    alsoInTransaction?: (trx: Db) => Promise<void>,
    at: Date = this.deps.clock.now(),
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('conversations')
        .set({ status: 'escalated', handledBy: 'human', priority: 'high', updatedAt: at })
        .where('id', '=', conversation.conversationId)
        .returning('status')
        .executeTakeFirstOrThrow();
      await trx.updateTable('messages').set({ priority: 'high' }).where('id', '=', conversation.messageId).execute();
      await this.deps.events.publish(trx, 'conversation.updated', { conversationId: conversation.conversationId, clientId: conversation.clientId, status: row.status }, performedBy);
      if (alsoInTransaction) await alsoInTransaction(trx);
    });
  }

  /**
   * The name a customer gave (the website widget's "your name"): their contact is created with it,
   * or renamed, before they write.
   */
  async nameContact(channel: { id: string; clientId: string }, externalId: string, name: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId, name })
      .onConflict((oc) => oc.columns(['channelId', 'externalId']).doUpdateSet({ name, updatedAt: now }))
      .execute();
  }

  /** A contact's ids, for the profile job. */
  async findContact(contactId: string): Promise<{ id: string; channelId: string; externalId: string; name: string | null } | undefined> {
    return this.deps.db.selectFrom('contacts').select(['id', 'channelId', 'externalId', 'name']).where('id', '=', contactId).executeTakeFirst();
  }

  /**
   * A contact's name and picture from the platform's profile. A name already there (from the
   * platform or a person) stays; the picture is refreshed. Its conversation's `conversation.updated`
   * makes the lists show the name at once. Resolves true when something changed.
   */
  async setContactProfile(contactId: string, profile: ContactProfile): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('contacts')
        .set({
          name: sql<string | null>`coalesce(nullif(btrim(name), ''), ${profile.name})`,
          avatarUrl: sql<string | null>`coalesce(${profile.avatarUrl}, avatar_url)`,
          updatedAt: now,
        })
        .where('id', '=', contactId)
        .where(
          sql<boolean>`((nullif(btrim(name), '') is null and ${profile.name}::text is not null) or (${profile.avatarUrl}::text is not null and avatar_url is distinct from ${profile.avatarUrl}::text))`,
        )
        .returning(['id', 'clientId'])
        .executeTakeFirst();
      if (!updated) return false;
      const conversations = await trx.selectFrom('conversations').select(['id', 'status']).where('contactId', '=', contactId).execute();
      for (const c of conversations) {
        await this.deps.events.publish(trx, 'conversation.updated', { conversationId: c.id, clientId: updated.clientId, status: c.status }, { kind: 'system' });
      }
      return true;
    });
  }

  /**
   * The conversation of an existing contact, created if it has none yet (a business writing
   * first on website chat or the API channel). Refuses channels where the business may not.
   */
  async openConversationForContact(contactId: string, performedBy: PerformedBy): Promise<string> {
    return this.deps.db.transaction().execute(async (trx) => {
      const contact = await trx
        .selectFrom('contacts')
        .innerJoin('channels', 'channels.id', 'contacts.channelId')
        .select(['contacts.id', 'contacts.clientId', 'contacts.channelId', 'contacts.name', 'channels.kind'])
        .where('contacts.id', '=', contactId)
        .executeTakeFirst();
      if (!contact) throw notFound('Contact');
      const existing = await trx.selectFrom('conversations').select('id').where('contactId', '=', contactId).executeTakeFirst();
      if (existing) return existing.id;
      if (!BUSINESS_FIRST_CHANNELS.has(contact.kind)) {
        throw new AppError('CONFLICT', CONVERSATION_MESSAGES.businessCannotStart, { details: { reason: 'business_cannot_start' } });
      }
      const created = await trx
        .insertInto('conversations')
        .values({ clientId: contact.clientId, channelId: contact.channelId, contactId, title: contact.name })
        .onConflict((oc) => oc.column('contactId').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!created) {
        return (await trx.selectFrom('conversations').select('id').where('contactId', '=', contactId).executeTakeFirstOrThrow()).id;
      }
      await this.deps.events.publish(trx, 'conversation.created', { conversationId: created.id, clientId: contact.clientId }, performedBy);
      return created.id;
    });
  }

  /** A failed or unconfirmed (`unknown`) outbound message queued again (a person pressed Retry / Resend). */
  async retryMessage(messageId: string, performedBy: PerformedBy): Promise<Message> {
    return this.deps.db.transaction().execute(async (trx) => {
      const message = await trx
        .updateTable('messages')
        .set({ status: 'queued', errorCode: null, errorMessage: null, sendStartedAt: null })
        .where('id', '=', messageId)
        .where('direction', '=', 'outbound')
        .where('status', 'in', ['failed', 'unknown'])
        .returningAll()
        .executeTakeFirst();
      if (!message) throw new AppError('CONFLICT', 'Only a failed or unconfirmed message can be sent again', { details: { reason: 'not_failed' } });
      await this.deps.queue.enqueue(sendMessageJob, { messageId }, { db: trx });
      await this.deps.events.publish(
        trx,
        'message.updated',
        { messageId, conversationId: message.conversationId, clientId: message.clientId, status: 'queued' },
        performedBy,
      );
      return message;
    });
  }

  /**
   * The send job, right before it calls the platform: records the attempt durably
   * (`send_started_at`) in one round trip (`parley_begin_send`), so a crash between the call and
   * its result is recognised when the job runs again. `load`: also return the message, its
   * channel and recipient (a job claimed from the table has no hint). `resendKinds`: channels whose
   * receiver deduplicates, where an interrupted send may simply go again.
   */
  async beginSend(messageId: string, attempt: number, options: { load: boolean; resendKinds: readonly ChannelKind[] }): Promise<BeginSend> {
    const payload = { messageId, attempt, load: options.load, resendKinds: options.resendKinds, asyncCommit: this.deps.engine === 'postgres' };
    type Row =
      | { state: 'send'; resent: boolean; message?: unknown; channel?: unknown; recipient?: string }
      | { state: 'settled' | 'unknown' | 'missing' };
    const { rows } = await sql<{ result: Row }>`${sql.raw(PREPARED)}select parley_begin_send(${JSON.stringify(payload)}::jsonb) as result`.execute(this.deps.db);
    const result = rows[0]?.result;
    if (!result) throw new Error('parley_begin_send returned nothing');
    if (result.state !== 'send') return { state: result.state };
    if (result.message === undefined || result.channel === undefined || result.recipient === undefined) return { state: 'send', resent: result.resent };
    return {
      state: 'send',
      resent: result.resent,
      found: { message: messageFromJson(result.message), channel: channelFromJson(result.channel), recipient: result.recipient },
    };
  }

  /**
   * A send interrupted between its start and its result (`beginSend` said `unknown`): the message
   * becomes `unknown` for a person to check and resend, with its event, and the job is done — in
   * `db` (a transaction the caller also notifies the team in). Null when it is no longer such a
   * send (resent or settled meanwhile).
   */
  async markOutcomeUnknown(messageId: string, db: Db, completeJob?: JobCompletion): Promise<UnknownOutcome | null> {
    const row = await db
      .updateTable('messages')
      .set({ status: 'unknown', errorCode: 'outcome_unknown', errorMessage: OUTCOME_UNKNOWN_REASON, sendStartedAt: null })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .where('sendStartedAt', 'is not', null)
      .returning(['id', 'conversationId', 'clientId', 'channelId', 'content', 'status'])
      .executeTakeFirst();
    if (completeJob) await sql`select parley_complete_job(${JSON.stringify(completeJob)}::jsonb)`.execute(db);
    if (!row) return null;
    await this.deps.events.publish(db, 'message.updated', { messageId: row.id, conversationId: row.conversationId, clientId: row.clientId, status: row.status }, { kind: 'system' });
    const about = await db
      .selectFrom('conversations')
      .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
      .innerJoin('channels', 'channels.id', 'conversations.channelId')
      .innerJoin('clients', 'clients.id', 'conversations.clientId')
      .select(['channels.kind', 'contacts.name', 'contacts.externalId', 'clients.companyName'])
      .where('conversations.id', '=', row.conversationId)
      .executeTakeFirstOrThrow();
    return {
      messageId: row.id,
      conversationId: row.conversationId,
      clientId: row.clientId,
      content: row.content,
      kind: about.kind,
      contactName: about.name,
      contactExternalId: about.externalId,
      companyName: about.companyName,
    };
  }

  /** The send job's outcome: sent (with the platform's id), or failed with the reason. */
  async markSent(messageId: string, externalMessageId: string | null, attempt: number, completeJob?: JobCompletion): Promise<void> {
    await this.#finishSend({
      messageId,
      status: 'sent',
      externalMessageId,
      sentAt: this.deps.clock.now().toISOString(),
      attempts: attempt,
      errorCode: null,
      errorMessage: null,
      completeJob: completeJob ?? null,
    });
  }

  async markFailed(messageId: string, error: { code: string; message: string }, attempt: number, completeJob?: JobCompletion): Promise<void> {
    await this.#finishSend({
      messageId,
      status: 'failed',
      externalMessageId: null,
      sentAt: null,
      attempts: attempt,
      errorCode: error.code,
      errorMessage: error.message,
      completeJob: completeJob ?? null,
    });
  }

  /**
   * A retryable failure: the message stays queued, showing the last error and attempt count; the
   * attempt is over (the platform answered, or never got the request), so the next may send.
   */
  async recordAttemptError(messageId: string, error: { code: string; message: string }, attempt: number): Promise<void> {
    await this.deps.db
      .updateTable('messages')
      .set({ errorCode: error.code, errorMessage: error.message, attempts: attempt, sendStartedAt: null })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .execute();
  }

  /** One round trip (`parley_finish_send`): only a queued message changes; its event; the job, if given. */
  async #finishSend(outcome: {
    messageId: string;
    status: 'sent' | 'failed';
    externalMessageId: string | null;
    sentAt: string | null;
    attempts: number;
    errorCode: string | null;
    errorMessage: string | null;
    completeJob: JobCompletion | null;
  }): Promise<void> {
    const payload = { ...outcome, at: new Date().toISOString(), performedBy: { kind: 'system' }, ...this.deps.events.publishContext };
    await sql`${sql.raw(PREPARED)}select parley_finish_send(${JSON.stringify(payload)}::jsonb)`.execute(this.deps.db);
  }

  #statusChanges(status: DeliveryStatus, error?: { code: string; message: string }) {
    const now = this.deps.clock.now();
    const s: MessageStatus = status;
    return {
      status: s,
      ...(status === 'delivered' ? { deliveredAt: now } : {}),
      ...(status === 'read' ? { seenAt: now } : {}),
      ...(status === 'failed' ? { errorCode: error?.code ?? 'failed', errorMessage: error?.message ?? 'The platform reported a failure' } : {}),
    };
  }

  /**
   * The contact (created or renamed) and its conversation (created if none). An echo is the
   * business writing, so it never reopens a resolved conversation (parley_record_inbound does, for
   * the customer's messages, by the reopen rule).
   */
  async #ensureConversation(
    trx: Db,
    channel: Channel,
    contact: InboundMessageInput['contact'],
  ): Promise<{ contactId: string; conversationId: string; conversationCreated: boolean }> {
    const now = this.deps.clock.now();
    const { id: contactId, inserted } = await trx
      .insertInto('contacts')
      .values({
        clientId: channel.clientId,
        channelId: channel.id,
        externalId: contact.externalId,
        name: contact.name ?? null,
        avatarUrl: contact.avatarUrl ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['channelId', 'externalId']).doUpdateSet({
          name: sql`coalesce(excluded.name, contacts.name)`,
          avatarUrl: sql`coalesce(excluded.avatar_url, contacts.avatar_url)`,
          updatedAt: now,
        }),
      )
      .returning(['id', sql<boolean>`xmax = 0`.as('inserted')])
      .executeTakeFirstOrThrow();
    // As in parley_record_inbound: a new contact the platform did not name gets its profile fetched.
    if (inserted && !contact.name && PROFILE_CHANNELS.has(channel.kind)) await this.deps.queue.enqueue(fetchContactProfileJob, { contactId }, { db: trx });
    const created = await trx
      .insertInto('conversations')
      .values({ clientId: channel.clientId, channelId: channel.id, contactId, title: contact.name ?? null })
      .onConflict((oc) => oc.column('contactId').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created) return { contactId, conversationId: created.id, conversationCreated: true };
    const existing = await trx.selectFrom('conversations').select('id').where('contactId', '=', contactId).executeTakeFirstOrThrow();
    return { contactId, conversationId: existing.id, conversationCreated: false };
  }
}

/**
 * A payload as JSON PostgreSQL accepts. Text written here may come from an LLM or a person, not
 * only through the HTTP edge that cleans request bodies: a lone surrogate (JSON.stringify writes
 * it as an escape jsonb refuses) becomes U+FFFD and U+0000 is dropped, so a reply is stored
 * rather than failed. The check is one regular expression over the text; only then a walk.
 */
export function storableJson(payload: object): string {
  const json = JSON.stringify(payload);
  if (!mightNeedCleaning(json)) return json;
  return JSON.stringify(cleanJson(structuredClone(payload), { nul: 'strip', maxDepth: Infinity }).value);
}
