/**
 * Outbound webhooks over HTTP, on both engines (issue 14 §2, §5, §7): subscriptions (roles,
 * validation, the secret shown once and sealed, tenant isolation), deliveries from the outbox's
 * sink to a loopback receiver (headers, the API channel's signature), the retry schedule (500,
 * 429 with Retry-After, then 200: delivered once), permanent 4xx, the 24-hour window and
 * auto-disable with its notification and e-mail, ordering per conversation, redelivery and the
 * ping, REST hooks (410 removes them), the page's test form, SSRF refusals.
 *
 * The job workers are off: each test runs the queued delivery jobs itself, moving a manual clock
 * instead of sleeping. The events module is not here yet, so events are hand-built
 * StoredPublicEvents given to the sink inside a transaction (the contract is the interface).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_API_VERSION, type PublicEventType } from '../../../common/api/events';
import type { CreatedSubscription, DeliveriesResponse, DeliveryDetail, DeliveryView, SubscriptionView, WebhookTestResult } from '../../../common/api/hooks';
import { exampleEnvelope } from '../../../common/api/event-examples';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { createTestDatabase, ENGINES } from '../../../test/helpers/database';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import type { SinkOutcome, StoredPublicEvent } from '../../events/public-events';
import { ManualClock } from '../../lib/clock';
import { checkApiSignature } from '../channels';
import { pino } from 'pino';
import type { PublicEventEnvelope } from '../../../common/api/events';
import type { Scope } from '../../http/scope';
import { createGuardedHttp } from '../../lib/guarded-http';
import { SecretBox } from '../../lib/secret-box';
import { deliverWebhookJob } from './deliver-webhook.job';
import { HooksService, RETRY_BASE_MS, RETRY_MAX_DELAY_MS, retryAfterMs, retryDelay } from './hooks.service';

let seq = 1000;

function storedEvent(type: PublicEventType, clientId: string | null, conversationId: string | null = null): StoredPublicEvent {
  const id = randomUUID();
  seq += 1;
  return {
    id,
    type,
    seq: String(seq),
    clientId,
    conversationId,
    performedBy: { kind: 'system' },
    envelope: { id, type, created_at: new Date().toISOString(), api_version: EVENTS_API_VERSION, client_id: clientId, data: { marker: id } },
  };
}

/**
 * Commits events through the hooks sink as the events module does: accept in the events'
 * transaction, then the sink's outcome — its locally claimed jobs start once the transaction
 * committed (or their slots are given back after a rollback).
 */
async function commitEvents(app: TestApp, events: readonly StoredPublicEvent[]): Promise<void> {
  let outcome: SinkOutcome | undefined;
  try {
    await app.database.db.transaction().execute(async (trx) => {
      outcome = (await app.services.hooks.sink().accept(trx, events)) ?? undefined;
    });
  } catch (error) {
    outcome?.rolledBack();
    throw error;
  }
  outcome?.committed();
}

describe('retry timing', () => {
  it('reads Retry-After as seconds or an HTTP date, and backs off exponentially with jitter up to an hour', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryDelay(1, () => 0.5)).toBe(RETRY_BASE_MS);
    expect(retryDelay(3, () => 0.5)).toBe(RETRY_BASE_MS * 4);
    expect(retryDelay(1, () => 1)).toBe(RETRY_BASE_MS * 1.2);
    expect(retryDelay(1, () => 0)).toBe(RETRY_BASE_MS * 0.8);
    expect(retryDelay(40, () => 0.5)).toBe(RETRY_MAX_DELAY_MS);
  });
});

interface QueuedJob {
  id: number;
  payload: { deliveryId: string; token: string };
  runAt: Date;
}

describe.each(ENGINES)('outbound webhooks (%s)', (engine) => {
  const clock = new ManualClock(new Date());
  let app: TestApp;
  let receiver: CallbackServer;
  let admin: TestClient;
  let adminId: string;
  let adminEmail: string;
  let manager: TestClient;
  let mineUser: TestClient;
  let mineUserId: string;
  let theirsUser: TestClient;
  let mine: { id: string };
  let theirs: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { clock, startJobs: false, env: { ...ALLOW_LOOPBACK_FAKES, WEBHOOK_AUTO_DISABLE_FAILURES: '3' } });
    receiver = await startCallbackServer();
    ({ client: admin, userId: adminId, email: adminEmail } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
    mine = await createTestClient(app, 'Mine');
    theirs = await createTestClient(app, 'Theirs');
    const m = await signedInClient(app, 'client');
    const t = await signedInClient(app, 'client');
    await app.database.db.updateTable('users').set({ clientId: mine.id }).where('id', '=', m.userId).execute();
    await app.database.db.updateTable('users').set({ clientId: theirs.id }).where('id', '=', t.userId).execute();
    mineUser = m.client;
    mineUserId = m.userId;
    theirsUser = t.client;
  });
  afterAll(async () => {
    await receiver.close();
    await app.destroy();
  });

  async function subscribe(body: Record<string, unknown> = {}, as: TestClient = admin): Promise<CreatedSubscription> {
    const response = await as.post('/api/v1/webhook-subscriptions', { name: 'CRM', url: receiver.url, client_id: mine.id, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function emit(...events: StoredPublicEvent[]): Promise<void> {
    await commitEvents(app, events);
  }

  async function deliveriesOf(subscriptionId: string) {
    return app.database.db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).orderBy('seq').orderBy('createdAt').execute();
  }

  async function queuedJob(deliveryId: string): Promise<QueuedJob | undefined> {
    const rows = await app.database.db
      .selectFrom('jobs')
      .select(['id', 'payload', 'runAt'])
      .where('name', '=', 'hooks.deliver')
      .where('status', '=', 'queued')
      .orderBy('id', 'desc')
      .execute();
    const row = rows.find((r) => (r.payload as { deliveryId?: string }).deliveryId === deliveryId);
    return row ? { id: Number(row.id), payload: row.payload as QueuedJob['payload'], runAt: new Date(row.runAt) } : undefined;
  }

  /** Runs the delivery's queued job as a worker would (at its run time on the manual clock). */
  async function runJob(deliveryId: string): Promise<QueuedJob> {
    const job = await queuedJob(deliveryId);
    if (!job) throw new Error(`no queued job for delivery ${deliveryId}`);
    if (job.runAt.getTime() > clock.now().getTime()) clock.set(job.runAt);
    await app.services.hooks.deliver(job.payload.deliveryId, job.payload.token);
    await app.database.db.updateTable('jobs').set({ status: 'completed' }).where('id', '=', job.id).execute();
    return job;
  }

  describe('subscriptions', () => {
    it('creates with the spec fields, shows the signing secret once and keeps it sealed, and validates with the contract’s messages', async () => {
      const created = await subscribe({ events: ['message.received', 'conversation.escalated'] });
      expect(created.subscription).toMatchObject({
        name: 'CRM',
        url: receiver.url,
        events: ['message.received', 'conversation.escalated'],
        client_id: mine.id,
        client_name: 'Mine',
        status: 'active',
        source: 'portal',
        created_by: adminId,
        last_triggered: null,
        total_calls: 0,
        success_count: 0,
        failure_count: 0,
        consecutive_failures: 0,
        disabled_reason: null,
      });
      expect(created.signing_secret.length).toBeGreaterThan(30);
      expect(created.signing_secret.startsWith(created.subscription.secret_prefix)).toBe(true);
      const read = await admin.get(`/api/v1/webhook-subscriptions/${created.subscription.id}`);
      expect(read.body).not.toContain(created.signing_secret);
      const stored = await app.database.db.selectFrom('webhookSubscriptions').select('signingSecret').where('id', '=', created.subscription.id).executeTakeFirstOrThrow();
      expect(stored.signingSecret).not.toContain(created.signing_secret);

      const missing = await admin.post('/api/v1/webhook-subscriptions', { name: ' ', url: '' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toMatchObject({ name: 'Name is required', url: 'Please enter a webhook URL' });
      const badUrl = await admin.post('/api/v1/webhook-subscriptions', { name: 'n', url: 'ftp://x.example.com' });
      expect(badUrl.json().error.fields).toMatchObject({ url: 'Enter a valid http(s) URL' });
      const noEvents = await admin.post('/api/v1/webhook-subscriptions', { name: 'n', url: 'https://x.example.com', events: [] });
      expect(noEvents.json().error.fields).toMatchObject({ events: 'Choose at least one event' });
      const unknownEvent = await admin.post('/api/v1/webhook-subscriptions', { name: 'n', url: 'https://x.example.com', events: ['message.exploded'] });
      expect(unknownEvent.statusCode).toBe(400);
      const unknownClient = await admin.post('/api/v1/webhook-subscriptions', { name: 'n', url: 'https://x.example.com', client_id: randomUUID() });
      expect(unknownClient.statusCode).toBe(400);
      expect(unknownClient.json().error.fields).toMatchObject({ client_id: 'Client not found' });
      const nothing = await admin.patch(`/api/v1/webhook-subscriptions/${created.subscription.id}`, {});
      expect(nothing.statusCode).toBe(400);
    });

    it('edits, pauses, rotates the secret (shown once, the old one stops signing) and deletes', async () => {
      const { subscription, signing_secret: first } = await subscribe();
      const edited = await admin.patch(`/api/v1/webhook-subscriptions/${subscription.id}`, { name: 'Renamed', events: 'all', status: 'inactive' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<SubscriptionView>()).toMatchObject({ name: 'Renamed', events: 'all', status: 'inactive' });
      const rotated = await admin.post(`/api/v1/webhook-subscriptions/${subscription.id}/rotate-secret`);
      expect(rotated.statusCode).toBe(200);
      const second = rotated.json<CreatedSubscription>().signing_secret;
      expect(second).not.toBe(first);
      await admin.patch(`/api/v1/webhook-subscriptions/${subscription.id}`, { status: 'active' });
      const ping = await admin.post(`/api/v1/webhook-subscriptions/${subscription.id}/test`);
      expect(ping.statusCode).toBe(201);
      const received = receiver.received.at(-1)!;
      const headers = { timestamp: received.headers['x-parley-timestamp'], signature: received.headers['x-parley-signature'] };
      expect(checkApiSignature(second, headers, received.body, clock.now())).toBe('valid');
      expect(checkApiSignature(first, headers, received.body, clock.now())).toBe('mismatch');
      expect((await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`)).statusCode).toBe(204);
      expect((await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}`)).statusCode).toBe(404);
    });

    it('scopes by role: client users only their client’s (404 across clients), always scoped to it; every-client subscriptions are the admins’', async () => {
      const ours = await subscribe({ name: 'Ours' });
      const theirsSub = await subscribe({ name: 'Theirs', client_id: theirs.id });
      const everyone = await subscribe({ name: 'Everyone', client_id: null });
      expect(everyone.subscription.client_id).toBeNull();

      const listed = (await mineUser.get('/api/v1/webhook-subscriptions')).json<{ subscriptions: SubscriptionView[] }>().subscriptions;
      expect(listed.every((s) => s.client_id === mine.id)).toBe(true);
      expect(listed.map((s) => s.id)).toContain(ours.subscription.id);
      const managerList = (await manager.get('/api/v1/webhook-subscriptions')).json<{ subscriptions: SubscriptionView[] }>().subscriptions.map((s) => s.id);
      expect(managerList).toEqual(expect.arrayContaining([ours.subscription.id, theirsSub.subscription.id, everyone.subscription.id]));

      // Another client's subscription, and everything under it, is a 404 for a client user.
      const foreign = theirsSub.subscription.id;
      expect((await mineUser.get(`/api/v1/webhook-subscriptions/${foreign}`)).statusCode).toBe(404);
      expect((await mineUser.patch(`/api/v1/webhook-subscriptions/${foreign}`, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await mineUser.delete(`/api/v1/webhook-subscriptions/${foreign}`)).statusCode).toBe(404);
      expect((await mineUser.post(`/api/v1/webhook-subscriptions/${foreign}/rotate-secret`)).statusCode).toBe(404);
      expect((await mineUser.post(`/api/v1/webhook-subscriptions/${foreign}/test`)).statusCode).toBe(404);
      expect((await mineUser.get(`/api/v1/webhook-subscriptions/${foreign}/deliveries`)).statusCode).toBe(404);
      expect((await mineUser.get(`/api/v1/webhook-subscriptions/${everyone.subscription.id}`)).statusCode).toBe(404);
      await emit(storedEvent('message.received', theirs.id));
      const [theirDelivery] = await deliveriesOf(foreign);
      expect((await mineUser.get(`/api/v1/webhook-deliveries/${theirDelivery!.id}`)).statusCode).toBe(404);
      expect((await mineUser.post(`/api/v1/webhook-deliveries/${theirDelivery!.id}/redeliver`)).statusCode).toBe(404);
      expect((await theirsUser.get(`/api/v1/webhook-deliveries/${theirDelivery!.id}`)).statusCode).toBe(200);

      // A client user's subscription is its client's, whatever it asks for.
      const made = await subscribe({ name: 'Mine by me', client_id: theirs.id }, mineUser);
      expect(made.subscription.client_id).toBe(mine.id);
      const madeNull = await subscribe({ name: 'Mine by me too', client_id: null }, mineUser);
      expect(madeNull.subscription.client_id).toBe(mine.id);

      // Managers manage a client's subscriptions, not every client's.
      const byManager = await manager.post('/api/v1/webhook-subscriptions', { name: 'M', url: receiver.url });
      expect(byManager.statusCode).toBe(400);
      expect(byManager.json().error.fields.client_id).toMatch(/Only administrators/u);
      expect((await manager.patch(`/api/v1/webhook-subscriptions/${ours.subscription.id}`, { name: 'By manager' })).statusCode).toBe(200);
      expect((await manager.patch(`/api/v1/webhook-subscriptions/${everyone.subscription.id}`, { name: 'By manager' })).statusCode).toBe(403);
      for (const id of [ours, theirsSub, everyone, made, madeNull].map((c) => c.subscription.id)) await admin.delete(`/api/v1/webhook-subscriptions/${id}`);
    });

    it('refuses a URL Parley may not call (SSRF) on create, update and the test form, without sending anything', async () => {
      const before = receiver.received.length;
      for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/x']) {
        const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'n', url, client_id: mine.id });
        expect(created.statusCode, url).toBe(400);
        expect(created.json().error.fields.url, url).toMatch(/Refused|not allowed|private|loopback|link-local/iu);
        const tested = await admin.post('/api/v1/webhooks/test', { url, body: '{}' });
        expect(tested.statusCode, url).toBe(400);
        expect(tested.json().error.fields.url).toBeTruthy();
        const hooked = await mineUser.post('/api/v1/hooks', { target_url: url, event: 'message.received' });
        expect(hooked.statusCode, url).toBe(400);
        expect(hooked.json().error.fields.target_url).toBeTruthy();
      }
      const { subscription } = await subscribe();
      const patched = await admin.patch(`/api/v1/webhook-subscriptions/${subscription.id}`, { url: 'http://192.168.1.1/' });
      expect(patched.statusCode).toBe(400);
      expect(receiver.received.length).toBe(before);
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });
  });

  describe('deliveries', () => {
    it('delivers a matching event as the signed envelope with the documented headers, and logs the attempt', async () => {
      const { subscription, signing_secret } = await subscribe({ events: ['message.received'] });
      const event = storedEvent('message.received', mine.id);
      // Not taken: another type, another client's event, and (below) an inactive subscription.
      await emit(event, storedEvent('contact.created', mine.id), storedEvent('message.received', theirs.id));
      const paused = await subscribe({ name: 'Paused', status: 'inactive' });
      await emit(storedEvent('message.received', mine.id));
      expect(await deliveriesOf(paused.subscription.id)).toHaveLength(0);

      const deliveries = await deliveriesOf(subscription.id);
      expect(deliveries.map((d) => d.eventId)).toEqual([event.id, expect.any(String)]);
      const delivery = deliveries[0]!;
      const before = receiver.received.length;
      await runJob(delivery.id);
      expect(receiver.received.length).toBe(before + 1);
      const received = receiver.received.at(-1)!;
      expect(JSON.parse(received.body.toString('utf8'))).toEqual(event.envelope);
      expect(received.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Parley-Webhooks/1',
        'x-parley-event-id': event.id,
        'x-parley-event-type': 'message.received',
        'x-parley-delivery-id': delivery.id,
      });
      expect(
        checkApiSignature(signing_secret, { timestamp: received.headers['x-parley-timestamp'], signature: received.headers['x-parley-signature'] }, received.body, clock.now()),
      ).toBe('valid');

      const detail = (await admin.get(`/api/v1/webhook-deliveries/${delivery.id}`)).json<DeliveryDetail>();
      expect(detail).toMatchObject({ status: 'succeeded', attempts: 1, last_status: 200, event_type: 'message.received', event_id: event.id, redelivery_of: null });
      expect(detail.attempt_log).toHaveLength(1);
      expect(detail.attempt_log[0]).toMatchObject({ response_status: 200, response_excerpt: '{"ok":true}', error: null, request_body: received.body.toString('utf8') });
      expect(detail.attempt_log[0]!.request_headers['x-parley-signature']).toBe(received.headers['x-parley-signature']);
      const after = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}`)).json<SubscriptionView>();
      expect(after).toMatchObject({ total_calls: 1, success_count: 1, failure_count: 0, consecutive_failures: 0 });
      expect(after.last_triggered).not.toBeNull();
      for (const id of [subscription.id, paused.subscription.id]) await admin.delete(`/api/v1/webhook-subscriptions/${id}`);
    });

    it('retries 500 with backoff and 429 after its Retry-After, then delivers once', async () => {
      const { subscription } = await subscribe();
      await emit(storedEvent('conversation.created', mine.id));
      const [delivery] = await deliveriesOf(subscription.id);
      const before = receiver.received.length;
      receiver.script({ status: 500, body: 'boom' }, { status: 429, headers: { 'retry-after': '120' } }, { status: 200, body: 'thanks' });

      const first = await runJob(delivery!.id);
      let view = (await admin.get(`/api/v1/webhook-deliveries/${delivery!.id}`)).json<DeliveryDetail>();
      expect(view).toMatchObject({ status: 'retrying', attempts: 1, last_status: 500 });
      const second = (await queuedJob(delivery!.id))!;
      const firstWait = second.runAt.getTime() - clock.now().getTime();
      expect(firstWait).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8 - 1);
      expect(firstWait).toBeLessThanOrEqual(RETRY_BASE_MS * 1.2 + 1);
      expect(second.payload.token).not.toBe(first.payload.token);

      await runJob(delivery!.id);
      view = (await admin.get(`/api/v1/webhook-deliveries/${delivery!.id}`)).json<DeliveryDetail>();
      expect(view).toMatchObject({ status: 'retrying', attempts: 2, last_status: 429 });
      const third = (await queuedJob(delivery!.id))!;
      expect(third.runAt.getTime() - clock.now().getTime()).toBe(120_000);
      expect(view.next_attempt_at).toBe(third.runAt.toISOString());

      await runJob(delivery!.id);
      view = (await admin.get(`/api/v1/webhook-deliveries/${delivery!.id}`)).json<DeliveryDetail>();
      expect(view).toMatchObject({ status: 'succeeded', attempts: 3, last_status: 200, next_attempt_at: null });
      expect(view.attempt_log.map((a) => a.response_status)).toEqual([500, 429, 200]);
      expect(await queuedJob(delivery!.id)).toBeUndefined();

      // A job that runs again (a crash before it was marked done) or an old one sends nothing.
      for (const job of [first, second, third]) await app.services.hooks.deliver(job.payload.deliveryId, job.payload.token);
      expect(receiver.received.length - before).toBe(3);
      const sub = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}`)).json<SubscriptionView>();
      expect(sub).toMatchObject({ total_calls: 3, success_count: 1, failure_count: 2, consecutive_failures: 0 });
      receiver.script({ status: 200, body: '{"ok":true}' });
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });

    it('fails a permanent 4xx at once, without retrying', async () => {
      const { subscription } = await subscribe();
      await emit(storedEvent('contact.created', mine.id));
      const [delivery] = await deliveriesOf(subscription.id);
      receiver.script({ status: 422, body: '{"error":"no"}' }, { status: 200 });
      const before = receiver.received.length;
      await runJob(delivery!.id);
      const view = (await admin.get(`/api/v1/webhook-deliveries/${delivery!.id}`)).json<DeliveryDetail>();
      expect(view).toMatchObject({ status: 'failed', attempts: 1, last_status: 422, last_error: 'HTTP 422' });
      expect(view.finished_at).not.toBeNull();
      expect(await queuedJob(delivery!.id)).toBeUndefined();
      expect(receiver.received.length - before).toBe(1);
      receiver.script({ status: 200, body: '{"ok":true}' });
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });

    it('gives up after 24 hours, and turns a subscription off after repeated failures over a day, telling admins and the client’s users', async () => {
      const { subscription } = await subscribe({ name: 'Flaky CRM' });
      await emit(storedEvent('message.received', mine.id));
      const [delivery] = await deliveriesOf(subscription.id);
      receiver.script({ status: 503, body: 'down' });
      // Three failures within minutes: the run is long enough (3) but not a day old.
      for (let i = 0; i < 3; i += 1) await runJob(delivery!.id);
      let sub = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}`)).json<SubscriptionView>();
      expect(sub).toMatchObject({ status: 'active', consecutive_failures: 3 });

      // A day later the next attempt fails too: the delivery gives up and the subscription turns off.
      clock.advance(24 * 60 * 60_000);
      await runJob(delivery!.id);
      const view = (await admin.get(`/api/v1/webhook-deliveries/${delivery!.id}`)).json<DeliveryDetail>();
      expect(view).toMatchObject({ status: 'failed', attempts: 4, last_status: 503 });
      expect(view.last_error).toMatch(/gave up/u);
      expect(await queuedJob(delivery!.id)).toBeUndefined();
      sub = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}`)).json<SubscriptionView>();
      expect(sub.status).toBe('inactive');
      expect(sub.disabled_reason).toMatch(/4 delivery attempts in a row failed/u);

      for (const userId of [adminId, mineUserId]) {
        const notes = await app.database.db.selectFrom('notifications').selectAll().where('userId', '=', userId).where('kind', '=', 'webhook.disabled').execute();
        expect(notes.map((n) => n.title), userId).toContain('Webhook turned off: Flaky CRM');
      }
      const email = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', adminEmail).where('kind', '=', 'webhook-disabled').executeTakeFirst();
      expect(email?.subject).toBe('Webhook turned off: Flaky CRM');

      // New events are not delivered to it; activating it again clears the run.
      await emit(storedEvent('message.received', mine.id));
      expect(await deliveriesOf(subscription.id)).toHaveLength(1);
      const reactivated = (await admin.patch(`/api/v1/webhook-subscriptions/${subscription.id}`, { status: 'active' })).json<SubscriptionView>();
      expect(reactivated).toMatchObject({ status: 'active', disabled_reason: null, consecutive_failures: 0 });
      receiver.script({ status: 200, body: '{"ok":true}' });
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });

    it('keeps the event order per conversation: a delivery waits while an earlier one of the same conversation is retrying', async () => {
      const { subscription } = await subscribe();
      const conversation = randomUUID();
      const e1 = storedEvent('message.received', mine.id, conversation);
      const e2 = storedEvent('message.sent', mine.id, conversation);
      const loose = storedEvent('contact.created', mine.id);
      await emit(e1);
      await emit(e2, loose);
      const deliveries = await deliveriesOf(subscription.id);
      const d1 = deliveries.find((d) => d.eventId === e1.id)!;
      const d2 = deliveries.find((d) => d.eventId === e2.id)!;
      const d3 = deliveries.find((d) => d.eventId === loose.id)!;
      const before = receiver.received.length;
      const sentIds = () => receiver.received.slice(before).map((r) => r.headers['x-parley-event-id']);

      // Committed while the earlier one is pending: parked at insert, without a token or a job.
      expect(d2).toMatchObject({ parked: true, jobToken: null, status: 'pending' });
      expect(await queuedJob(d2.id)).toBeUndefined();
      // A job that holds it anyway (as one queued before this check existed, or a stray one) runs
      // first: the run-time check parks it again (nothing sent, no job left for it).
      const stray = randomUUID();
      await app.database.db.updateTable('webhookDeliveries').set({ parked: false, jobToken: stray }).where('id', '=', d2.id).execute();
      await app.queue.enqueue(deliverWebhookJob, { deliveryId: d2.id, token: stray });
      await runJob(d2.id);
      expect(sentIds()).toEqual([]);
      expect(await queuedJob(d2.id)).toBeUndefined();
      expect(await app.database.db.selectFrom('webhookDeliveries').select(['parked', 'jobToken']).where('id', '=', d2.id).executeTakeFirst()).toEqual({ parked: true, jobToken: null });

      receiver.script({ status: 500 }, { status: 200, body: 'ok' });
      await runJob(d1.id);
      expect(sentIds()).toEqual([e1.id]);
      expect(await queuedJob(d2.id)).toBeUndefined();
      // An event without a conversation is not held up.
      await runJob(d3.id);
      expect(sentIds()).toEqual([e1.id, loose.id]);

      await runJob(d1.id); // the retry succeeds, which hands the next one its job
      await runJob(d2.id);
      expect(sentIds()).toEqual([e1.id, loose.id, e1.id, e2.id]);
      const statuses = (await deliveriesOf(subscription.id)).map((d) => d.status);
      expect(statuses).toEqual(['succeeded', 'succeeded', 'succeeded']);
      receiver.script({ status: 200, body: '{"ok":true}' });
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });

    it('redelivers an event as a new delivery, sends a ping test event now, and filters and pages the log', async () => {
      const { subscription } = await subscribe();
      const event = storedEvent('lead.qualified', mine.id);
      await emit(event);
      const [original] = await deliveriesOf(subscription.id);
      await runJob(original!.id);

      const redelivered = await mineUser.post(`/api/v1/webhook-deliveries/${original!.id}/redeliver`);
      expect(redelivered.statusCode, redelivered.body).toBe(201);
      const again = redelivered.json<DeliveryView>();
      expect(again).toMatchObject({ redelivery_of: original!.id, event_id: event.id, status: 'pending', event_type: 'lead.qualified' });
      await runJob(again.id);
      expect(receiver.received.at(-1)!.headers['x-parley-event-id']).toBe(event.id);
      expect(receiver.received.at(-1)!.headers['x-parley-delivery-id']).toBe(again.id);

      clock.advance(1_000);
      const ping = await mineUser.post(`/api/v1/webhook-subscriptions/${subscription.id}/test`);
      expect(ping.statusCode, ping.body).toBe(201);
      expect(ping.json<DeliveryView>()).toMatchObject({ event_type: 'ping', status: 'succeeded', attempts: 1, last_status: 200, event_id: null });
      const body = JSON.parse(receiver.received.at(-1)!.body.toString('utf8')) as Record<string, unknown>;
      expect(body).toMatchObject({ type: 'ping', api_version: EVENTS_API_VERSION, client_id: mine.id, data: { message: expect.any(String) } });
      expect(receiver.received.at(-1)!.headers['x-parley-event-type']).toBe('ping');

      const pings = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}/deliveries?event=ping`)).json<DeliveriesResponse>();
      expect(pings.deliveries.map((d) => d.event_type)).toEqual(['ping']);
      const succeeded = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}/deliveries?status=succeeded`)).json<DeliveriesResponse>();
      expect(succeeded.deliveries).toHaveLength(3);
      const page1 = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}/deliveries?limit=2`)).json<DeliveriesResponse>();
      expect(page1.deliveries).toHaveLength(2);
      expect(page1.next_before).not.toBeNull();
      const page2 = (await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}/deliveries?limit=2&before=${encodeURIComponent(page1.next_before!)}`)).json<DeliveriesResponse>();
      expect(page2.deliveries.map((d) => d.id)).not.toContain(page1.deliveries[0]!.id);
      expect(page2.next_before).toBeNull();
      expect((await admin.get(`/api/v1/webhook-subscriptions/${subscription.id}/deliveries?status=lost`)).statusCode).toBe(400);
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });
  });

  describe('retention', () => {
    it('deletes deliveries that finished more than 30 days ago with their attempts, and keeps newer and waiting ones', async () => {
      const { subscription } = await subscribe();
      await emit(storedEvent('conversation.created', mine.id), storedEvent('conversation.created', mine.id), storedEvent('conversation.created', mine.id));
      const [old, recent, waiting] = await deliveriesOf(subscription.id);
      await runJob(old!.id);
      await runJob(recent!.id);
      const day = 24 * 60 * 60_000;
      const ago = (days: number) => new Date(clock.now().getTime() - days * day);
      const db = app.database.db;
      await db.updateTable('webhookDeliveries').set({ finishedAt: ago(31) }).where('id', '=', old!.id).execute();
      await db.updateTable('webhookDeliveries').set({ finishedAt: ago(29) }).where('id', '=', recent!.id).execute();
      // Still waiting after 40 days (its subscription kept failing): never pruned while it may be sent.
      await sql`update webhook_deliveries set created_at = ${ago(40)} where id = ${waiting!.id}`.execute(db);
      expect(await db.selectFrom('webhookDeliveryAttempts').select('id').where('deliveryId', '=', old!.id).execute()).toHaveLength(1);

      expect(await app.services.hooks.prune(clock.now())).toBe(1);
      expect((await deliveriesOf(subscription.id)).map((d) => d.id).sort()).toEqual([recent!.id, waiting!.id].sort());
      expect(await db.selectFrom('webhookDeliveryAttempts').select('id').where('deliveryId', '=', old!.id).execute()).toHaveLength(0);
      expect(await db.selectFrom('webhookDeliveryAttempts').select('id').where('deliveryId', '=', recent!.id).execute()).toHaveLength(1);
      expect((await admin.get(`/api/v1/webhook-deliveries/${old!.id}`)).statusCode).toBe(404);
      // Pruning again finds nothing.
      expect(await app.services.hooks.prune(clock.now())).toBe(0);
      await admin.delete(`/api/v1/webhook-subscriptions/${subscription.id}`);
    });
  });

  describe('REST hooks and the test form', () => {
    it('subscribes and unsubscribes a REST hook, and a 410 Gone from its target removes it', async () => {
      const created = await mineUser.post('/api/v1/hooks', { target_url: receiver.url, event: 'conversation.escalated' });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: string }>();
      const view = (await mineUser.get(`/api/v1/webhook-subscriptions/${id}`)).json<SubscriptionView>();
      expect(view).toMatchObject({ source: 'rest_hook', client_id: mine.id, events: ['conversation.escalated'], status: 'active' });
      expect((await manager.post('/api/v1/hooks', { target_url: receiver.url, event: 'message.received' })).statusCode).toBe(403);
      expect((await mineUser.post('/api/v1/hooks', { target_url: receiver.url, event: 'nope' })).statusCode).toBe(400);

      await emit(storedEvent('conversation.escalated', mine.id));
      const [delivery] = await deliveriesOf(id);
      receiver.script({ status: 410 });
      await runJob(delivery!.id);
      expect((await mineUser.get(`/api/v1/webhook-subscriptions/${id}`)).statusCode).toBe(404);
      receiver.script({ status: 200, body: '{"ok":true}' });

      // A portal subscription answering 410 is only a failed delivery.
      const portal = await subscribe();
      await emit(storedEvent('contact.created', mine.id));
      const [portalDelivery] = await deliveriesOf(portal.subscription.id);
      receiver.script({ status: 410 });
      await runJob(portalDelivery!.id);
      expect((await admin.get(`/api/v1/webhook-subscriptions/${portal.subscription.id}`)).statusCode).toBe(200);
      receiver.script({ status: 200, body: '{"ok":true}' });

      const second = (await mineUser.post('/api/v1/hooks', { target_url: receiver.url, event: 'message.received' })).json<{ id: string }>();
      expect((await theirsUser.delete(`/api/v1/hooks/${second.id}`)).statusCode).toBe(404);
      expect((await mineUser.delete(`/api/v1/hooks/${portal.subscription.id}`)).statusCode).toBe(404);
      expect((await mineUser.delete(`/api/v1/hooks/${second.id}`)).statusCode).toBe(204);
      expect((await mineUser.get(`/api/v1/webhook-subscriptions/${second.id}`)).statusCode).toBe(404);
      // No real message.received of this client in the outbox yet: the sample step answers the documented example.
      const samples = (await mineUser.get('/api/v1/hooks/samples/message.received')).json<PublicEventEnvelope[]>();
      expect(samples).toEqual([exampleEnvelope('message.received')]);
      expect((await mineUser.get('/api/v1/hooks/samples/unknown.event')).statusCode).toBe(400);
      await admin.delete(`/api/v1/webhook-subscriptions/${portal.subscription.id}`);
    });

    it('REST hook samples: the recent envelopes the caller’s scope may see, else the documented example', async () => {
      const asked: { type: string; scope: Scope; limit: number }[] = [];
      const recent: PublicEventEnvelope[] = [storedEvent('message.received', mine.id).envelope];
      const example = storedEvent('message.received', null).envelope;
      const service = new HooksService({
        db: app.database.db,
        queue: app.queue,
        clock,
        logger: pino({ level: 'silent' }),
        secretBox: new SecretBox(Buffer.alloc(32, 7)),
        http: createGuardedHttp(),
        alerts: { recipients: () => Promise.resolve([]), notify: () => Promise.resolve(), email: () => Promise.resolve() },
        autoDisableFailures: 3,
        publicUrl: 'http://localhost:3000',
        recentEvents: {
          recent: (type, scope, limit) => {
            asked.push({ type, scope, limit });
            return Promise.resolve(scope.clientId === mine.id ? recent : []);
          },
          example: () => example,
        },
      });
      const user = { id: mineUserId, email: 'x@example.com', name: 'X', role: 'client' as const, clientId: mine.id, sessionId: 's', emailVerified: true };
      expect(await service.samples(user, 'message.received')).toEqual(recent);
      expect(asked.at(-1)).toEqual({ type: 'message.received', scope: { clientId: mine.id }, limit: 3 });
      expect(await service.samples({ ...user, role: 'admin', clientId: null }, 'message.received')).toEqual([example]);
      expect(asked.at(-1)!.scope).toEqual({ clientId: null });
    });

    it('the test form POSTs the typed body from the server and reports the real answer, or why there was none', async () => {
      const before = receiver.received.length;
      receiver.script({ status: 202, body: 'accepted!' });
      const body = JSON.stringify({ message: 'Hello', timestamp: new Date().toISOString(), source: 'parley' }, null, 2);
      const ok = await mineUser.post('/api/v1/webhooks/test', { url: receiver.url, body });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<WebhookTestResult>()).toMatchObject({ ok: true, status: 202, response_excerpt: 'accepted!', error: null });
      expect(receiver.received.at(-1)!.body.toString('utf8')).toBe(body);
      receiver.script({ status: 500, body: 'nope' });
      expect((await mineUser.post('/api/v1/webhooks/test', { url: receiver.url, body: '{}' })).json<WebhookTestResult>()).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
      receiver.script({ status: 200, body: '{"ok":true}' });
      expect(receiver.received.length - before).toBe(2);

      const closed = await mineUser.post('/api/v1/webhooks/test', { url: 'http://127.0.0.1:9/nothing', body: '{}' });
      expect(closed.json<WebhookTestResult>()).toMatchObject({ ok: false, status: null, response_excerpt: null });
      expect(closed.json<WebhookTestResult>().error).toMatch(/Could not reach/u);

      const badJson = await mineUser.post('/api/v1/webhooks/test', { url: receiver.url, body: '{not json' });
      expect(badJson.statusCode).toBe(400);
      expect(badJson.json().error.fields).toMatchObject({ body: 'Body must be valid JSON' });
      const noUrl = await mineUser.post('/api/v1/webhooks/test', { url: '', body: '{}' });
      expect(noUrl.json().error.fields).toMatchObject({ url: 'Please enter a webhook URL' });
      expect((await app.client().post('/api/v1/webhooks/test', { url: receiver.url, body: '{}' })).statusCode).toBe(401);
    });

    it('rate-limits the test form per user', async () => {
      const { client: tester } = await signedInClient(app, 'client');
      const statuses: number[] = [];
      for (let i = 0; i < 25; i += 1) statuses.push((await tester.post('/api/v1/webhooks/test', { url: receiver.url, body: 'not json' })).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
      // Another user is not affected.
      expect((await mineUser.post('/api/v1/webhooks/test', { url: receiver.url, body: 'not json' })).statusCode).toBe(400);
    });
  });
});

describe.each(ENGINES)('outbound webhooks through the running job queue (%s)', (engine) => {
  let app: TestApp;
  let receiver: CallbackServer;
  let admin: TestClient;
  let client: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    receiver = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
    client = await createTestClient(app, 'Queue Co');
  });
  afterAll(async () => {
    await receiver.close();
    await app.destroy();
  });

  it('events committed through the sink reach the receiver by the deliver job, each once', async () => {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Live', url: receiver.url, client_id: client.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, signing_secret } = created.json<CreatedSubscription>();
    receiver.script({ status: 200, body: 'ok' });
    const events = [storedEvent('message.received', client.id, randomUUID()), storedEvent('conversation.created', client.id)];
    await commitEvents(app, events);
    const until = Date.now() + 8_000;
    while (receiver.received.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    const ids = receiver.received.map((r) => r.headers['x-parley-event-id']).sort();
    expect(ids).toEqual(events.map((e) => e.id).sort());
    for (const received of receiver.received) {
      expect(
        checkApiSignature(signing_secret, { timestamp: received.headers['x-parley-timestamp'], signature: received.headers['x-parley-signature'] }, received.body, new Date()),
      ).toBe('valid');
    }
    await app.queue.waitForIdle();
    const rows = await app.database.db.selectFrom('webhookDeliveries').select(['status', 'attempts']).where('subscriptionId', '=', subscription.id).execute();
    expect(rows).toEqual([
      { status: 'succeeded', attempts: 1 },
      { status: 'succeeded', attempts: 1 },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(2);
  });
});

describe.each(ENGINES)('outbound webhooks: order per conversation with concurrent workers (%s)', (engine) => {
  it('the events of one conversation arrive in order although eight workers run their jobs at once', async () => {
    const app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    const receiver = await startCallbackServer();
    try {
      const { client: admin } = await signedInClient(app, 'admin');
      const client = await createTestClient(app, 'Order Co');
      const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Ordered', url: receiver.url, client_id: client.id });
      expect(created.statusCode, created.body).toBe(201);
      const conversation = randomUUID();
      const events = Array.from({ length: 12 }, (_, i) => storedEvent(i % 2 ? 'message.sent' : 'message.received', client.id, conversation));
      // Some committed together, some one by one, as the outbox would.
      await commitEvents(app, events.slice(0, 4));
      for (const event of events.slice(4)) await commitEvents(app, [event]);
      const until = Date.now() + 15_000;
      while (receiver.received.length < events.length && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      await app.queue.waitForIdle();
      expect(receiver.received.map((r) => r.headers['x-parley-event-id'])).toEqual(events.map((e) => e.id));
    } finally {
      await receiver.close();
      await app.destroy();
    }
  });
});

describe.each(ENGINES)('outbound webhooks across a restart (%s)', (engine) => {
  it('a delivery committed with its event is sent by the next instance after a stop, once', async () => {
    const database = await createTestDatabase(engine);
    const receiver = await startCallbackServer();
    try {
      // The first instance commits the event (and so the delivery and its job), and stops before any worker ran it.
      const first = await createTestApp(engine, { database, startJobs: false, env: ALLOW_LOOPBACK_FAKES });
      const { client: admin } = await signedInClient(first, 'admin');
      const client = await createTestClient(first, 'Restart Co');
      const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Durable', url: receiver.url, client_id: client.id });
      expect(created.statusCode, created.body).toBe(201);
      const event = storedEvent('conversation.escalated', client.id, randomUUID());
      await commitEvents(first, [event]);
      await first.destroy();
      expect(receiver.received).toHaveLength(0);

      const second = await createTestApp(engine, { database, env: ALLOW_LOOPBACK_FAKES });
      try {
        const until = Date.now() + 8_000;
        while (receiver.received.length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
        await second.queue.waitForIdle();
        await new Promise((r) => setTimeout(r, 200));
        expect(receiver.received.map((r) => r.headers['x-parley-event-id'])).toEqual([event.id]);
      } finally {
        await second.destroy();
      }
    } finally {
      await receiver.close();
      await database.destroy();
    }
  });
});
