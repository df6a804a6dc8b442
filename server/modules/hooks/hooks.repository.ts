/**
 * The hooks module's tables: webhook_subscriptions, webhook_deliveries, webhook_delivery_attempts.
 * Every read a user makes takes a scope — `{ clientId }` sees that client's subscriptions only (a
 * client user; a subscription without a client is staff-only), `{ clientId: null }` sees all. A
 * delivery (and its attempts) is visible exactly when its subscription is.
 */
import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable, WebhookDeliveryStatus, WebhookSubscriptionsTable } from '../../db/schema';
import { json } from '../../db/sql';
import type { Scope } from '../../http/scope';
import type { JobQueue } from '../../jobs/queue';
import { deliverWebhookJob } from './deliver-webhook.job';

export type SubscriptionRow = Omit<Selectable<WebhookSubscriptionsTable>, 'signingSecret' | 'failingSince'> & { clientName: string | null };
export type SubscriptionForDelivery = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'body' | 'jobToken' | 'parked'>;
export type DeliveryForSend = Selectable<WebhookDeliveriesTable>;
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

/** An event offered to the subscriptions (HooksEventSink). */
export interface EventForFanOut {
  id: string;
  type: string;
  clientId: string | null;
  conversationId: string | null;
  seq: string | null;
  body: string;
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
   * One delivery (and its job) per active subscription that takes the event: its type is listed
   * (or it takes all), and it is the event's client's (or every client's). One statement per event.
   */
  async fanOut(trx: Db, queue: JobQueue, event: EventForFanOut): Promise<number> {
    const insertJobs = queue.insertJobSql(deliverWebhookJob, 'stored', sql`jsonb_build_object('deliveryId', stored.id, 'token', stored.job_token)`);
    const result = await sql<{ id: number }>`
      with stored as (
        insert into webhook_deliveries (subscription_id, event_id, event_type, conversation_id, seq, body, job_token)
        select s.id, ${event.id}::uuid, ${event.type}, ${event.conversationId}::uuid,
          case when ${event.conversationId}::uuid is null then null else ${event.seq}::bigint end, ${event.body}, gen_random_uuid()
        from webhook_subscriptions s
        where s.status = 'active'
          and (s.events is null or jsonb_exists(s.events, ${event.type}))
          and (s.client_id is null or s.client_id = ${event.clientId}::uuid)
        returning id, job_token
      )
      ${insertJobs}`.execute(trx);
    return result.rows.length;
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

  async findDeliveryForSend(id: string, db: Db = this.db, lock = false): Promise<DeliveryForSend | undefined> {
    let q = db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
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

  /**
   * True when an earlier delivery of the same (subscription, conversation) is still pending or
   * retrying. Locks those rows: a delivery finishing concurrently is waited for and then no longer
   * counts, so a delivery never parks behind one that has just finished (see `wakeNext`).
   */
  async hasEarlierPending(delivery: Pick<DeliveryForSend, 'id' | 'subscriptionId' | 'conversationId' | 'seq'>, trx: Db): Promise<boolean> {
    if (delivery.conversationId === null || delivery.seq === null) return false;
    const rows = await trx
      .selectFrom('webhookDeliveries')
      .select('id')
      .where('subscriptionId', '=', delivery.subscriptionId)
      .where('conversationId', '=', delivery.conversationId)
      .where('status', 'in', ['pending', 'retrying'])
      .where('seq', '<', delivery.seq)
      .where('id', '!=', delivery.id)
      // Locked in event order, before the caller locks its own (later) row: every transaction of a
      // lane takes its locks lowest seq first, so two of them never wait for each other in a circle.
      .orderBy('seq', 'asc')
      .forUpdate()
      .execute();
    return rows.length > 0;
  }

  /** The delivery waits for an earlier one: no job may send it until `wakeNext` gives it one. */
  async park(id: string, token: string, trx: Db): Promise<boolean> {
    const result = await trx.updateTable('webhookDeliveries').set({ parked: true, jobToken: null }).where('id', '=', id).where('jobToken', '=', token).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * After a delivery of a conversation finished: the earliest still unfinished delivery of the
   * same (subscription, conversation), if it is parked, gets a new token and a job to send it.
   */
  async wakeNext(queue: JobQueue, finished: { subscriptionId: string; conversationId: string | null }, trx: Db): Promise<void> {
    if (finished.conversationId === null) return;
    const next = await trx
      .selectFrom('webhookDeliveries')
      .select(['id', 'parked'])
      .where('subscriptionId', '=', finished.subscriptionId)
      .where('conversationId', '=', finished.conversationId)
      .where('status', 'in', ['pending', 'retrying'])
      .orderBy('seq', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!next?.parked) return;
    const token = randomUUID();
    const woken = await trx.updateTable('webhookDeliveries').set({ parked: false, jobToken: token }).where('id', '=', next.id).where('parked', '=', true).executeTakeFirst();
    if (woken.numUpdatedRows > 0n) await queue.enqueue(deliverWebhookJob, { deliveryId: next.id, token }, { db: trx });
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

  /** A delivery that will not be sent (its subscription is inactive). */
  async abandonDelivery(id: string, token: string, reason: string, at: Date, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('webhookDeliveries')
      .set({ status: 'failed', lastError: reason, finishedAt: at, jobToken: null, parked: false, nextAttemptAt: null })
      .where('id', '=', id)
      .where('jobToken', '=', token)
      .where('status', 'in', ['pending', 'retrying'])
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Counts one attempt on the subscription; returns the failure run after it. */
  async countAttempt(
    subscriptionId: string,
    ok: boolean,
    at: Date,
    trx: Db,
  ): Promise<{ consecutiveFailures: number; failingSince: Date | null; status: 'active' | 'inactive'; clientId: string | null; name: string; url: string } | undefined> {
    return trx
      .updateTable('webhookSubscriptions')
      .set((eb) => ({
        totalCalls: eb('totalCalls', '+', 1),
        lastTriggeredAt: at,
        ...(ok
          ? { successCount: eb('successCount', '+', 1), consecutiveFailures: 0, failingSince: null }
          : {
              failureCount: eb('failureCount', '+', 1),
              consecutiveFailures: eb('consecutiveFailures', '+', 1),
              failingSince: sql<Date>`coalesce(failing_since, ${at.toISOString()}::timestamptz)`,
            }),
      }))
      .where('id', '=', subscriptionId)
      .returning(['consecutiveFailures', 'failingSince', 'status', 'clientId', 'name', 'url'])
      .executeTakeFirst();
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
