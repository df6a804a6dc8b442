/**
 * The send job's handler, the same for every channel: load the message, hand it to the channel's
 * adapter, record the outcome. Retryable failures (network, 5xx, 429, the platforms' transient
 * codes) go back to the queue with backoff; permanent ones fail the message at once with the
 * reason a person sees in the thread (and a Retry button).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { Channel, ChannelKind, Message } from '../../db/schema';
import { hintOf, type JobContext, PermanentJobError, RetryLaterError } from '../../jobs/define-job';
import type { MessagingService, SendJobHint } from '../conversations/messaging.service';
import { type ChannelAdapter, SendError } from './adapters/channel-adapter';
import type { ChannelsRepository } from './channels.repository';

export interface OutboundServiceDeps {
  db: Db;
  channels: ChannelsRepository;
  messaging: MessagingService;
  adapters: ReadonlyMap<ChannelKind, ChannelAdapter>;
  logger: Logger;
}

export class OutboundService {
  constructor(private readonly deps: OutboundServiceDeps) {}

  async deliver(messageId: string, context: JobContext): Promise<void> {
    // Claimed where the reply was queued: the message, channel and recipient come with the job.
    const hint = hintOf<SendJobHint>(context);
    const found = hint?.message.id === messageId ? { row: hint.message, to: hint.recipient, stored: hint.channel } : await this.#load(messageId);
    if (!found || found.row.status !== 'queued') return; // gone, or already sent/failed
    const { row, to, stored } = found;
    if (row.senderType === 'customer') throw new PermanentJobError('A customer message is never sent out');

    const channel = this.deps.channels.openSecrets(stored);
    const adapter = this.deps.adapters.get(channel.kind);
    if (!adapter) {
      await this.deps.messaging.markFailed(messageId, { code: 'no_adapter', message: `No ${channel.kind} sender is available` }, context.attempt);
      throw new PermanentJobError(`No adapter for ${channel.kind}`);
    }
    if (channel.status !== 'active') {
      await this.deps.messaging.markFailed(messageId, { code: 'channel_disabled', message: 'The channel was disabled before the message went out' }, context.attempt);
      throw new PermanentJobError('Channel disabled');
    }

    let externalMessageId: string | null;
    try {
      ({ externalMessageId } = await adapter.sendText(
        channel,
        {
          messageId: row.id,
          conversationId: row.conversationId,
          to,
          text: row.content,
          senderType: row.senderType,
          createdAt: row.createdAt,
        },
        context.signal,
      ));
    } catch (error) {
      const failure =
        error instanceof SendError
          ? error
          : new SendError(error instanceof Error ? error.message : String(error), { retryable: true, code: 'network', cause: error });
      const reason = { code: failure.code, message: failure.message };
      const lastAttempt = context.attempt >= context.maxAttempts;
      if (!failure.retryable || lastAttempt) {
        await this.deps.messaging.markFailed(messageId, reason, context.attempt);
        this.deps.logger.warn({ messageId, channel: channel.kind, code: failure.code, attempt: context.attempt }, 'message failed');
        throw new PermanentJobError(failure.message, { cause: failure });
      }
      await this.deps.messaging.recordAttemptError(messageId, reason, context.attempt);
      if (failure.options.retryAfterMs !== undefined) throw new RetryLaterError(failure.message, failure.options.retryAfterMs, { cause: failure });
      throw failure;
    }
    // Outside the try: failing to record a send is not the platform's failure. Recorded and the
    // job completed in one round trip.
    await this.deps.messaging.markSent(messageId, externalMessageId, context.attempt, context.completion);
    context.completedInline();
  }

  /** The message, its recipient and its channel in one query (one round trip on the reply path). */
  async #load(messageId: string): Promise<{ row: Pick<Message, 'id' | 'status' | 'content' | 'senderType' | 'createdAt' | 'conversationId'>; to: string; stored: Channel } | undefined> {
    const found = await this.deps.db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversationId')
      .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
      .innerJoin('channels', 'channels.id', 'messages.channelId')
      .selectAll('channels')
      .select([
        'messages.id as messageId',
        'messages.status as messageStatus',
        'messages.content as messageContent',
        'messages.senderType as messageSenderType',
        'messages.createdAt as messageCreatedAt',
        'messages.conversationId as messageConversationId',
        'contacts.externalId as to',
      ])
      .where('messages.id', '=', messageId)
      .executeTakeFirst();
    if (!found) return undefined;
    const { messageId: id, messageStatus, messageContent, messageSenderType, messageCreatedAt, messageConversationId, to, ...stored } = found;
    return {
      row: { id, status: messageStatus, content: messageContent, senderType: messageSenderType, createdAt: messageCreatedAt, conversationId: messageConversationId },
      to,
      stored,
    };
  }

  /** "typing…" for a contact, where the channel has it; failures are the caller's to log. */
  async sendTyping(input: { channelId: string; contactExternalId: string; inboundExternalId: string | null }): Promise<void> {
    const channel = await this.deps.channels.getWithSecrets(input.channelId);
    const adapter = this.deps.adapters.get(channel.kind);
    if (!adapter?.sendTyping || channel.status !== 'active') return;
    await adapter.sendTyping(channel, { to: input.contactExternalId, replyToExternalId: input.inboundExternalId }, AbortSignal.timeout(5_000));
  }
}
