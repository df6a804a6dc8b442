/**
 * The send job's handler, the same for every channel: load the message, hand it to the channel's
 * adapter, record the outcome. Retryable failures (network, 5xx, 429, the platforms' transient
 * codes) go back to the queue with backoff; permanent ones fail the message at once with the
 * reason a person sees in the thread (and a Retry button).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { ChannelKind } from '../../db/schema';
import { type JobContext, PermanentJobError, RetryLaterError } from '../../jobs/define-job';
import type { MessagingService } from '../conversations/messaging.service';
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
    const row = await this.deps.db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversationId')
      .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
      .select([
        'messages.id',
        'messages.status',
        'messages.content',
        'messages.senderType',
        'messages.createdAt',
        'messages.channelId',
        'messages.conversationId',
        'contacts.externalId as to',
      ])
      .where('messages.id', '=', messageId)
      .executeTakeFirst();
    if (!row || row.status !== 'queued') return; // gone, or already sent/failed
    if (row.senderType === 'customer') throw new PermanentJobError('A customer message is never sent out');

    const channel = await this.deps.channels.getWithSecrets(row.channelId);
    const adapter = this.deps.adapters.get(channel.kind);
    if (!adapter) {
      await this.deps.messaging.markFailed(messageId, { code: 'no_adapter', message: `No ${channel.kind} sender is available` }, context.attempt);
      throw new PermanentJobError(`No adapter for ${channel.kind}`);
    }
    if (channel.status !== 'active') {
      await this.deps.messaging.markFailed(messageId, { code: 'channel_disabled', message: 'The channel was disabled before the message went out' }, context.attempt);
      throw new PermanentJobError('Channel disabled');
    }

    try {
      const { externalMessageId } = await adapter.sendText(
        channel,
        {
          messageId: row.id,
          conversationId: row.conversationId,
          to: row.to,
          text: row.content,
          senderType: row.senderType,
          createdAt: row.createdAt,
        },
        context.signal,
      );
      await this.deps.messaging.markSent(messageId, externalMessageId, context.attempt);
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
  }
}
