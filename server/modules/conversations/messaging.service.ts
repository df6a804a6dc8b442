/**
 * The messaging core: the one place that writes conversations and messages. Channel adapters,
 * the widget, the custom-platform API and the portal all come through here, so idempotency,
 * status ordering, the 24-hour window and the domain events hold the same way for every channel.
 */
import { sql } from 'kysely';
import { CONVERSATION_MESSAGES } from '../../../common/api/conversations';
import { derivePriority, keywordSummary } from '../../../common/messaging/keyword-rules';
import type { Db } from '../../db/database';
import type { Channel, ChannelKind, Message, MessageMedia, MessageStatus, MessageType, SenderType } from '../../db/schema';
import type { PerformedBy } from '../../events/domain-events';
import type { EventBus } from '../../events/event-bus';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { DeliveryStatus } from '../channels/adapters/channel-adapter';
import { sendMessageJob } from '../channels/send-message.job';

/** Channels where Meta's 24-hour customer-service window applies to free text. */
export const WINDOW_CHANNELS: ReadonlySet<ChannelKind> = new Set(['whatsapp', 'messenger', 'instagram']);
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Channels where a business may write first. */
export const BUSINESS_FIRST_CHANNELS: ReadonlySet<ChannelKind> = new Set(['webchat', 'api']);

const PREVIEW_LENGTH = 200;
/** An echo with no id of ours matches an unsent message of the same text this recently. */
const ECHO_MATCH_WINDOW_MS = 10 * 60_000;

/** Order of delivery statuses; a status only moves forward. */
const STATUS_RANK = sql<number>`case status when 'queued' then 0 when 'sent' then 10 when 'failed' then 15 when 'delivered' then 20 when 'read' then 30 else -1 end`;
const RANK: Record<DeliveryStatus, number> = { sent: 10, failed: 15, delivered: 20, read: 30 };

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
}

export interface MessagingServiceDeps {
  db: Db;
  events: EventBus;
  queue: JobQueue;
  clock: Clock;
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
    return this.deps.db.transaction().execute(async (trx) => {
      const { conversationId, conversationCreated } = await this.#ensureConversation(trx, channel, input.contact);
      const now = this.deps.clock.now();
      const { text, type, externalId, media } = input.message;
      const inserted = await trx
        .insertInto('messages')
        .values({
          conversationId,
          clientId: channel.clientId,
          channelId: channel.id,
          direction: 'inbound',
          senderType: 'customer',
          content: text,
          messageType: type,
          media: media ? JSON.stringify(media) : null,
          status: 'received',
          externalMessageId: externalId,
          priority: derivePriority(text),
          aiSummary: keywordSummary(text),
          createdAt: now,
        })
        .onConflict((oc) => oc.columns(['channelId', 'externalMessageId']).where('externalMessageId', 'is not', null).doNothing())
        .returning(['id', 'priority'])
        .executeTakeFirst();
      if (!inserted) {
        const existing = await trx
          .selectFrom('messages')
          .select('id')
          .where('channelId', '=', channel.id)
          .where('externalMessageId', '=', externalId)
          .executeTakeFirstOrThrow();
        return { created: false, messageId: existing.id, conversationId };
      }
      const conversation = await trx
        .updateTable('conversations')
        .set({
          status: sql`case when status = 'resolved' then 'active' else status end`,
          unreadCount: sql`unread_count + 1`,
          lastMessageAt: now,
          lastMessagePreview: preview(text, type),
          lastInboundAt: now,
          priority: sql`case when ${inserted.priority} = 'high' or priority = 'high' then 'high' when ${inserted.priority} = 'medium' or priority = 'medium' then 'medium' else 'low' end`,
          aiSummary: keywordSummary(text),
          updatedAt: now,
        })
        .where('id', '=', conversationId)
        .returning(['status'])
        .executeTakeFirstOrThrow();
      await this.deps.events.publish(
        trx,
        'message.created',
        { messageId: inserted.id, conversationId, clientId: channel.clientId, channelId: channel.id, direction: 'inbound', senderType: 'customer' },
        performedBy,
      );
      await this.deps.events.publish(
        trx,
        conversationCreated ? 'conversation.created' : 'conversation.updated',
        conversationCreated ? { conversationId, clientId: channel.clientId } : { conversationId, clientId: channel.clientId, status: conversation.status },
        performedBy,
      );
      return { created: true, messageId: inserted.id, conversationId };
    });
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
          createdAt: now,
        })
        .onConflict((oc) => oc.columns(['channelId', 'externalMessageId']).where('externalMessageId', 'is not', null).doNothing())
        .returning('id')
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
          lastMessageAt: now,
          lastMessagePreview: preview(text, type),
          handledBy: 'human',
          firstResponseAt: sql`coalesce(first_response_at, case when last_inbound_at is not null then ${now}::timestamptz end)`,
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
        .where('status', '<>', 'queued')
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
   * Queues a reply on a conversation and its delivery job, in one transaction. Refuses free text
   * outside the 24-hour window on Meta channels, and on a disabled channel.
   */
  async sendMessage(conversationId: string, input: SendInput, performedBy: PerformedBy): Promise<Message> {
    return this.deps.db.transaction().execute(async (trx) => {
      const conversation = await trx
        .selectFrom('conversations')
        .innerJoin('channels', 'channels.id', 'conversations.channelId')
        .select(['conversations.id', 'conversations.clientId', 'conversations.channelId', 'conversations.lastInboundAt', 'conversations.status', 'channels.kind', 'channels.status as channelStatus'])
        .where('conversations.id', '=', conversationId)
        .forUpdate('conversations')
        .executeTakeFirst();
      if (!conversation) throw notFound('Conversation');
      if (conversation.channelStatus !== 'active') {
        throw new AppError('CONFLICT', 'This channel is disabled. Enable it to send messages.', { details: { reason: 'channel_disabled' } });
      }
      const now = this.deps.clock.now();
      if (!this.windowOpen(conversation.kind, conversation.lastInboundAt, now)) {
        throw new AppError('CONFLICT', CONVERSATION_MESSAGES.windowClosed, { details: { reason: 'window_closed' } });
      }
      const message = await trx
        .insertInto('messages')
        .values({
          conversationId,
          clientId: conversation.clientId,
          channelId: conversation.channelId,
          direction: 'outbound',
          senderType: input.senderType,
          senderId: input.senderId,
          content: input.text,
          messageType: 'text',
          status: 'queued',
          aiConfidence: input.aiConfidence ?? null,
          createdAt: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const updated = await trx
        .updateTable('conversations')
        .set({
          lastMessageAt: now,
          lastMessagePreview: preview(input.text, 'text'),
          firstResponseAt: sql`coalesce(first_response_at, case when last_inbound_at is not null then ${now}::timestamptz end)`,
          // A person's reply takes over the conversation.
          ...(input.senderType === 'agent' ? { handledBy: 'human' as const } : {}),
          updatedAt: now,
        })
        .where('id', '=', conversationId)
        .returning('status')
        .executeTakeFirstOrThrow();
      await this.deps.queue.enqueue(sendMessageJob, { messageId: message.id }, { db: trx });
      await this.deps.events.publish(
        trx,
        'message.created',
        {
          messageId: message.id,
          conversationId,
          clientId: conversation.clientId,
          channelId: conversation.channelId,
          direction: 'outbound',
          senderType: input.senderType,
        },
        performedBy,
      );
      await this.deps.events.publish(trx, 'conversation.updated', { conversationId, clientId: conversation.clientId, status: updated.status }, performedBy);
      return message;
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

  /** A failed outbound message queued again (a person pressed Retry). */
  async retryMessage(messageId: string, performedBy: PerformedBy): Promise<Message> {
    return this.deps.db.transaction().execute(async (trx) => {
      const message = await trx
        .updateTable('messages')
        .set({ status: 'queued', errorCode: null, errorMessage: null })
        .where('id', '=', messageId)
        .where('direction', '=', 'outbound')
        .where('status', '=', 'failed')
        .returningAll()
        .executeTakeFirst();
      if (!message) throw new AppError('CONFLICT', 'Only a failed message can be retried', { details: { reason: 'not_failed' } });
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

  /** The send job's outcome: sent (with the platform's id), or failed with the reason. */
  async markSent(messageId: string, externalMessageId: string | null, attempt: number): Promise<void> {
    await this.#finishSend(messageId, {
      status: 'sent',
      externalMessageId: externalMessageId === null ? undefined : sql<string>`coalesce(external_message_id, ${externalMessageId})`,
      sentAt: this.deps.clock.now(),
      attempts: attempt,
      errorCode: null,
      errorMessage: null,
    });
  }

  async markFailed(messageId: string, error: { code: string; message: string }, attempt: number): Promise<void> {
    await this.#finishSend(messageId, { status: 'failed', errorCode: error.code, errorMessage: error.message, attempts: attempt });
  }

  /** A retryable failure: the message stays queued, showing the last error and attempt count. */
  async recordAttemptError(messageId: string, error: { code: string; message: string }, attempt: number): Promise<void> {
    await this.deps.db
      .updateTable('messages')
      .set({ errorCode: error.code, errorMessage: error.message, attempts: attempt })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .execute();
  }

  async #finishSend(
    messageId: string,
    changes: {
      status: 'sent' | 'failed';
      externalMessageId?: ReturnType<typeof sql<string>> | undefined;
      sentAt?: Date;
      attempts: number;
      errorCode: string | null;
      errorMessage: string | null;
    },
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const { externalMessageId, ...rest } = changes;
      const updated = await trx
        .updateTable('messages')
        .set({ ...rest, ...(externalMessageId ? { externalMessageId } : {}) })
        .where('id', '=', messageId)
        .where('status', '=', 'queued')
        .returning(['id', 'conversationId', 'clientId', 'status'])
        .executeTakeFirst();
      if (!updated) return;
      await this.deps.events.publish(
        trx,
        'message.updated',
        { messageId: updated.id, conversationId: updated.conversationId, clientId: updated.clientId, status: updated.status },
        { kind: 'system' },
      );
    });
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

  /** The contact (created or renamed) and its conversation (created or reopened). */
  async #ensureConversation(
    trx: Db,
    channel: Channel,
    contact: InboundMessageInput['contact'],
  ): Promise<{ contactId: string; conversationId: string; conversationCreated: boolean }> {
    const now = this.deps.clock.now();
    const { id: contactId } = await trx
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
      .returning('id')
      .executeTakeFirstOrThrow();
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
