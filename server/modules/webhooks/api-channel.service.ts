/**
 * Custom-platform (API) channel, inbound: a business's own system posts its customers' messages,
 * signed with the channel's secret. The signature is checked on the raw bytes before anything is
 * parsed; an unknown or disabled channel (or a deactivated client's) and a bad, missing or stale
 * signature are refused alike.
 * Accepted messages go through the messaging core, idempotent on the sender's `message.id`.
 */
import type { ApiInboundMessage } from '../../../common/api/channels';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { type ChannelDirectory, type ChannelWithSecrets, checkApiSignature } from '../channels';
import type { MessagingService, RecordResult } from '../messaging';
import type { WebhooksRepository } from './webhooks.repository';

export interface ApiChannelServiceDeps {
  channels: ChannelDirectory;
  deliveries: WebhooksRepository;
  messaging: MessagingService;
  clock: Clock;
}

export interface SignatureHeaders {
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export const API_SIGNATURE_REFUSED = 'Invalid or missing signature';

export class ApiChannelService {
  constructor(private readonly deps: ApiChannelServiceDeps) {}

  /** The channel a correctly signed request is for; refuses everything else the same way. */
  async verify(channelId: string, headers: SignatureHeaders, rawBody: Buffer): Promise<ChannelWithSecrets> {
    const refused = new AppError('UNAUTHENTICATED', API_SIGNATURE_REFUSED);
    // A disabled channel, or one of a deactivated client, is refused like an unknown one.
    const channel = UUID.test(channelId) ? await this.deps.channels.findAccepting({ id: channelId }) : undefined;
    if (!channel || channel.kind !== 'api') throw refused;
    const opened = this.deps.channels.openSecrets(channel);
    const secret = opened.secretValues.signingSecret;
    if (!secret || checkApiSignature(secret, headers, rawBody, this.deps.clock.now()) !== 'valid') throw refused;
    return opened;
  }

  /** Records a verified message (kept raw for audit too); `created: false` for a repeated id. */
  async receive(channel: ChannelWithSecrets, input: ApiInboundMessage, rawBody: Buffer): Promise<RecordResult> {
    const result = await this.deps.messaging.recordInbound(channel, {
      contact: { externalId: input.contact.id, name: input.contact.name ?? null },
      message: {
        externalId: input.message.id,
        type: 'text',
        text: input.message.text,
        // A rating field answers the pending satisfaction survey; without one the text may (parseRating).
        ...(input.message.rating !== undefined ? { rating: { rating: input.message.rating, comment: input.message.comment ?? null } } : {}),
      },
    });
    if (result.created) {
      await this.deps.deliveries.insertProcessed({ provider: 'api', channelIds: [channel.id], body: rawBody.toString('utf8') }, this.deps.clock.now());
    }
    return result;
  }
}
