/**
 * Meta webhooks: the handshake, ingest (verify the signature on the raw bytes, find the channels,
 * store the raw delivery and enqueue its processing — group-committed — before answering), and the
 * processing job (adapter.parse → the messaging core, the only writer of messages).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { Channel } from '../../db/schema';
import type { JobQueue } from '../../jobs/queue';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { MetaChannelAdapter, NormalizedEvent } from '../channels/adapters/channel-adapter';
import type { ChannelsRepository } from '../channels/channels.repository';
import type { MessagingService } from '../conversations/messaging.service';
import { GroupCommit, type GroupCommitOptions } from './group-commit';
import { processInboundJob } from './process-inbound.job';
import { isWellFormedSignature, matchSignature, WebhookSecrets, type WebhookSecretsOptions } from './webhook-secrets';
import type { NewInboundEvent, WebhooksRepository } from './webhooks.repository';

export type MetaKind = MetaChannelAdapter['kind'];

export interface WebhooksServiceDeps {
  db: Db;
  queue: JobQueue;
  channels: ChannelsRepository;
  repository: WebhooksRepository;
  messaging: MessagingService;
  adapters: readonly MetaChannelAdapter[];
  logger: Logger;
  groupCommit?: Partial<GroupCommitOptions>;
  secrets?: WebhookSecretsOptions;
}

export interface HandshakeQuery {
  'hub.mode'?: string | undefined;
  'hub.verify_token'?: string | undefined;
  'hub.challenge'?: string | undefined;
}

/** Errors that retrying cannot fix: invalid data (22xxx) and constraint violations (23xxx). */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/u.test(code);
}

export class WebhooksService {
  readonly secrets: WebhookSecrets;
  readonly #deps: WebhooksServiceDeps;
  readonly #adapters: ReadonlyMap<MetaKind, MetaChannelAdapter>;
  readonly #batcher: GroupCommit<NewInboundEvent>;
  readonly #logger: Logger;

  constructor(deps: WebhooksServiceDeps) {
    this.#deps = deps;
    this.#adapters = new Map(deps.adapters.map((a) => [a.kind, a]));
    this.#logger = deps.logger.child({ component: 'webhooks' });
    this.secrets = new WebhookSecrets(deps.channels, this.#logger, deps.secrets);
    this.#batcher = new GroupCommit((events) => this.#store(events), {
      maxBatch: deps.groupCommit?.maxBatch ?? 500,
      maxInFlight: deps.groupCommit?.maxInFlight ?? 2,
    });
  }

  get kinds(): MetaKind[] {
    return [...this.#adapters.keys()];
  }

  /** Meta's subscription handshake: the challenge when the token is an active channel's, else null. */
  async verifyHandshake(kind: MetaKind, query: HandshakeQuery): Promise<string | null> {
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (query['hub.mode'] !== 'subscribe' || !token || challenge === undefined) return null;
    const channel = await this.#deps.channels.findByVerifyTokenHash(kind, sha256Hex(token));
    return channel ? challenge : null;
  }

  /**
   * Verifies and stores one delivery. Resolves `stored: true` once the raw event and its job are
   * committed; `stored: false` for a verified delivery that concerns no channel of the signing app
   * (answered 200 so Meta does not retry it). Throws UNAUTHENTICATED for a missing or wrong
   * signature — before the body is parsed — and VALIDATION_ERROR for a signed body that is not JSON.
   */
  async ingest(kind: MetaKind, raw: Buffer, signature: string | undefined, log: Pick<Logger, 'warn'> = this.#logger): Promise<{ stored: boolean }> {
    const adapter = this.#adapter(kind);
    let group = matchSignature(raw, signature, await this.secrets.groups(kind));
    // A new channel or a rotated secret: look again once (rate-limited inside reload()).
    if (!group && isWellFormedSignature(signature) && (await this.secrets.reload(kind))) {
      group = matchSignature(raw, signature, await this.secrets.groups(kind));
    }
    if (!group) throw new AppError('UNAUTHENTICATED', 'Missing or invalid X-Hub-Signature-256');

    const text = raw.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new AppError('VALIDATION_ERROR', 'The body is not valid JSON', { cause: error });
    }
    const object = (body as { object?: unknown } | null)?.object;
    if (object !== undefined && object !== adapter.webhookObject) {
      log.warn({ kind, object }, 'webhook delivery for another platform ignored');
      return { stored: false };
    }
    const externalIds = adapter.channelIdsOf(body);
    const channelIds = [...new Set(externalIds.flatMap((id) => group.channels.get(id) ?? []))];
    if (channelIds.length === 0) {
      log.warn({ kind, externalIds: externalIds.slice(0, 10) }, 'webhook delivery for no known channel of the signing app ignored');
      return { stored: false };
    }
    await this.#batcher.add({ provider: kind, channelIds, body: text });
    return { stored: true };
  }

  /** The job: every unprocessed event of the batch, in order; each marked processed (or with its error). */
  async process(eventIds: readonly number[]): Promise<void> {
    const { repository, channels } = this.#deps;
    const events = await repository.findUnprocessed(eventIds);
    if (events.length === 0) return;
    // A batch names few channels (usually one): one lookup each.
    const channelIds = [...new Set(events.flatMap((e) => e.channelIds))];
    const byId = new Map<string, Channel>();
    for (const id of channelIds) {
      const channel = await channels.findById(id);
      if (channel) byId.set(id, channel);
    }
    const counts = { message: 0, status: 0, watermark: 0, ignored: 0 };
    for (const event of events) {
      const errors: string[] = [];
      const adapter = this.#adapters.get(event.provider as MetaKind);
      let parsed: NormalizedEvent[] = [];
      try {
        if (!adapter) throw new Error(`no adapter for ${event.provider}`);
        parsed = adapter.parse(JSON.parse(event.body));
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
      // Only the channels this delivery was verified for, by their external id.
      const owned = new Map<string, Channel>();
      for (const id of event.channelIds) {
        const channel = byId.get(id);
        if (channel?.externalId) owned.set(channel.externalId, channel);
      }
      for (const normalized of parsed) {
        counts[normalized.kind] += 1;
        try {
          await this.#apply(normalized, owned, event.id);
        } catch (error) {
          // Bad data in one item must not block the rest; anything else (the database is away)
          // fails the job, which retries the whole batch — every step is idempotent.
          if (!isDataError(error)) throw error;
          const message = error instanceof Error ? error.message : String(error);
          errors.push(message);
          this.#logger.warn({ err: error, inboundEventId: event.id, event: normalized.kind }, 'an inbound item could not be stored');
        }
      }
      await repository.markProcessed(event.id, errors.length ? errors.join('; ').slice(0, 2000) : null);
    }
    this.#logger.debug({ deliveries: events.length, ...counts }, 'inbound events processed');
  }

  async #apply(event: NormalizedEvent, owned: ReadonlyMap<string, Channel>, inboundEventId: number): Promise<void> {
    if (event.kind === 'ignored') {
      this.#logger.info({ inboundEventId, channelExternalId: event.channelExternalId, reason: event.reason }, 'inbound item ignored');
      return;
    }
    const channel = owned.get(event.channelExternalId);
    if (!channel) {
      this.#logger.info({ inboundEventId, channelExternalId: event.channelExternalId }, 'inbound item for a channel this delivery was not verified for ignored');
      return;
    }
    const { messaging } = this.#deps;
    switch (event.kind) {
      case 'message': {
        const { externalId, type, text, media } = event.message;
        const input = { contact: event.contact, message: { externalId, type, text, ...(media ? { media } : {}) } };
        if (event.echo) await messaging.recordEcho(channel, { ...input, ourMessageId: event.ourMessageId ?? null });
        else await messaging.recordInbound(channel, input);
        return;
      }
      case 'status':
        await messaging.recordStatus(channel, event.externalMessageId, event.status, event.error);
        return;
      case 'watermark':
        await messaging.recordWatermark(channel, event.contactExternalId, event.status, event.watermark);
        return;
      default: {
        const unexpected: never = event;
        throw new Error(`Unknown event ${JSON.stringify(unexpected)}`);
      }
    }
  }

  async #store(events: NewInboundEvent[]): Promise<void> {
    const { db, repository, queue } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const ids = await repository.insertEvents(trx, events);
      await queue.enqueue(processInboundJob, { eventIds: ids }, { db: trx });
    });
  }

  #adapter(kind: MetaKind): MetaChannelAdapter {
    const adapter = this.#adapters.get(kind);
    if (!adapter) throw new AppError('NOT_FOUND', 'Unknown webhook');
    return adapter;
  }
}
