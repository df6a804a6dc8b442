/**
 * Meta webhooks: the handshake, ingest (verify the signature on the raw bytes, find the channels,
 * store the raw delivery and enqueue its processing — group-committed — before answering), and the
 * processing job (adapter.parse → the messaging core, the only writer of messages).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { Channel } from '../../db/schema';
import { cleanJson, mightNeedCleaning } from '../../http/json-body';
import type { JobCompletion } from '../../jobs/define-job';
import type { ClaimedRow, JobQueue } from '../../jobs/queue';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { MetaChannelAdapter, NormalizedEvent } from '../channels';
import type { ChannelDirectory } from '../channels';
import type { InboundMessageInput, MessagingService } from '../messaging';
import { DeliveryPressure } from './delivery-pressure';
import { GroupCommit, type GroupCommitOptions } from './group-commit';
import { processInboundJob } from './process-inbound.job';
import { isWellFormedSignature, matchSignature, type SecretGroup, WebhookSecrets, type WebhookSecretsOptions } from './webhook-secrets';
import type { NewInboundEvent, PendingInboundEvent, WebhooksRepository } from './webhooks.repository';

export type MetaKind = MetaChannelAdapter['kind'];

/** Processing yields to the event loop (HTTP answers) between this many raw events. */
const YIELD_EVERY = 25;

/** The stored events a processing job claimed where they were stored gets in memory. */
export type ProcessInboundHint = readonly PendingInboundEvent[];

type Step =
  | { kind: 'inbound'; channel: Channel; items: { eventId: number; input: InboundMessageInput }[] }
  | { kind: 'other'; channel: Channel; eventId: number; event: Exclude<NormalizedEvent, { kind: 'ignored' }> };

export interface WebhooksServiceDeps {
  db: Db;
  queue: JobQueue;
  channels: ChannelDirectory;
  repository: WebhooksRepository;
  messaging: MessagingService;
  adapters: readonly MetaChannelAdapter[];
  logger: Logger;
  groupCommit?: Partial<GroupCommitOptions>;
  secrets?: WebhookSecretsOptions;
  /** The deliveries' pressure, shared with whatever waits on it (the job queue's pause); default its own. */
  pressure?: DeliveryPressure;
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

const STORED = Object.freeze({ stored: true });
const NOT_STORED = Object.freeze({ stored: false });

export class WebhooksService {
  readonly secrets: WebhookSecrets;
  readonly #deps: WebhooksServiceDeps;
  readonly #adapters: ReadonlyMap<MetaKind, MetaChannelAdapter>;
  readonly #batcher: GroupCommit<NewInboundEvent>;
  readonly #logger: Logger;
  readonly #pressure: DeliveryPressure;

  constructor(deps: WebhooksServiceDeps) {
    this.#deps = deps;
    this.#pressure = deps.pressure ?? new DeliveryPressure();
    this.#adapters = new Map(deps.adapters.map((a) => [a.kind, a]));
    this.#logger = deps.logger.child({ component: 'webhooks' });
    this.secrets = new WebhookSecrets(deps.channels, this.#logger, deps.secrets);
    this.#batcher = new GroupCommit((events) => this.#store(events), {
      maxBatch: deps.groupCommit?.maxBatch ?? 500,
      // One commit at a time on both engines: PGlite has one connection, so a second would only
      // queue; on PostgreSQL what arrives during a commit makes the next batch bigger, which costs
      // less CPU per delivery than two smaller commits in parallel (docs/BENCHMARKS.md).
      maxInFlight: deps.groupCommit?.maxInFlight ?? 1,
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
  ingest(kind: MetaKind, raw: Buffer, signature: string | undefined, log: Pick<Logger, 'warn'> = this.#logger): Promise<{ stored: boolean }> {
    // The common case without a turn of the event loop in between: the secrets are in memory and
    // one of them signed the body (a delivery can arrive thousands of times a second).
    // Every failure is reported through the promise (answerDelivery relies on it).
    try {
      const groups = this.secrets.peek(kind);
      const group = groups && matchSignature(raw, signature, groups);
      if (group) return this.#acceptVerified(kind, raw, group, log);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.#ingestAfterLoading(kind, raw, signature, log);
  }

  async #ingestAfterLoading(kind: MetaKind, raw: Buffer, signature: string | undefined, log: Pick<Logger, 'warn'>): Promise<{ stored: boolean }> {
    let group = matchSignature(raw, signature, await this.secrets.groups(kind));
    // A new channel or a rotated secret: look again once (rate-limited inside reload()).
    if (!group && isWellFormedSignature(signature) && (await this.secrets.reload(kind))) {
      group = matchSignature(raw, signature, await this.secrets.groups(kind));
    }
    if (!group) throw new AppError('UNAUTHENTICATED', 'Missing or invalid X-Hub-Signature-256');
    return this.#acceptVerified(kind, raw, group, log);
  }

  /** A verified delivery: parsed, its channels found, stored by the group commit (resolves once committed). */
  #acceptVerified(kind: MetaKind, raw: Buffer, group: SecretGroup, log: Pick<Logger, 'warn'>): Promise<{ stored: boolean }> {
    const adapter = this.#adapter(kind);
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
      return Promise.resolve(NOT_STORED);
    }
    const externalIds = adapter.channelIdsOf(body);
    const channelIds = [...new Set(externalIds.flatMap((id) => group.channels.get(id) ?? []))];
    if (channelIds.length === 0) {
      log.warn({ kind, externalIds: externalIds.slice(0, 10) }, 'webhook delivery for no known channel of the signing app ignored');
      return Promise.resolve(NOT_STORED);
    }
    const pressure = this.#pressure;
    pressure.storing();
    return this.#batcher.add({ provider: kind, channelIds, body: text }).then(
      () => {
        pressure.stored();
        return STORED;
      },
      (error: unknown) => {
        pressure.stored();
        throw error;
      },
    );
  }

  /** Whether processing should wait for accepting to catch up (`DeliveryPressure`); the job queue's pause. */
  underPressure(): boolean {
    return this.#pressure.high();
  }

  /**
   * The job: every unprocessed event of the batch, in order. Runs of customers' messages on one
   * channel are recorded together (one round trip for the run: `MessagingService.
   * recordInboundBatch`); when such a run ends the batch, the same statement marks the raw events
   * processed and completes the job (`completion`; the result says whether it did). Bad data in
   * one item (a constraint or data error) is recorded in its event's `error` and the rest goes on;
   * any other error fails the job, which runs the whole batch again — every step is idempotent.
   */
  async process(eventIds: readonly number[], completion?: JobCompletion, hint?: ProcessInboundHint): Promise<{ completedJob: boolean }> {
    const { repository, messaging } = this.#deps;
    // Run where it was stored, the events come along; otherwise (a retry, another instance) they are read.
    const wanted = new Set(eventIds);
    const events = hint && hint.length === wanted.size && hint.every((e) => wanted.has(e.id)) ? hint : await repository.findUnprocessed(eventIds);
    if (events.length === 0) return { completedJob: false };
    // A batch names few channels (usually one), normally in the webhook secrets' cache already.
    const byId = new Map<string, Channel>();
    for (const event of events) {
      for (const id of event.channelIds) {
        if (byId.has(id)) continue;
        const channel = await this.#channel(event.provider as MetaKind, id);
        if (channel) byId.set(id, channel);
      }
    }

    const counts = { message: 0, status: 0, watermark: 0, ignored: 0 };
    const errors = new Map<number, string[]>();
    const fail = (eventId: number, error: unknown) => {
      errors.set(eventId, [...(errors.get(eventId) ?? []), error instanceof Error ? error.message : String(error)]);
    };
    const steps: Step[] = [];
    for (const [index, event] of events.entries()) {
      // A batch can hold hundreds of deliveries: let waiting requests be answered meanwhile.
      if (index > 0 && index % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      const adapter = this.#adapters.get(event.provider as MetaKind);
      let parsed: NormalizedEvent[] = [];
      try {
        if (!adapter) throw new Error(`no adapter for ${event.provider}`);
        parsed = adapter.parse(parseDelivery(event.body));
      } catch (error) {
        fail(event.id, error);
      }
      // Only the channels this delivery was verified for, by their external id.
      const owned = new Map<string, Channel>();
      for (const id of event.channelIds) {
        const channel = byId.get(id);
        if (channel?.externalId) owned.set(channel.externalId, channel);
      }
      for (const normalized of parsed) {
        counts[normalized.kind] += 1;
        if (normalized.kind === 'ignored') {
          this.#logger.info({ inboundEventId: event.id, channelExternalId: normalized.channelExternalId, reason: normalized.reason }, 'inbound item ignored');
          continue;
        }
        const channel = owned.get(normalized.channelExternalId);
        if (!channel) {
          this.#logger.info({ inboundEventId: event.id, channelExternalId: normalized.channelExternalId }, 'inbound item for a channel this delivery was not verified for ignored');
          continue;
        }
        if (normalized.kind === 'message' && !normalized.echo) {
          const { externalId, type, text, media } = normalized.message;
          const item = { eventId: event.id, input: { contact: normalized.contact, message: { externalId, type, text, ...(media ? { media } : {}) } } };
          const previous = steps.at(-1);
          if (previous?.kind === 'inbound' && previous.channel.id === channel.id) previous.items.push(item);
          else steps.push({ kind: 'inbound', channel, items: [item] });
        } else {
          steps.push({ kind: 'other', channel, eventId: event.id, event: normalized });
        }
      }
    }
    const outcome = () => events.map((e) => ({ id: e.id, error: errors.has(e.id) ? (errors.get(e.id) ?? []).join('; ').slice(0, 2000) : null }));

    let settled = false;
    for (const [index, step] of steps.entries()) {
      if (step.kind === 'other') {
        try {
          await this.#apply(step.event, step.channel);
        } catch (error) {
          if (!isDataError(error)) throw error;
          fail(step.eventId, error);
          this.#logger.warn({ err: error, inboundEventId: step.eventId, event: step.event.kind }, 'an inbound item could not be stored');
        }
        continue;
      }
      const last = index === steps.length - 1;
      try {
        await messaging.recordInboundBatch(
          step.channel,
          step.items.map((i) => i.input),
          last ? { processed: outcome(), ...(completion ? { completeJob: completion } : {}) } : {},
        );
        settled = last;
      } catch (error) {
        if (!isDataError(error)) throw error;
        // One item's bad data fails the whole run: again one by one, to store the rest.
        for (const item of step.items) {
          try {
            await messaging.recordInbound(step.channel, item.input);
          } catch (itemError) {
            if (!isDataError(itemError)) throw itemError;
            fail(item.eventId, itemError);
            this.#logger.warn({ err: itemError, inboundEventId: item.eventId, event: 'message' }, 'an inbound item could not be stored');
          }
        }
      }
    }
    if (!settled) await repository.markProcessed(outcome());
    this.#logger.debug({ deliveries: events.length, ...counts }, 'inbound events processed');
    return { completedJob: settled && completion !== undefined };
  }

  /** From the secrets' cache (active channels, as fresh as the signature check), else the database. */
  async #channel(kind: MetaKind, id: string): Promise<Channel | undefined> {
    const cached = this.#adapters.has(kind) ? await this.secrets.channel(kind, id) : undefined;
    return cached ?? (await this.#deps.channels.findById(id));
  }

  /** An echo, a delivery status or a watermark (customers' messages go in runs, above). */
  async #apply(event: Exclude<NormalizedEvent, { kind: 'ignored' }>, channel: Channel): Promise<void> {
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

  /**
   * The raw events and their processing job (payload: their ids in order), committed as one
   * statement. When a worker slot is free here, the job is inserted claimed and runs at once with
   * the events in memory.
   */
  async #store(events: NewInboundEvent[]): Promise<void> {
    const { repository, queue } = this.#deps;
    const local = queue.reserve([{ definition: processInboundJob, n: 1 }]);
    let stored: Awaited<ReturnType<typeof repository.insertEventsWith<ClaimedRow & { status: string }>>>;
    try {
      stored = await repository.insertEventsWith(
        events,
        (source) => queue.insertJobSql(processInboundJob, source, repository.storedIdsPayload(), local),
        local !== null,
      );
    } catch (error) {
      queue.release(local);
      throw error;
    }
    const hint: ProcessInboundHint | undefined = stored.events ?? undefined;
    queue.runLocal(
      local,
      stored.rows.filter((r) => r.status === 'running'),
      () => hint,
    );
  }

  #adapter(kind: MetaKind): MetaChannelAdapter {
    const adapter = this.#adapters.get(kind);
    if (!adapter) throw new AppError('NOT_FOUND', 'Unknown webhook');
    return adapter;
  }
}

/**
 * A stored delivery's JSON. PostgreSQL text cannot hold U+0000, which JSON can carry (`\u0000`):
 * it is dropped from every string, so a message carrying one is stored without it instead of
 * failing with everything recorded alongside it. A lone surrogate (`\ud800`) becomes U+FFFD for
 * the same reason. Meta's deliveries are signed and acknowledged already; refusing them is not an
 * option, so there is no depth limit either: the walk (json-body.ts) is iterative and the
 * adapters' schemas read only the levels they know.
 */
export function parseDelivery(body: string): unknown {
  const parsed: unknown = JSON.parse(body);
  if (!mightNeedCleaning(body)) return parsed;
  return cleanJson(parsed, { nul: 'strip', maxDepth: Number.POSITIVE_INFINITY }).value;
}
