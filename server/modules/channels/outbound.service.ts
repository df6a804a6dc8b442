/**
 * The send job's handler, the same for every channel: load the message, record the attempt, hand
 * it to the channel's adapter, record the outcome. Retryable failures (network, 5xx, 429, the
 * platforms' transient codes) go back to the queue with backoff; permanent ones fail the message
 * at once with the reason a person sees in the thread (and a Retry button).
 *
 * Crashes: the attempt is recorded durably right before the platform call and its result right
 * after (`MessagingService.beginSend` / `markSent`), so only a crash during the call itself leaves
 * the outcome unknown. A job that runs again and finds such an attempt does not repeat it on a
 * channel that cannot deduplicate (WhatsApp, Messenger, Instagram): the message is marked
 * `unknown` and the team is notified, to check and resend. The API channel carries an idempotency
 * key (`X-Parley-Idempotency-Key: <message id>`) and website chat's send calls nothing (the reply
 * reached the visitor through the event its creation published), so those are sent again.
 */
import type { Logger } from 'pino';
import { contactLabel } from '../../../common/messaging/contact-label';
import type { Db } from '../../db/database';
import type { ChannelKind } from '../../db/schema';
import { hintOf, type JobContext, PermanentJobError, RetryLaterError } from '../../jobs/define-job';
import type { MessagingService, SendJobHint, UnknownOutcome } from '../messaging';
import type { NotificationsService } from '../notifications';
import type { UsersService } from '../users';
import { type ChannelAdapter, SendError } from './adapters/channel-adapter';
import type { ChannelsRepository } from './channels.repository';

/**
 * Channels whose sends may be repeated after a crash: the API channel's receiver deduplicates on
 * the idempotency key, and website chat's "send" calls nothing (the widget shows a message once, by id).
 */
export const RESENDABLE_KINDS: readonly ChannelKind[] = ['api', 'webchat'];

const CHANNEL_NAME: Record<ChannelKind, string> = { whatsapp: 'WhatsApp', messenger: 'Messenger', instagram: 'Instagram', webchat: 'website chat', api: 'the API channel' };

export interface OutboundServiceDeps {
  db: Db;
  channels: ChannelsRepository;
  messaging: MessagingService;
  adapters: ReadonlyMap<ChannelKind, ChannelAdapter>;
  /** Tells the team about a send whose outcome is unknown (as the agent's escalation does). */
  notifications: NotificationsService;
  users: UsersService;
  logger: Logger;
}

export class OutboundService {
  constructor(private readonly deps: OutboundServiceDeps) {}

  async deliver(messageId: string, context: JobContext): Promise<void> {
    // Claimed where the reply was queued: the message, channel and recipient come with the job;
    // otherwise the statement that records the attempt returns them.
    const hint = hintOf<SendJobHint>(context);
    const hinted = hint?.message.id === messageId && hint.message.status === 'queued' ? hint : undefined;
    const begun = await this.deps.messaging.beginSend(messageId, context.attempt, { load: hinted === undefined, resendKinds: RESENDABLE_KINDS });
    if (begun.state === 'missing' || begun.state === 'settled') return; // gone, or already sent/failed/resent
    if (begun.state === 'unknown') {
      await this.#outcomeUnknown(messageId, context);
      return;
    }
    const found = hinted ?? begun.found;
    if (!found) throw new Error('parley_begin_send returned no message to send');
    const { message: row, recipient: to, channel: stored } = found;
    if (row.senderType === 'customer') throw new PermanentJobError('A customer message is never sent out');
    if (begun.resent) this.deps.logger.info({ messageId, attempt: context.attempt }, 'sending again after an interrupted attempt (the receiver deduplicates)');

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
          surveyId: row.surveyId ?? null,
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

  /** An interrupted send on a channel that cannot deduplicate: `unknown`, and the team is told. */
  async #outcomeUnknown(messageId: string, context: JobContext): Promise<void> {
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const marked = await this.deps.messaging.markOutcomeUnknown(messageId, trx, context.completion);
      if (marked) await this.#notifyTeam(trx, marked);
      return marked;
    });
    context.completedInline();
    if (outcome) this.deps.logger.warn({ messageId, channel: outcome.kind }, 'a send was interrupted: its outcome is unknown, not sent again');
  }

  async #notifyTeam(trx: Db, outcome: UnknownOutcome): Promise<void> {
    const contact = contactLabel({ name: outcome.contactName, externalId: outcome.contactExternalId }, outcome.kind);
    const excerpt = outcome.content.length > 200 ? `${outcome.content.slice(0, 199)}…` : outcome.content;
    const staff = await this.deps.users.findRecipients({}, trx);
    for (const user of staff) {
      await this.deps.notifications.notify(
        user.id,
        {
          kind: 'message.outcome_unknown',
          title: `Reply not confirmed: ${contact} (${outcome.companyName})`.slice(0, 200),
          body: `Parley was interrupted while sending this reply on ${CHANNEL_NAME[outcome.kind]}; it may not have reached the customer. Check and resend: “${excerpt}”`,
          link: `/conversations?conversation=${outcome.conversationId}`,
        },
        trx,
      );
    }
  }

  /** "typing…" for a contact, where the channel has it; failures are the caller's to log. */
  async sendTyping(input: { channelId: string; contactExternalId: string; inboundExternalId: string | null }): Promise<void> {
    const channel = await this.deps.channels.getWithSecrets(input.channelId);
    const adapter = this.deps.adapters.get(channel.kind);
    if (!adapter?.sendTyping || channel.status !== 'active') return;
    await adapter.sendTyping(channel, { to: input.contactExternalId, replyToExternalId: input.inboundExternalId }, AbortSignal.timeout(5_000));
  }
}
