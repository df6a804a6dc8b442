/**
 * The messaging core: the one place that writes conversations and messages. Channel adapters,
 * the widget, the custom-platform API and the portal all come through here, so idempotency,
 * status ordering, the 24-hour window and the domain events hold the same way for every channel.
 */
import { CONVERSATION_MESSAGES } from '../../../common/api/conversations';
import { parseRating } from '../../../common/messaging/satisfaction';
import type { Db, Engine } from '../../db/database';
import { HOT_PATH_ERRORS } from './messaging.sql';
import type { AiMessageInfo, Channel, ChannelKind, Message, MessageStatus, MessageType } from '../../db/schema';
import type { PerformedBy } from '../../events/domain-events';
import type { EventBus } from '../../events/event-bus';
import type { JobCompletion } from '../../jobs/define-job';
import { channelFromJson, messageFromJson } from '../../db/json-rows';
import type { ClaimedRow, JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { fetchContactProfileJob } from './fetch-contact-profile.job';
import { sendMessageJob } from './send-message.job';
import { ContactsRepository } from './contacts.repository';
import { detectLead } from './lead-signals';
import { MessagingRepository, type RecordInboundRows, type StatusChanges } from './messaging.repository';
import {
  BUSINESS_FIRST_CHANNELS,
  CUSTOMER_SERVICE_WINDOW_MS,
  OUTCOME_UNKNOWN_REASON,
  PROFILE_CHANNELS,
  WINDOW_CHANNELS,
  keywordAnnotation,
  storableJson,
  type AnnotateInbound,
  type BeginSend,
  type ContactProfile,
  type DeliveryStatus,
  type InboundMessageInput,
  type RecordInboundOptions,
  type RecordResult,
  type SendInput,
  type SendJobHint,
  type SendOptions,
  type SurveyAnswer,
  type SurveyRequest,
  type UnknownOutcome,
} from './messaging.types';

// The module's public types and constants, declared in messaging.types.ts.
export * from './messaging.types';

const PREVIEW_LENGTH = 200;
/** An echo with no id of ours matches an unsent message of the same text this recently. */
const ECHO_MATCH_WINDOW_MS = 10 * 60_000;

/**
 * Order of delivery statuses; a status only moves forward (the ranks of messaging.repository.ts's
 * STATUS_RANK, which also places queued and unknown).
 */
const RANK: Record<DeliveryStatus, number> = { sent: 10, failed: 15, delivered: 20, read: 30 };

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

/** The public event's words for an AI hand-off (conversation.escalated). */
function handOffReason(reason: string | null): string {
  const text = reason?.trim();
  if (!text) return 'The AI agent handed the conversation to a person';
  return `The AI agent handed the conversation to a person: ${text.length > 250 ? `${text.slice(0, 249)}…` : text}`;
}

function preview(text: string, type: MessageType): string {
  const value = text.trim() || `[${type}]`;
  return value.length > PREVIEW_LENGTH ? `${value.slice(0, PREVIEW_LENGTH - 1)}…` : value;
}

export class MessagingService {
  readonly #messages: MessagingRepository;
  readonly #contacts: ContactsRepository;

  constructor(private readonly deps: MessagingServiceDeps) {
    this.#messages = new MessagingRepository(deps.db);
    this.#contacts = new ContactsRepository(deps.db);
  }

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
    return (await this.#recordInbound(channel, inputs, options)).map((result) => {
      if (result.messageId === null) throw new Error('parley_record_inbound skipped a message that named no survey');
      return { ...result, messageId: result.messageId };
    });
  }

  /**
   * A customer's answer to satisfaction survey `answer.surveyId` (the widget's stars): stored as
   * their message, marked with the survey, once (`externalId`), without reopening the
   * conversation. Null when the survey is no longer pending (answered, expired or replaced): nothing
   * is stored.
   */
  async answerSurvey(
    channel: Channel,
    contact: InboundMessageInput['contact'],
    input: { externalId: string; text: string; answer: SurveyAnswer & { surveyId: string } },
  ): Promise<RecordResult | null> {
    const [result] = await this.#recordInbound(channel, [{ contact, message: { externalId: input.externalId, type: 'text', text: input.text, rating: input.answer } }], {});
    if (!result) throw new Error('parley_record_inbound returned no result');
    return result.messageId === null ? null : { ...result, messageId: result.messageId };
  }

  async #recordInbound(channel: Channel, inputs: readonly InboundMessageInput[], options: RecordInboundOptions): Promise<RecordInboundRows['results']> {
    const annotate = this.deps.annotate ?? keywordAnnotation;
    const now = this.deps.clock.now();
    const items = inputs.map(({ contact, message }) => {
      const annotation = annotate(message.text, message.type);
      const lead = message.type === 'text' ? detectLead(message.text) : null;
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
        priorityReason: annotation.priorityReason ?? null,
        aiSummary: annotation.aiSummary,
        sentiment: annotation.sentiment,
        lead: lead && { signals: lead.signals, email: lead.email, phone: lead.phone },
        rating: message.rating !== undefined ? message.rating : message.type === 'text' ? parseRating(message.text) : null,
      };
    });
    // The subscribers' jobs (the AI agent's) run here, at once, where a slot is free.
    const local = this.deps.queue.reserve(
      this.deps.events
        .jobsFor(['message.created', 'conversation.created', 'conversation.updated', 'conversation.reopened', 'contact.created', 'lead.qualified'])
        .map((definition) => ({ definition, n: inputs.length })),
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
    let result: Awaited<ReturnType<MessagingRepository['recordInbound']>>;
    try {
      result = await this.#messages.recordInbound(JSON.stringify(input));
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

      const known = await this.#messages.findIdByExternalId(trx, channel.id, externalId);
      if (known) return { created: false, matched: true, messageId: known.id, conversationId };

      let match = input.ourMessageId ? await this.#messages.findOutbound(trx, channel.id, input.ourMessageId) : undefined;
      match ??= await this.#messages.findUnsentByText(trx, conversationId, text, new Date(now.getTime() - ECHO_MATCH_WINDOW_MS));
      if (match) {
        await this.#messages.setExternalId(trx, match.id, externalId);
        // A send whose outcome was unknown (interrupted by a crash) did go out: the echo says so.
        const confirmed = await this.#messages.confirmUnknownSent(trx, match.id, now);
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

      const inserted = await this.#messages.insertEcho(trx, { conversationId, clientId: channel.clientId, channelId: channel.id, text, type, media, externalId, now });
      if (!inserted) {
        const existing = await this.#messages.getIdByExternalId(trx, channel.id, externalId);
        return { created: false, matched: true, messageId: existing.id, conversationId };
      }
      // A person answered in the platform's own app: they are handling the conversation now.
      const conversation = await this.#messages.recordHumanReply(trx, conversationId, { createdAt: inserted.createdAt, preview: preview(text, type), now });
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
      const updated = await this.#messages.updateStatus(trx, channel.id, externalMessageId, this.#statusChanges(status, error), RANK[status]);
      await this.#publishUpdated(trx, channel.clientId, updated);
      return updated.length > 0;
    });
  }

  /** `message.updated` for messages a platform's receipt moved on (the customer's side reported it). */
  async #publishUpdated(trx: Db, clientId: string, updated: readonly { id: string; conversationId: string; status: MessageStatus }[]): Promise<void> {
    for (const m of updated) {
      await this.deps.events.publish(trx, 'message.updated', { messageId: m.id, conversationId: m.conversationId, clientId, status: m.status }, { kind: 'customer' });
    }
  }

  /** Messenger's watermarks: everything sent to the contact up to `watermark` reached `status`. */
  async recordWatermark(channel: Channel, contactExternalId: string, status: 'delivered' | 'read', watermark: Date): Promise<number> {
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await this.#messages.updateStatusUpTo(trx, channel.id, contactExternalId, this.#statusChanges(status), watermark, RANK[status]);
      await this.#publishUpdated(trx, channel.clientId, updated);
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

  /**
   * A resolved conversation's satisfaction survey (docs/satisfaction.md): the survey and its
   * request — a system message carrying it — in one round trip, once per resolution and only while
   * the conversation is still resolved (null otherwise: not sent). A pending survey of an earlier
   * resolution expires. Refused like any message on a disabled channel or a closed window.
   */
  async requestSatisfaction(conversationId: string, text: string, survey: SurveyRequest, options: Pick<SendOptions, 'completeJob'> = {}): Promise<Message | null> {
    return this.#send(conversationId, { text, senderType: 'system', senderId: null }, { kind: 'system' }, { ...options, survey }, null);
  }

  async #send(
    conversationId: string,
    input: SendInput,
    performedBy: PerformedBy,
    options: SendOptions & { survey?: SurveyRequest },
    replyTo: string | null,
  ): Promise<Message | null> {
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
      survey: options.survey
        ? { resolvedAt: options.survey.resolvedAt.toISOString(), question: options.survey.question, expiresAt: options.survey.expiresAt.toISOString() }
        : null,
      ...this.deps.events.publishContext,
    };
    let result: Awaited<ReturnType<MessagingRepository['sendMessage']>>;
    try {
      result = await this.#messages.sendMessage(storableJson(payload));
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
    await this.#messages.setConversationSummary(storableJson(payload));
  }

  /**
   * The AI agent's away reply (outside business hours) puts an active conversation on hold:
   * status `pending`, with its event. A conversation in any other state keeps it.
   */
  async markAway(conversation: { conversationId: string; clientId: string }, performedBy: PerformedBy, at: Date = this.deps.clock.now()): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await this.#messages.holdActive(trx, conversation.conversationId, at);
      if (row) await this.deps.events.publish(trx, 'conversation.updated', { conversationId: conversation.conversationId, clientId: conversation.clientId, status: row.status }, performedBy);
    });
  }

  /** Whether the AI agent sent a reply of this decision (its `ai.decision`) in the conversation since `since`. */
  async aiDecidedSince(conversationId: string, decision: AiMessageInfo['decision'], since: Date): Promise<boolean> {
    return this.#messages.aiDecidedSince(conversationId, decision, since);
  }

  /**
   * Handed to people (the AI agent's hand-off): the conversation is escalated, handled by a
   * person and at high priority, and so is the message that caused it; its event is published.
   * `reason` (why the agent handed it over) is recorded as the conversation's escalation reason,
   * and as the priority's reason where the hand-off is what made it high.
   * `alsoInTransaction` runs in the same transaction (telling the staff), so a hand-off is never
   * recorded without its notifications, nor the reverse.
   */
  async escalate(
    conversation: { conversationId: string; clientId: string; messageId: string; reason?: string | null },
    performedBy: PerformedBy,
    alsoInTransaction?: (trx: Db) => Promise<void>,
    at: Date = this.deps.clock.now(),
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await this.#messages.escalate(trx, conversation.conversationId, conversation.messageId, at, conversation.reason ?? null);
      const ids = { conversationId: conversation.conversationId, clientId: conversation.clientId };
      await this.deps.events.publishMany(trx, [
        { name: 'conversation.updated', payload: { ...ids, status: row.status }, performedBy },
        { name: 'conversation.escalated', payload: { ...ids, reason: handOffReason(conversation.reason ?? null) }, performedBy },
      ]);
      if (alsoInTransaction) await alsoInTransaction(trx);
    });
  }

  /**
   * The name a customer gave (the website widget's "your name"): their contact is created with it,
   * or renamed, before they write.
   */
  async nameContact(channel: { id: string; clientId: string }, externalId: string, name: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const contact = await this.#contacts.upsertName(trx, channel, externalId, name, now);
      if (contact.inserted) {
        await this.deps.events.publish(trx, 'contact.created', { contactId: contact.id, clientId: channel.clientId, channelId: channel.id }, { kind: 'customer' });
      }
    });
  }

  /** A contact's ids, for the profile job. */
  async findContact(contactId: string): Promise<{ id: string; channelId: string; externalId: string; name: string | null } | undefined> {
    return this.#contacts.findById(contactId);
  }

  /**
   * A contact's name and picture from the platform's profile. A name already there (from the
   * platform or a person) stays; the picture is refreshed. Its conversation's `conversation.updated`
   * makes the lists show the name at once. Resolves true when something changed.
   */
  async setContactProfile(contactId: string, profile: ContactProfile): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await this.#contacts.updateProfile(trx, contactId, profile, now);
      if (!updated) return false;
      const conversations = await this.#contacts.conversationsOf(trx, contactId);
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
      const contact = await this.#contacts.findWithChannelKind(trx, contactId);
      if (!contact) throw notFound('Contact');
      const existing = await this.#contacts.findConversationId(trx, contactId);
      if (existing) return existing.id;
      if (!BUSINESS_FIRST_CHANNELS.has(contact.kind)) {
        throw new AppError('CONFLICT', CONVERSATION_MESSAGES.businessCannotStart, { details: { reason: 'business_cannot_start' } });
      }
      const created = await this.#contacts.insertConversation(trx, { clientId: contact.clientId, channelId: contact.channelId, contactId, title: contact.name });
      if (!created) {
        return (await this.#contacts.getConversationId(trx, contactId)).id;
      }
      await this.deps.events.publish(trx, 'conversation.created', { conversationId: created.id, clientId: contact.clientId }, performedBy);
      return created.id;
    });
  }

  /** A failed or unconfirmed (`unknown`) outbound message queued again (a person pressed Retry / Resend). */
  async retryMessage(messageId: string, performedBy: PerformedBy): Promise<Message> {
    return this.deps.db.transaction().execute(async (trx) => {
      const message = await this.#messages.requeue(trx, messageId);
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
    const result = await this.#messages.beginSend(JSON.stringify(payload));
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
    const row = await this.#messages.markOutcomeUnknown(db, messageId, OUTCOME_UNKNOWN_REASON);
    if (completeJob) await this.#messages.completeJob(db, JSON.stringify(completeJob));
    if (!row) return null;
    await this.deps.events.publish(db, 'message.updated', { messageId: row.id, conversationId: row.conversationId, clientId: row.clientId, status: row.status }, { kind: 'system' });
    const about = await this.#messages.outcomeContext(db, row.conversationId);
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
    await this.#messages.recordAttemptError(messageId, error, attempt);
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
    // The event's subscribers' jobs (the public events' outbox) run here, at once, where a slot is free.
    const local = this.deps.queue.reserve(this.deps.events.jobsFor(['message.updated']).map((definition) => ({ definition, n: 1 })));
    const payload = { ...outcome, at: new Date().toISOString(), performedBy: { kind: 'system' }, ...this.deps.events.publishContext, local };
    let claimed: ClaimedRow[];
    try {
      claimed = await this.#messages.finishSend(JSON.stringify(payload));
    } catch (error) {
      this.deps.queue.release(local);
      throw error;
    }
    this.deps.queue.runLocal(local, claimed);
  }

  #statusChanges(status: DeliveryStatus, error?: { code: string; message: string }): StatusChanges {
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
    const { id: contactId, inserted } = await this.#contacts.upsert(
      trx,
      channel,
      { externalId: contact.externalId, name: contact.name ?? null, avatarUrl: contact.avatarUrl ?? null },
      now,
    );
    // As in parley_record_inbound: a new contact the platform did not name gets its profile fetched.
    if (inserted && !contact.name && PROFILE_CHANNELS.has(channel.kind)) await this.deps.queue.enqueue(fetchContactProfileJob, { contactId }, { db: trx });
    if (inserted) await this.deps.events.publish(trx, 'contact.created', { contactId, clientId: channel.clientId, channelId: channel.id }, { kind: 'system' });
    const created = await this.#contacts.insertConversation(trx, { clientId: channel.clientId, channelId: channel.id, contactId, title: contact.name ?? null });
    if (created) return { contactId, conversationId: created.id, conversationCreated: true };
    const existing = await this.#contacts.getConversationId(trx, contactId);
    return { contactId, conversationId: existing.id, conversationCreated: false };
  }
}
