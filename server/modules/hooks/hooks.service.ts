/**
 * Outbound webhooks (issue 14 §2, §5): subscriptions, the deliveries of public events to them (a
 * signed POST through the guarded client, by a job, retried for a day), their log, auto-disable,
 * the Webhooks page's test and Zapier's REST hooks.
 *
 * Who may do what: every signed-in user works within its scope (scopeFor): admins see and manage
 * every subscription; managers see every subscription and manage those scoped to a client (only
 * admins create, change or delete one that receives every client's events, `client_id` null);
 * client users see and manage their own client's only — another client's subscription or delivery
 * is a 404 — and whatever they create is scoped to their client.
 *
 * Deliveries are at least once: a job is leased, so a crash between the POST and recording its
 * answer sends it again (the receiver dedupes by `X-Parley-Event-Id`); once a delivery succeeded it
 * is never sent again (its row is final and the job's token is gone).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  type CreatedSubscription,
  type createSubscriptionInput,
  type deliveriesQuery,
  type DeliveriesResponse,
  DELIVERY_RETRY_WINDOW_MS,
  DELIVERY_TIMEOUT_MS,
  type DeliveryAttemptView,
  type DeliveryDetail,
  type DeliveryView,
  RESPONSE_EXCERPT_MAX,
  type restHookInput,
  type SubscriptionView,
  type updateSubscriptionInput,
  type webhookTestInput,
  type WebhookTestResult,
} from '../../../common/api/hooks';
import { EVENTS_API_VERSION, installationEventRefusal, isInstallationEvent, type PublicEventEnvelope, type PublicEventType } from '../../../common/api/events';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { PublicEventSink, SinkOutcome, StoredPublicEvent } from '../../events/public-events';
import type { SessionUser } from '../../http/access';
import { type Scope, scopeFor } from '../../http/scope';
import type { JobCompletion } from '../../jobs/define-job';
import type { ClaimedRow, JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { deleteInBatches, RetentionTimer } from '../../lib/retention';
import { randomToken } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import { GuardedHttpError, type GuardedHttp } from '../../lib/guarded-http';
import type { SecretBox } from '../../lib/secret-box';
import { signedHeaders } from '../channels';
import { type RenderedEmail, webhookDisabledEmail } from '../email';
import { deliverWebhookJob } from './deliver-webhook.job';
import {
  type AttemptRow,
  type DeliverJobSpec,
  type DeliveryRow,
  type DeliveryToSend,
  type EventForFanOut,
  type FailingSubscription,
  type FailureRun,
  type FanOutResult,
  HooksRepository,
  type SendTarget,
  type SettleOutcome,
  type SettleResult,
  type SubscriptionRow,
} from './hooks.repository';

export type CreateSubscriptionCommand = z.output<typeof createSubscriptionInput>;
export type UpdateSubscriptionCommand = z.output<typeof updateSubscriptionInput>;
export type DeliveriesQuery = z.output<typeof deliveriesQuery>;
export type WebhookTestCommand = z.output<typeof webhookTestInput>;
export type RestHookCommand = z.output<typeof restHookInput>;

/** The first retry waits this long; each further one doubles it, up to the max (±20 % jitter). */
export const RETRY_BASE_MS = 10_000;
export const RETRY_MAX_DELAY_MS = 60 * 60_000;
/** A failure run must span this long (besides its length) before auto-disable turns a subscription off. */
export const AUTO_DISABLE_MIN_SPAN_MS = 24 * 60 * 60_000;
/** How much of an answer is read: enough for the excerpt. */
const ANSWER_READ_BYTES = 8 * 1024;
const SECRET_PREFIX_LENGTH = 8;
const SAMPLES_LIMIT = 3;
const STAFF: Scope = { clientId: null };
/**
 * Slots a batch of events asks for its deliveries' jobs to run here at once (the queue gives at
 * most the free ones of the job's own `localSlots`).
 */
const LOCAL_DELIVERIES_PER_EVENT = 32;
/** The most outcomes one settle statement records. */
const SETTLE_BATCH_MAX = 500;

/**
 * What a deliver job claimed where its delivery was inserted is handed in memory (`ctx.hint`):
 * everything its send needs, so it reads nothing before the POST.
 */
export interface DeliveryHint {
  token: string;
  delivery: DeliveryToSend;
  subscription: SendTarget;
}

/** The hint of one locally claimed job, from the fan-out's answer and the events in memory. */
function deliveryHint(row: ClaimedRow, result: FanOutResult, events: ReadonlyMap<string, EventForFanOut>): DeliveryHint | undefined {
  const payload = row.payload as { deliveryId?: string; token?: string };
  if (!payload.deliveryId || !payload.token) return undefined;
  const stored = result.deliveries[payload.deliveryId];
  const subscription = stored && result.subscriptions[stored.subscriptionId];
  const event = stored && events.get(stored.eventId);
  if (!stored || !subscription || !event) return undefined;
  return {
    token: payload.token,
    delivery: {
      id: payload.deliveryId,
      eventId: event.id,
      eventType: event.type,
      conversationId: event.conversationId,
      seq: event.conversationId === null ? null : event.seq,
      body: event.body,
      attempts: 0,
      firstAttemptAt: null,
    },
    subscription: { id: stored.subscriptionId, ...subscription },
  };
}

/**
 * Recent public events of a type that a scope may see, and the documented example (the events
 * module's EventsService.recent and common/api/event-examples.ts, wired in app.ts).
 */
export interface RecentEvents {
  recent(type: PublicEventType, scope: Scope, limit: number): Promise<PublicEventEnvelope[]>;
  example(type: PublicEventType): PublicEventEnvelope;
}

/** Someone told that a subscription was turned off (UsersService.findRecipients). */
export interface AlertRecipient {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: { emailNotifications: boolean };
}

/** The notifications, e-mail and users modules, as auto-disable uses them (wired in app.ts). */
export interface HooksAlerts {
  /** Admins and managers and, with a client, that client's users. */
  recipients(clientId: string | null, trx: Db): Promise<AlertRecipient[]>;
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, trx: Db): Promise<unknown>;
  email(to: string, email: RenderedEmail, trx: Db): Promise<unknown>;
}

export interface HooksServiceDeps {
  db: Db;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  secretBox: SecretBox;
  /** The guarded client (server/lib/guarded-http.ts): the only way to a subscriber's URL. */
  http: GuardedHttp;
  alerts: HooksAlerts;
  /** Consecutive failed attempts (over at least a day) that turn a subscription off. */
  autoDisableFailures: number;
  publicUrl: string;
  recentEvents?: RecentEvents;
}

const iso = (d: Date | string): string => new Date(d).toISOString();

function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events === null ? 'all' : (row.events as SubscriptionView['events']),
    client_id: row.clientId,
    client_name: row.clientName,
    status: row.status,
    disabled_reason: row.disabledReason,
    source: row.source,
    created_by: row.createdBy,
    created_at: iso(row.createdAt),
    last_triggered: row.lastTriggeredAt ? iso(row.lastTriggeredAt) : null,
    total_calls: Number(row.totalCalls),
    success_count: Number(row.successCount),
    failure_count: Number(row.failureCount),
    consecutive_failures: row.consecutiveFailures,
    secret_prefix: row.secretPrefix,
  };
}

function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt ? iso(row.nextAttemptAt) : null,
    last_status: row.lastStatus,
    last_error: row.lastError,
    created_at: iso(row.createdAt),
    finished_at: row.finishedAt ? iso(row.finishedAt) : null,
    redelivery_of: row.redeliveryOf,
  };
}

function toAttemptView(row: AttemptRow): DeliveryAttemptView {
  return {
    id: row.id,
    attempted_at: iso(row.attemptedAt),
    request_headers: row.requestHeaders,
    request_body: row.requestBody,
    response_status: row.responseStatus,
    response_excerpt: row.responseExcerpt,
    error: row.error,
    duration_ms: row.durationMs,
  };
}

/** `Retry-After` in seconds or as an HTTP date, as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,10}$/u.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** The wait before retry number `attempt` (1 = the first retry): exponential, capped, ±20 % jitter. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const raw = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.max(1_000, Math.round(raw + raw * 0.2 * (random() * 2 - 1)));
}

function describeError(error: unknown): string {
  if (error instanceof GuardedHttpError) {
    switch (error.kind) {
      case 'refused':
        return error.message;
      case 'timeout':
        return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} seconds`;
      case 'aborted':
      case 'too_large':
      case 'network':
        return `Could not reach the URL (${error.reason})`;
    }
  }
  return `Could not reach the URL (${error instanceof Error ? error.message : String(error)})`;
}

interface AttemptResult {
  headers: Record<string, string>;
  status: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  /** 2xx. */
  ok: boolean;
  /** Worth trying again: network errors, timeouts, 408, 429, 5xx. */
  retryable: boolean;
  retryAfterMs: number | null;
}

/** Finished deliveries (and their attempts) are kept this long in the log (docs/webhooks.md, Retention). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;

export class HooksService {
  readonly #repository: HooksRepository;
  readonly #logger: Logger;
  readonly #retention: RetentionTimer;
  #spec: DeliverJobSpec | undefined;
  /** Outcomes waiting for the next settle statement, and whether one is scheduled or in flight. */
  #toSettle: { outcome: SettleOutcome; resolve: (result: SettleResult) => void; reject: (error: unknown) => void }[] = [];
  #settleScheduled = false;
  #settling = false;

  constructor(private readonly deps: HooksServiceDeps) {
    this.#repository = new HooksRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'hooks' });
    this.#retention = new RetentionTimer(() => this.prune(), this.#logger, 'pruning old webhook deliveries failed');
  }

  // Retention

  /**
   * Deletes the deliveries that finished (succeeded or failed) more than DELIVERY_RETENTION_MS ago,
   * with their attempts; deliveries still waiting stay whatever their age. Resolves with how many went.
   */
  async prune(now: Date = this.deps.clock.now()): Promise<number> {
    const before = new Date(now.getTime() - DELIVERY_RETENTION_MS);
    return deleteInBatches((limit) => this.#repository.deleteFinishedBefore(before, limit));
  }

  /** Prunes now and every hour (every instance that runs jobs may; deleting is idempotent). */
  startRetention(): void {
    this.#retention.start();
  }

  /**
   * Active subscriptions whose last `minConsecutive` or more delivery attempts all failed (at most
   * `limit`, most failures first): the error alerts' early warning (notifications module), well
   * before auto-disable.
   */
  async findFailingSubscriptions(minConsecutive: number, limit = 100): Promise<FailingSubscription[]> {
    return this.#repository.findFailingSubscriptions(minConsecutive, limit);
  }

  stopRetention(): void {
    this.#retention.stop();
  }

  // Subscriptions

  async listSubscriptions(user: SessionUser): Promise<SubscriptionView[]> {
    return (await this.#repository.listSubscriptions(scopeFor(user))).map(toSubscriptionView);
  }

  async getSubscription(user: SessionUser, id: string): Promise<SubscriptionView> {
    return toSubscriptionView(await this.#visible(user, id));
  }

  async #visible(user: SessionUser, id: string): Promise<SubscriptionRow> {
    const row = await this.#repository.findSubscription(id, scopeFor(user));
    if (!row) throw notFound('Subscription');
    return row;
  }

  /** Visible and changeable by this user: every-client subscriptions are the admins'. */
  async #manageable(user: SessionUser, id: string): Promise<SubscriptionRow> {
    const row = await this.#visible(user, id);
    if (row.clientId === null && user.role !== 'admin') {
      throw new AppError('FORBIDDEN', 'Only administrators can change a subscription that receives every client’s events.');
    }
    return row;
  }

  /** The client a new subscription of this user is scoped to (null: every client, admins only). */
  #clientFor(user: SessionUser, requested: string | null | undefined, field: string): string | null {
    if (user.role === 'client') {
      if (!user.clientId) throw new AppError('FORBIDDEN', 'Your account is not linked to a client.');
      return user.clientId;
    }
    if (requested) return requested;
    if (user.role !== 'admin') {
      const message = 'Only administrators can subscribe to every client’s events: choose a client';
      throw new AppError('VALIDATION_ERROR', message, { fields: { [field]: message } });
    }
    return null;
  }

  /**
   * A subscription of a client receives only that client's events: an installation-wide event
   * (no client's: contact_form.submitted) is refused by name. "all" stays allowed — it means every
   * event the subscription's scope receives.
   */
  #checkClientEvents(clientId: string | null, events: readonly PublicEventType[] | 'all' | undefined, field: string): void {
    if (clientId === null || events === undefined || events === 'all') return;
    const refused = events.find(isInstallationEvent);
    if (refused) {
      const message = installationEventRefusal(refused);
      throw new AppError('VALIDATION_ERROR', message, { fields: { [field]: message } });
    }
  }

  #checkUrl(url: string | undefined, field: string): void {
    if (url === undefined) return;
    const refusal = this.deps.http.checkUrl(url);
    if (refusal) throw new AppError('VALIDATION_ERROR', refusal, { fields: { [field]: refusal } });
  }

  async #withClientCheck<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const e = error as { code?: unknown; constraint?: unknown } | null;
      if (e?.code === '23503' && typeof e.constraint === 'string' && e.constraint.includes('client_id')) {
        throw new AppError('VALIDATION_ERROR', 'Client not found', { fields: { client_id: 'Client not found' }, cause: error });
      }
      throw error;
    }
  }

  #newSecret(): { secret: string; sealed: string; prefix: string } {
    const secret = `whsec_${randomToken()}`;
    return { secret, sealed: this.deps.secretBox.seal(secret), prefix: secret.slice(0, SECRET_PREFIX_LENGTH) };
  }

  async createSubscription(user: SessionUser, input: CreateSubscriptionCommand): Promise<CreatedSubscription> {
    this.#checkUrl(input.url, 'url');
    const clientId = this.#clientFor(user, input.client_id, 'client_id');
    this.#checkClientEvents(clientId, input.events, 'events');
    const { secret, sealed, prefix } = this.#newSecret();
    const id = await this.#withClientCheck(() =>
      this.#repository.insertSubscription({
        name: input.name,
        url: input.url,
        events: input.events === 'all' ? null : [...new Set(input.events)],
        clientId,
        status: input.status,
        source: 'portal',
        createdBy: user.id,
        sealedSecret: sealed,
        secretPrefix: prefix,
      }),
    );
    return { subscription: toSubscriptionView((await this.#repository.findSubscription(id, STAFF))!), signing_secret: secret };
  }

  async updateSubscription(user: SessionUser, id: string, input: UpdateSubscriptionCommand): Promise<SubscriptionView> {
    const current = await this.#manageable(user, id);
    this.#checkUrl(input.url, 'url');
    this.#checkClientEvents(current.clientId, input.events, 'events');
    const events = input.events === undefined ? undefined : input.events === 'all' ? null : [...new Set(input.events)];
    if (!(await this.#repository.updateSubscription(id, { name: input.name, url: input.url, events, status: input.status }, scopeFor(user)))) {
      throw notFound('Subscription');
    }
    return toSubscriptionView((await this.#repository.findSubscription(id, STAFF))!);
  }

  async deleteSubscription(user: SessionUser, id: string): Promise<void> {
    await this.#manageable(user, id);
    if (!(await this.#repository.deleteSubscription(id, scopeFor(user)))) throw notFound('Subscription');
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  async rotateSecret(user: SessionUser, id: string): Promise<CreatedSubscription> {
    await this.#manageable(user, id);
    const { secret, sealed, prefix } = this.#newSecret();
    if (!(await this.#repository.updateSubscription(id, { sealedSecret: sealed, secretPrefix: prefix }, scopeFor(user)))) throw notFound('Subscription');
    return { subscription: toSubscriptionView((await this.#repository.findSubscription(id, STAFF))!), signing_secret: secret };
  }

  // REST hooks (Zapier)

  async createRestHook(user: SessionUser, input: RestHookCommand): Promise<{ id: string }> {
    this.#checkUrl(input.target_url, 'target_url');
    if (user.role === 'manager') {
      throw new AppError('FORBIDDEN', 'A manager’s REST hook would receive every client’s events: only administrators and client users can create one.');
    }
    const clientId = this.#clientFor(user, null, 'target_url');
    this.#checkClientEvents(clientId, [input.event], 'event');
    const { sealed, prefix } = this.#newSecret();
    const id = await this.#repository.insertSubscription({
      name: `REST hook: ${input.event}`,
      url: input.target_url,
      events: [input.event],
      clientId,
      status: 'active',
      source: 'rest_hook',
      createdBy: user.id,
      sealedSecret: sealed,
      secretPrefix: prefix,
    });
    return { id };
  }

  /** Removes a REST hook (a subscription made through POST /api/v1/hooks) the caller may see. */
  async deleteRestHook(user: SessionUser, id: string): Promise<void> {
    const row = await this.#visible(user, id);
    if (row.source !== 'rest_hook') throw notFound('Hook');
    if (!(await this.#repository.deleteSubscription(id, scopeFor(user), 'rest_hook'))) throw notFound('Hook');
  }

  /**
   * Recent real envelopes of this type the caller may see, else the documented example. An
   * installation-wide event's real ones (a visitor's contact message) only for administrators —
   * the contact messages are theirs alone (docs/contact.md); others get the example.
   */
  async samples(user: SessionUser, type: PublicEventType): Promise<PublicEventEnvelope[]> {
    const source = this.deps.recentEvents;
    if (!source) throw new AppError('UNAVAILABLE', 'Event samples are not available yet');
    if (isInstallationEvent(type) && user.role !== 'admin') return [source.example(type)];
    const recent = await source.recent(type, scopeFor(user), SAMPLES_LIMIT);
    return recent.length > 0 ? recent : [source.example(type)];
  }

  // Deliveries log

  async listDeliveries(user: SessionUser, subscriptionId: string, query: DeliveriesQuery): Promise<DeliveriesResponse> {
    await this.#visible(user, subscriptionId);
    const rows = await this.#repository.listDeliveries(subscriptionId, {
      status: query.status,
      event: query.event,
      before: query.before ? new Date(query.before) : undefined,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    return { deliveries: page.map(toDeliveryView), next_before: rows.length > query.limit ? iso(page[page.length - 1]!.createdAt) : null };
  }

  async getDelivery(user: SessionUser, id: string): Promise<DeliveryDetail> {
    const row = await this.#repository.findDelivery(id, scopeFor(user));
    if (!row) throw notFound('Delivery');
    return { ...toDeliveryView(row), attempt_log: (await this.#repository.listAttempts(id)).map(toAttemptView) };
  }

  /** A new delivery of the same event (unordered: it is not held behind the conversation's others). */
  async redeliver(user: SessionUser, id: string): Promise<DeliveryView> {
    const row = await this.#repository.findDelivery(id, scopeFor(user));
    if (!row) throw notFound('Delivery');
    const subscription = await this.#repository.findSubscription(row.subscriptionId, STAFF);
    if (subscription?.status !== 'active') throw new AppError('CONFLICT', 'This subscription is inactive. Activate it before redelivering.');
    const body = await this.#repository.findDeliveryBody(id);
    if (body === undefined) throw notFound('Delivery');
    const token = randomUUID();
    const newId = await this.deps.db.transaction().execute(async (trx) => {
      const inserted = await this.#repository.insertDelivery(
        { subscriptionId: row.subscriptionId, eventId: row.eventId, eventType: row.eventType, body, redeliveryOf: row.id, jobToken: token },
        trx,
      );
      await this.deps.queue.enqueue(deliverWebhookJob, { deliveryId: inserted, token }, { db: trx });
      return inserted;
    });
    return toDeliveryView((await this.#repository.findDelivery(newId, STAFF))!);
  }

  /**
   * "Send test event": a `ping` sent now, in the request, once (no retries), logged like any
   * delivery. It does not count in the subscription's calls, successes or failures.
   */
  async sendTest(user: SessionUser, subscriptionId: string): Promise<DeliveryView> {
    await this.#visible(user, subscriptionId);
    const subscription = await this.#repository.findSubscriptionForDelivery(subscriptionId);
    if (!subscription) throw notFound('Subscription');
    const id = randomUUID();
    const envelope = {
      id,
      type: 'ping',
      created_at: this.deps.clock.now().toISOString(),
      api_version: EVENTS_API_VERSION,
      client_id: subscription.clientId,
      data: { message: `Test event from Parley for the subscription “${subscription.name}”.` },
    };
    const body = JSON.stringify(envelope);
    await this.#repository.insertDeliveryWithId(id, { subscriptionId, eventId: null, eventType: 'ping', body, redeliveryOf: null, jobToken: null });
    const result = await this.#attempt(subscription, { id, eventId: null, eventType: 'ping', body });
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.#repository.settleDelivery(
        id,
        null,
        { status: result.ok ? 'succeeded' : 'failed', attemptedAt: now, nextAttemptAt: null, lastStatus: result.status, lastError: result.error, finishedAt: now, jobToken: null },
        trx,
      );
      await this.#repository.insertAttempt(this.#attemptRecord(id, result, now), trx);
    });
    return toDeliveryView((await this.#repository.findDelivery(id, STAFF))!);
  }

  // The Webhooks page's test form

  /** POSTs the typed body to the URL now, through the guarded client; the real answer, or why there was none. */
  async testUrl(input: WebhookTestCommand): Promise<WebhookTestResult> {
    this.#checkUrl(input.url, 'url');
    const started = performance.now();
    try {
      const answer = await this.deps.http.request(input.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Parley-Webhooks/1' },
        body: input.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxBodyBytes: ANSWER_READ_BYTES,
        oversize: 'truncate',
      });
      return {
        ok: answer.status >= 200 && answer.status < 300,
        status: answer.status,
        duration_ms: Math.round(performance.now() - started),
        response_excerpt: answer.body.toString('utf8').slice(0, RESPONSE_EXCERPT_MAX),
        error: answer.status >= 200 && answer.status < 300 ? null : `HTTP ${answer.status}`,
      };
    } catch (error) {
      if (error instanceof GuardedHttpError && error.kind === 'refused') {
        throw new AppError('VALIDATION_ERROR', error.message, { fields: { url: error.message }, cause: error });
      }
      return { ok: false, status: null, duration_ms: Math.round(performance.now() - started), response_excerpt: null, error: describeError(error) };
    }
  }

  // The outbox's sink

  /**
   * Deliveries (and their jobs) for every active subscription that takes each event, in the
   * events' transaction, in one statement for the whole batch (`parley_hooks_fan_out`). A lane's
   * delivery behind an unfinished earlier one is inserted parked. Up to the free slots of this
   * instance the jobs are inserted already claimed, and run here as soon as the transaction
   * committed (the outcome's `committed`), each handed everything its send needs: no claim, no
   * read. `localJobs: false` inserts them all queued (a caller that does not call the outcome).
   */
  sink(options: { localJobs?: boolean } = {}): PublicEventSink {
    const localJobs = options.localJobs ?? true;
    return {
      interest: 'parley_hooks_interest',
      accept: async (trx: Db, events: readonly StoredPublicEvent[]): Promise<SinkOutcome | undefined> => {
        if (events.length === 0) return undefined;
        const input: EventForFanOut[] = events.map((event) => ({
          id: event.id,
          type: event.type,
          clientId: event.clientId,
          conversationId: event.conversationId,
          seq: event.conversationId === null ? null : event.seq,
          body: JSON.stringify(event.envelope),
        }));
        const { queue } = this.deps;
        const local = localJobs ? queue.reserve([{ definition: deliverWebhookJob, n: events.length * LOCAL_DELIVERIES_PER_EVENT }]) : null;
        let result: FanOutResult;
        try {
          result = await this.#repository.fanOut(trx, input, local, this.#jobSpec());
        } catch (error) {
          queue.release(local);
          throw error;
        }
        if (!local) return undefined;
        const byId = new Map(input.map((event) => [event.id, event]));
        return {
          committed: () => queue.runLocal(local, result.claimed, (row) => deliveryHint(row, result, byId)),
          rolledBack: () => queue.release(local),
        };
      },
    };
  }

  #jobSpec(): DeliverJobSpec {
    return (this.#spec ??= { name: deliverWebhookJob.name, maxAttempts: deliverWebhookJob.maxAttempts ?? 5, channel: this.deps.queue.channel });
  }

  // Delivering (the job)

  /**
   * The deliver job: one attempt, if this job still holds the delivery. With the in-memory `hint`
   * of a job claimed where its delivery was inserted, it sends at once; otherwise one statement
   * reads the delivery and its subscription, checks the order of its lane (parking it behind an
   * unfinished earlier one) and finishes the job when there is nothing to send. The outcome, what
   * follows (retry job, the lane's next, the counters, the catch-up) and the job's completion are
   * one statement shared with the other attempts finishing in the same turn (`#settle`).
   * `completedJob`: the job was completed by those statements (`ctx.completedInline()`).
   * `detach`: the job's `ctx.detach`, called once the POST is done and only the settle is awaited.
   */
  async deliver(
    deliveryId: string,
    token: string,
    job: { signal?: AbortSignal; completion?: JobCompletion; hint?: DeliveryHint; detach?: () => void } = {},
  ): Promise<{ completedJob: boolean }> {
    const { clock } = this.deps;
    const completion = job.completion ?? null;
    let delivery: DeliveryToSend;
    let subscription: SendTarget;
    const hint = job.hint;
    if (hint && hint.delivery.id === deliveryId && hint.token === token) {
      ({ delivery, subscription } = hint);
    } else {
      const begun = await this.#repository.begin(deliveryId, token, clock.now(), completion, this.#jobSpec());
      if (!begun.send) return { completedJob: completion !== null };
      ({ delivery, subscription } = begun);
    }

    const result = await this.#attempt(subscription, delivery, job.signal);
    const now = clock.now();

    if (result.status === 410 && subscription.source === 'rest_hook') {
      // Zapier's way of saying the Zap is gone: the subscription goes, with its log.
      await this.#repository.deleteSubscription(subscription.id, STAFF, 'rest_hook');
      this.#logger.info({ subscriptionId: subscription.id }, 'a REST hook target answered 410 Gone: subscription removed');
      return { completedJob: false };
    }

    const attempts = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ? new Date(delivery.firstAttemptAt) : now;
    let status: 'succeeded' | 'failed' | 'retrying' = result.ok ? 'succeeded' : 'failed';
    let nextAttemptAt: Date | null = null;
    let lastError = result.error;
    if (!result.ok && result.retryable) {
      const delay = result.retryAfterMs ?? retryDelay(attempts);
      const at = new Date(now.getTime() + delay);
      if (at.getTime() <= firstAttemptAt.getTime() + DELIVERY_RETRY_WINDOW_MS) {
        status = 'retrying';
        nextAttemptAt = at;
      } else {
        lastError = `${result.error ?? 'Failed'} (gave up: retried for ${DELIVERY_RETRY_WINDOW_MS / 3_600_000} hours)`;
      }
    }
    const record = this.#attemptRecord(deliveryId, result, now);
    // Waiting for the shared settle statement holds no job slot: other deliveries may start.
    job.detach?.();
    const settled = await this.#settle({
      deliveryId,
      token,
      subscriptionId: subscription.id,
      conversationId: delivery.conversationId,
      seq: delivery.conversationId === null ? null : delivery.seq,
      ok: result.ok,
      status,
      attemptedAt: now.toISOString(),
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
      nextToken: status === 'retrying' ? randomUUID() : null,
      lastStatus: result.status,
      lastError,
      attempt: { headers: record.requestHeaders, status: record.responseStatus, excerpt: record.responseExcerpt, error: record.error, durationMs: record.durationMs },
      completion,
    });
    const run = settled.runs[subscription.id];
    if (!result.ok && run && settled.settled.includes(deliveryId)) await this.#autoDisableIfDue(subscription.id, run, lastError, now);
    return { completedJob: completion !== null };
  }

  /**
   * Records an attempt's outcome together with the others finishing in the same turn of the event
   * loop — and, while a settle is in flight, with those finishing meanwhile: one statement per
   * batch (`parley_hooks_settle`), so under load a delivery costs a fraction of a round trip.
   */
  #settle(outcome: SettleOutcome): Promise<SettleResult> {
    return new Promise<SettleResult>((resolve, reject) => {
      this.#toSettle.push({ outcome, resolve, reject });
      this.#scheduleSettle();
    });
  }

  #scheduleSettle(): void {
    if (this.#settleScheduled || this.#settling || this.#toSettle.length === 0) return;
    this.#settleScheduled = true;
    setImmediate(() => {
      this.#settleScheduled = false;
      void this.#flushSettle();
    });
  }

  async #flushSettle(): Promise<void> {
    this.#settling = true;
    const batch = this.#toSettle.splice(0, SETTLE_BATCH_MAX);
    try {
      const result = await this.#settleWithRetry(batch.map((b) => b.outcome));
      for (const b of batch) b.resolve(result);
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      this.#settling = false;
      this.#scheduleSettle();
    }
  }

  /** A deadlock (another instance's statements on the same rows) is retried: the batch is all or nothing. */
  async #settleWithRetry(outcomes: readonly SettleOutcome[]): Promise<SettleResult> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#repository.settle(outcomes, this.#jobSpec());
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw error;
        this.#logger.warn({ err: error, attempt }, 'settling webhook deliveries hit a deadlock; trying again');
      }
    }
  }

  /**
   * Auto-disable: after `autoDisableFailures` failed attempts in a row spanning at least a day, the
   * subscription turns inactive with the reason, and admins, managers and the owning client's users
   * are told in the app and by e-mail (when they take e-mail notifications). Its own transaction,
   * after the settle that counted the failure, and only when the run says it is due.
   */
  async #autoDisableIfDue(subscriptionId: string, run: FailureRun, lastError: string | null, now: Date): Promise<void> {
    if (run.status !== 'active' || run.failingSince === null) return;
    if (run.consecutiveFailures < this.deps.autoDisableFailures) return;
    const since = new Date(run.failingSince);
    if (now.getTime() - since.getTime() < AUTO_DISABLE_MIN_SPAN_MS) return;
    const reason = `${run.consecutiveFailures} delivery attempts in a row failed since ${since.toISOString()} (last: ${lastError ?? 'unknown error'}).`.slice(0, 500);
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.#repository.disableSubscription(subscriptionId, reason, trx))) return;
      this.#logger.warn({ subscriptionId, failures: run.consecutiveFailures }, 'webhook subscription turned off after repeated failures');
      const link = '/webhooks';
      const recipients = await this.deps.alerts.recipients(run.clientId, trx);
      for (const user of recipients) {
        await this.deps.alerts.notify(
          user.id,
          { kind: 'webhook.disabled', title: `Webhook turned off: ${run.name}`.slice(0, 200), body: reason, link },
          trx,
        );
        if (user.notificationPreferences.emailNotifications) {
          await this.deps.alerts.email(
            user.email,
            webhookDisabledEmail(user.fullName || 'there', { subscriptionName: run.name, url: run.url, reason, link: new URL(link, this.deps.publicUrl).toString() }),
            trx,
          );
        }
      }
    });
  }

  #attemptRecord(deliveryId: string, result: AttemptResult, at: Date) {
    return {
      deliveryId,
      attemptedAt: at,
      requestHeaders: result.headers,
      responseStatus: result.status,
      responseExcerpt: result.excerpt,
      error: result.error?.slice(0, 2000) ?? null,
      durationMs: result.durationMs,
    };
  }

  /** One signed POST of a delivery's body; never throws for what the receiver (or the network) did. */
  async #attempt(
    subscription: SendTarget,
    delivery: { id: string; eventId: string | null; eventType: string; body: string },
    signal?: AbortSignal,
  ): Promise<AttemptResult> {
    const now = this.deps.clock.now();
    const secret = this.deps.secretBox.open(subscription.signingSecret);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Parley-Webhooks/1',
      'x-parley-event-id': delivery.eventId ?? delivery.id,
      'x-parley-event-type': delivery.eventType,
      'x-parley-delivery-id': delivery.id,
      ...signedHeaders(secret, delivery.body, now),
    };
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    try {
      // Redirects are never followed: a 3xx is the answer (and a failure).
      const answer = await this.deps.http.request(subscription.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        signal,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxBodyBytes: ANSWER_READ_BYTES,
        oversize: 'truncate',
      });
      const ok = answer.status >= 200 && answer.status < 300;
      const retryable = answer.status === 408 || answer.status === 429 || answer.status >= 500;
      return {
        headers,
        status: answer.status,
        excerpt: answer.body.toString('utf8').slice(0, RESPONSE_EXCERPT_MAX),
        error: ok ? null : answer.status >= 300 && answer.status < 400 ? `HTTP ${answer.status} (redirects are not followed)` : `HTTP ${answer.status}`,
        durationMs: elapsed(),
        ok,
        retryable,
        retryAfterMs: answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.headers.get('retry-after'), now) : null,
      };
    } catch (error) {
      const refused = error instanceof GuardedHttpError && error.kind === 'refused';
      return { headers, status: null, excerpt: null, error: describeError(error), durationMs: elapsed(), ok: false, retryable: !refused, retryAfterMs: null };
    }
  }
}
