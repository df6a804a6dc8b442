/**
 * The hooks module's tables: webhook_subscriptions, webhook_deliveries, webhook_delivery_attempts.
 * Every read a user makes takes a scope — `{ clientId }` sees that client's subscriptions only (a
 * client user; a subscription without a client is staff-only), `{ clientId: null }` sees all. A
 * delivery (and its attempts) is visible exactly when its subscription is.
 */
import { type Selectable, sql } from 'kysely';
import { type Db, PREPARED } from '../../db/database';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable, WebhookDeliveryStatus, WebhookSubscriptionsTable } from '../../db/schema';
import { json } from '../../db/sql';
import type { Scope } from '../../http/scope';
import type { ClaimedRow, LocalClaim } from '../../jobs/queue';

export type SubscriptionRow = Omit<Selectable<WebhookSubscriptionsTable>, 'signingSecret' | 'failingSince'> & { clientName: string | null };
export type SubscriptionForDelivery = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'body' | 'jobToken' | 'parked'>;
/** An attempt with the body it sent (the delivery's). */
export type AttemptRow = Selectable<WebhookDeliveryAttemptsTable> & { requestBody: string };

const SUBSCRIPTION_COLUMNS = [
  's.id',
  's.name',
  's.url',
  's.events',
  's.clientId',
  'c.companyName as clientName',
  's.status',
  's.disabledReason',
  's.source',
  's.createdBy',
  's.secretPrefix',
  's.lastTriggeredAt',
  's.totalCalls',
  's.successCount',
  's.failureCount',
  's.consecutiveFailures',
  's.createdAt',
  's.updatedAt',
] as const;

const DELIVERY_COLUMNS = [
  'd.id',
  'd.subscriptionId',
  'd.eventId',
  'd.eventType',
  'd.conversationId',
  'd.seq',
  'd.status',
  'd.attempts',
  'd.firstAttemptAt',
  'd.nextAttemptAt',
  'd.lastStatus',
  'd.lastError',
  'd.finishedAt',
  'd.redeliveryOf',
  'd.createdAt',
] as const;

export interface NewSubscription {
  name: string;
  url: string;
  events: string[] | null;
  clientId: string | null;
  status: 'active' | 'inactive';
  source: 'portal' | 'rest_hook';
  createdBy: string | null;
  sealedSecret: string;
  secretPrefix: string;
}

export interface SubscriptionChanges {
  name?: string;
  url?: string;
  events?: string[] | null;
  status?: 'active' | 'inactive';
  sealedSecret?: string;
  secretPrefix?: string;
}

export interface NewDelivery {
  subscriptionId: string;
  eventId: string | null;
  eventType: string;
  body: string;
  redeliveryOf: string | null;
  jobToken: string | null;
}

/** An event offered to the subscriptions (the sink), as `parley_hooks_fan_out` reads it. */
export interface EventForFanOut {
  id: string;
  type: string;
  clientId: string | null;
  conversationId: string | null;
  seq: string | null;
  body: string;
}

/** The deliver job's definition and NOTIFY channel, as the hooks functions insert it (`p_job`). */
export interface DeliverJobSpec {
  name: string;
  maxAttempts: number;
  channel: string;
}

/** What a send needs of a subscription. */
export interface SendTarget {
  id: string;
  url: string;
  /** Sealed with the secrets key (SecretBox). */
  signingSecret: string;
  status: 'active' | 'inactive';
  source: 'portal' | 'rest_hook';
  clientId: string | null;
  name: string;
}

/** What a send needs of a delivery. */
export interface DeliveryToSend {
  id: string;
  eventId: string | null;
  eventType: string;
  conversationId: string | null;
  seq: string | null;
  body: string;
  attempts: number;
  firstAttemptAt: string | null;
}

export interface FanOutResult {
  claimed: ClaimedRow[];
  deliveries: Record<string, { subscriptionId: string; eventId: string }>;
  subscriptions: Record<string, Omit<SendTarget, 'id'>>;
  inserted: number;
  parked: number;
}

export type BeginResult =
  | { send: false; why: 'superseded' | 'inactive' | 'parked' }
  | { send: true; delivery: DeliveryToSend; subscription: SendTarget };

/** One attempt's outcome for `parley_hooks_settle`. */
export interface SettleOutcome {
  deliveryId: string;
  token: string;
  subscriptionId: string;
  conversationId: string | null;
  seq: string | null;
  ok: boolean;
  status: 'succeeded' | 'failed' | 'retrying';
  attemptedAt: string;
  nextAttemptAt: string | null;
  nextToken: string | null;
  lastStatus: number | null;
  lastError: string | null;
  attempt: { headers: Record<string, string>; status: number | null; excerpt: string | null; error: string | null; durationMs: number };
  completion: { id: number; workerId: string } | null;
}

/** A subscription's failure run after a settle (auto-disable reads it). */
export interface FailureRun {
  consecutiveFailures: number;
  failingSince: string | null;
  status: 'active' | 'inactive';
  clientId: string | null;
  name: string;
  url: string;
}

export interface SettleResult {
  settled: string[];
  runs: Record<string, FailureRun>;
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  requestHeaders: Record<string, string>;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryOutcome {
  status: WebhookDeliveryStatus;
  attemptedAt: Date;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  finishedAt: Date | null;
  jobToken: string | null;
}

export class HooksRepository {
  constructor(private readonly db: Db) {}

  /** Up to `limit` deliveries that finished before `before`, oldest first, with their attempts (cascade); resolves with how many. */
  async deleteFinishedBefore(before: Date, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      with gone as (
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries where finished_at is not null and finished_at < ${before} order by finished_at limit ${limit}
        )
        returning 1
      )
      select count(*)::int as n from gone`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  #subscriptions(db: Db, scope: Scope) {
    let q = db.selectFrom('webhookSubscriptions as s').leftJoin('clients as c', 'c.id', 's.clientId').select(SUBSCRIPTION_COLUMNS);
    if (scope.clientId !== null) q = q.where('s.clientId', '=', scope.clientId);
    return q;
  }

  async listSubscriptions(scope: Scope): Promise<SubscriptionRow[]> {
    return this.#subscriptions(this.db, scope).orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').execute();
  }

  async findSubscription(id: string, scope: Scope, db: Db = this.db): Promise<SubscriptionRow | undefined> {
    return this.#subscriptions(db, scope).where('s.id', '=', id).executeTakeFirst();
  }

  /** With the sealed secret and the failure run: for sending and auto-disable. */
  async findSubscriptionForDelivery(id: string, db: Db = this.db, lock = false): Promise<SubscriptionForDelivery | undefined> {
    let q = db.selectFrom('webhookSubscriptions').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insertSubscription(row: NewSubscription): Promise<string> {
    const inserted = await this.db
      .insertInto('webhookSubscriptions')
      .values({
        name: row.name,
        url: row.url,
        events: row.events === null ? null : json(row.events),
        clientId: row.clientId,
        status: row.status,
        source: row.source,
        createdBy: row.createdBy,
        signingSecret: row.sealedSecret,
        secretPrefix: row.secretPrefix,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** Changes the given fields; false when there is no such subscription in the scope. Re-activating clears the auto-disable state. */
  async updateSubscription(id: string, changes: SubscriptionChanges, scope: Scope): Promise<boolean> {
    let q = this.db
      .updateTable('webhookSubscriptions')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.events !== undefined ? { events: changes.events === null ? null : json(changes.events) } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.status === 'active' ? { disabledReason: null, consecutiveFailures: 0, failingSince: null } : {}),
        ...(changes.sealedSecret !== undefined ? { signingSecret: changes.sealedSecret, secretPrefix: changes.secretPrefix ?? '' } : {}),
        updatedAt: sql<Date>`now()`,
      })
      .where('id', '=', id);
    if (scope.clientId !== null) q = q.where('clientId', '=', scope.clientId);
    const result = await q.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async deleteSubscription(id: string, scope: Scope, source?: 'rest_hook', db: Db = this.db): Promise<boolean> {
    let q = db.deleteFrom('webhookSubscriptions').where('id', '=', id);
    if (scope.clientId !== null) q = q.where('clientId', '=', scope.clientId);
    if (source) q = q.where('source', '=', source);
    const result = await q.executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * The deliveries (and jobs) of a batch of events for every active subscription that takes each,
   * parked at insert behind an unfinished earlier delivery of their lane, the jobs claimed by this
   * instance up to `local`'s slots: one statement (`parley_hooks_fan_out`, hooks.sql.ts).
   */
  async fanOut(trx: Db, events: readonly EventForFanOut[], local: LocalClaim | null, job: DeliverJobSpec): Promise<FanOutResult> {
    const { rows } = await sql<{ result: FanOutResult }>`${sql.raw(PREPARED)}select parley_hooks_fan_out(${JSON.stringify(events)}::jsonb, ${
      local ? JSON.stringify(local) : null
    }::jsonb, ${JSON.stringify(job)}::jsonb) as result`.execute(trx);
    if (!rows[0]) throw new Error('parley_hooks_fan_out returned nothing');
    return rows[0].result;
  }

  /** A job's delivery and subscription if it may send now, else the job is done (`parley_hooks_begin`). */
  async begin(deliveryId: string, token: string, now: Date, completion: { id: number; workerId: string } | null, job: DeliverJobSpec): Promise<BeginResult> {
    const { rows } = await sql<{ result: BeginResult }>`${sql.raw(PREPARED)}select parley_hooks_begin(${deliveryId}::uuid, ${token}::uuid, ${now.toISOString()}::timestamptz, ${
      completion ? JSON.stringify(completion) : null
    }::jsonb, ${JSON.stringify(job)}::jsonb) as result`.execute(this.db);
    if (!rows[0]) throw new Error('parley_hooks_begin returned nothing');
    return rows[0].result;
  }

  /** The outcomes of attempts finished together, and what follows each, in one statement (`parley_hooks_settle`). */
  async settle(outcomes: readonly SettleOutcome[], job: DeliverJobSpec): Promise<SettleResult> {
    const { rows } = await sql<{ result: SettleResult }>`${sql.raw(PREPARED)}select parley_hooks_settle(${JSON.stringify(outcomes)}::jsonb, ${JSON.stringify(job)}::jsonb) as result`.execute(
      this.db,
    );
    if (!rows[0]) throw new Error('parley_hooks_settle returned nothing');
    return rows[0].result;
  }

  async insertDelivery(row: NewDelivery, db: Db = this.db): Promise<string> {
    return this.insertDeliveryWithId(undefined, row, db);
  }

  async insertDeliveryWithId(id: string | undefined, row: NewDelivery, db: Db = this.db): Promise<string> {
    const inserted = await db
      .insertInto('webhookDeliveries')
      .values({
        ...(id ? { id } : {}),
        subscriptionId: row.subscriptionId,
        eventId: row.eventId,
        eventType: row.eventType,
        body: row.body,
        redeliveryOf: row.redeliveryOf,
        jobToken: row.jobToken,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** A delivery as a user may see it (through its subscription's scope). */
  async findDelivery(id: string, scope: Scope): Promise<DeliveryRow | undefined> {
    let q = this.db
      .selectFrom('webhookDeliveries as d')
      .innerJoin('webhookSubscriptions as s', 's.id', 'd.subscriptionId')
      .select(DELIVERY_COLUMNS)
      .where('d.id', '=', id);
    if (scope.clientId !== null) q = q.where('s.clientId', '=', scope.clientId);
    return q.executeTakeFirst();
  }

  async findDeliveryBody(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('webhookDeliveries').select('body').where('id', '=', id).executeTakeFirst())?.body;
  }

  async listDeliveries(
    subscriptionId: string,
    filter: { status?: WebhookDeliveryStatus; event?: string; before?: Date; limit: number },
  ): Promise<DeliveryRow[]> {
    let q = this.db.selectFrom('webhookDeliveries as d').select(DELIVERY_COLUMNS).where('d.subscriptionId', '=', subscriptionId);
    if (filter.status) q = q.where('d.status', '=', filter.status);
    if (filter.event) q = q.where('d.eventType', '=', filter.event);
    if (filter.before) q = q.where('d.createdAt', '<', filter.before);
    return q.orderBy('d.createdAt', 'desc').orderBy('d.id', 'desc').limit(filter.limit).execute();
  }

  async listAttempts(deliveryId: string): Promise<AttemptRow[]> {
    return this.db
      .selectFrom('webhookDeliveryAttempts as a')
      .innerJoin('webhookDeliveries as d', 'd.id', 'a.deliveryId')
      .selectAll('a')
      .select('d.body as requestBody')
      .where('a.deliveryId', '=', deliveryId)
      .orderBy('a.attemptedAt', 'asc')
      .orderBy('a.id', 'asc')
      .execute();
  }

  async insertAttempt(attempt: AttemptRecord, trx: Db): Promise<void> {
    await trx
      .insertInto('webhookDeliveryAttempts')
      .values({
        deliveryId: attempt.deliveryId,
        attemptedAt: attempt.attemptedAt,
        requestHeaders: json(attempt.requestHeaders),
        responseStatus: attempt.responseStatus,
        responseExcerpt: attempt.responseExcerpt,
        error: attempt.error,
        durationMs: attempt.durationMs,
      })
      .execute();
  }

  /** Records an attempt's outcome on the delivery, if `token` still holds it; false otherwise. */
  async settleDelivery(id: string, token: string | null, outcome: DeliveryOutcome, trx: Db): Promise<boolean> {
    let q = trx
      .updateTable('webhookDeliveries')
      .set((eb) => ({
        status: outcome.status,
        attempts: eb('attempts', '+', 1),
        firstAttemptAt: sql<Date>`coalesce(first_attempt_at, ${outcome.attemptedAt.toISOString()}::timestamptz)`,
        nextAttemptAt: outcome.nextAttemptAt,
        lastStatus: outcome.lastStatus,
        lastError: outcome.lastError,
        finishedAt: outcome.finishedAt,
        jobToken: outcome.jobToken,
        parked: false,
      }))
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'retrying']);
    q = token === null ? q.where('jobToken', 'is', null) : q.where('jobToken', '=', token);
    const result = await q.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Active subscriptions whose last `minConsecutive` or more delivery attempts all failed, most
   * failures first (the administrators' early error alert, before auto-disable).
   */
  async findFailingSubscriptions(minConsecutive: number, limit: number, db: Db = this.db): Promise<FailingSubscription[]> {
    return db
      .selectFrom('webhookSubscriptions')
      .select(['id', 'name', 'url', 'clientId', 'consecutiveFailures', 'failingSince'])
      .where('status', '=', 'active')
      .where('consecutiveFailures', '>=', minConsecutive)
      .orderBy('consecutiveFailures', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async disableSubscription(id: string, reason: string, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('webhookSubscriptions')
      .set({ status: 'inactive', disabledReason: reason, updatedAt: sql<Date>`now()` })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** A subscription whose endpoint keeps failing (HooksRepository.findFailingSubscriptions). */
export interface FailingSubscription {
  id: string;
  name: string;
  url: string;
  clientId: string | null;
  consecutiveFailures: number;
  failingSince: Date | null;
}
