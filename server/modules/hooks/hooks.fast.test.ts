/**
 * Outbound webhook deliveries' fast path, on both engines: the set-based fan-out of a batch of
 * events (lane order, parked at insert, woken in order), jobs claimed where their deliveries are
 * inserted and sent with their data in memory, the batched settle (counters exact under many
 * concurrent deliveries) and the catch-up of a subscription's retrying deliveries after a success.
 *
 * Events are committed through the sink as the events module does (accept in the events'
 * transaction, then the outcome it returns), observed through the database and the receivers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_API_VERSION, type PublicEventType } from '../../../common/api/events';
import type { CreatedSubscription } from '../../../common/api/hooks';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import type { SinkOutcome, StoredPublicEvent } from '../../events/public-events';
import { deliverWebhookJob } from './deliver-webhook.job';
import { HooksRepository } from './hooks.repository';

let seq = 5000;

function storedEvent(type: PublicEventType, clientId: string, conversationId: string | null = null): StoredPublicEvent {
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

/** Accept in a transaction; `beforeCommitted` looks at the database after COMMIT and before the outcome starts the local jobs. */
async function commitEvents(app: TestApp, events: readonly StoredPublicEvent[], options: { localJobs?: boolean; beforeCommitted?: () => Promise<void> } = {}) {
  let outcome: SinkOutcome | undefined;
  const sink = app.services.hooks.sink(options.localJobs === undefined ? {} : { localJobs: options.localJobs });
  try {
    await app.database.db.transaction().execute(async (trx) => {
      outcome = (await sink.accept(trx, events)) ?? undefined;
    });
  } catch (error) {
    outcome?.rolledBack();
    throw error;
  }
  await options.beforeCommitted?.();
  outcome?.committed();
  return outcome;
}

/** A receiver that holds every request until `release()` (then answers 200), or answers at once. */
async function startHoldingReceiver() {
  const held: http.ServerResponse[] = [];
  const received: string[] = [];
  let holding = true;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['x-parley-delivery-id']));
      if (holding) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    release() {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
    close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ENGINES)('outbound webhooks, the fast path (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let client: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    ({ client: admin } = await signedInClient(app, 'admin'));
    client = await createTestClient(app, 'Fast Co');
  });
  afterAll(async () => {
    await app.destroy();
  });

  async function subscribe(url: string, name = 'Fast'): Promise<string> {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name, url, client_id: client.id });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<CreatedSubscription>().subscription.id;
  }

  const deliveries = (subscriptionId: string) =>
    app.database.db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).orderBy('seq').orderBy('createdAt').execute();

  const jobOf = async (deliveryId: string) => {
    const rows = await app.database.db
      .selectFrom('jobs')
      .select(['id', 'status', 'attempts', 'lockedBy', 'createdAt', 'updatedAt', 'payload'])
      .where('name', '=', 'hooks.deliver')
      .orderBy('id')
      .execute();
    return rows.filter((r) => (r.payload as { deliveryId?: string }).deliveryId === deliveryId);
  };

  it('fans a batch out in one go: per lane the first delivery gets a job, the later ones are parked, and all arrive in lane order', async () => {
    const receiver = await startCallbackServer();
    try {
      const subscriptionId = await subscribe(receiver.url);
      const [c1, c2] = [randomUUID(), randomUUID()];
      // Interleaved lanes and an unordered event, in one accept.
      const batch = [
        storedEvent('message.received', client.id, c1),
        storedEvent('message.received', client.id, c2),
        storedEvent('message.sent', client.id, c1),
        storedEvent('contact.created', client.id),
        storedEvent('message.sent', client.id, c2),
        storedEvent('conversation.resolved', client.id, c1),
      ];
      await commitEvents(app, batch, {
        beforeCommitted: async () => {
          const rows = await deliveries(subscriptionId);
          const state = new Map(rows.map((d) => [d.eventId, { parked: d.parked, hasToken: d.jobToken !== null }]));
          expect(batch.map((e) => state.get(e.id))).toEqual([
            { parked: false, hasToken: true },
            { parked: false, hasToken: true },
            { parked: true, hasToken: false },
            { parked: false, hasToken: true },
            { parked: true, hasToken: false },
            { parked: true, hasToken: false },
          ]);
          for (const d of rows) expect(await jobOf(d.id), d.eventId!).toHaveLength(d.parked ? 0 : 1);
        },
      });
      // A second batch of lane c1 while the first may still be unfinished: it waits its turn.
      const later = storedEvent('message.received', client.id, c1);
      await commitEvents(app, [later]);
      await until(() => receiver.received.length >= batch.length + 1);
      await app.queue.waitForIdle();
      const order = receiver.received.map((r) => r.headers['x-parley-event-id']);
      const lane = (conversation: string) => order.filter((id) => [...batch, later].find((e) => e.id === id)?.conversationId === conversation);
      expect(lane(c1)).toEqual([batch[0]!.id, batch[2]!.id, batch[5]!.id, later.id]);
      expect(lane(c2)).toEqual([batch[1]!.id, batch[4]!.id]);
      expect(order).toHaveLength(batch.length + 1);
      const rows = await deliveries(subscriptionId);
      expect(rows.map((d) => [d.status, d.attempts, d.parked, d.jobToken])).toEqual(rows.map(() => ['succeeded', 1, false, null]));
      await admin.delete(`/api/v1/webhook-subscriptions/${subscriptionId}`);
    } finally {
      await receiver.close();
    }
  });

  it('runs a delivery’s job where it was inserted, claimed by this instance, without a claim from the table or a read before the POST', async () => {
    const receiver = await startHoldingReceiver();
    try {
      const subscriptionId = await subscribe(receiver.url, 'Local');
      await commitEvents(app, [storedEvent('message.received', client.id, randomUUID())]);
      await until(() => receiver.received.length === 1);
      const [delivery] = await deliveries(subscriptionId);
      // In flight: its job was inserted running, locked by this worker, and never touched since
      // (a claim from the table would have moved updated_at past the insert's created_at).
      const [job] = await jobOf(delivery!.id);
      expect(job).toMatchObject({ status: 'running', attempts: 1 });
      expect(job!.lockedBy).not.toBeNull();
      expect(new Date(job!.updatedAt).getTime()).toBe(new Date(job!.createdAt).getTime());
      receiver.release();
      await until(async () => (await jobOf(delivery!.id))[0]!.status === 'completed');
      expect((await deliveries(subscriptionId))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await jobOf(delivery!.id)).toHaveLength(1);
      await admin.delete(`/api/v1/webhook-subscriptions/${subscriptionId}`);

      // The control: inserted queued, the same job is claimed from the table (updated_at moves).
      const queued = await startHoldingReceiver();
      try {
        const otherId = await subscribe(queued.url, 'Queued');
        await commitEvents(app, [storedEvent('message.received', client.id, randomUUID())], { localJobs: false });
        await until(() => queued.received.length === 1);
        const [other] = await deliveries(otherId);
        const [claimed] = await jobOf(other!.id);
        expect(claimed).toMatchObject({ status: 'running', attempts: 1 });
        expect(new Date(claimed!.updatedAt).getTime()).toBeGreaterThan(new Date(claimed!.createdAt).getTime());
        queued.release();
        await app.queue.waitForIdle();
        await admin.delete(`/api/v1/webhook-subscriptions/${otherId}`);
      } finally {
        await queued.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('settles many concurrent deliveries in batches with exact counters, attempts and retry jobs', async () => {
    const good = await startCallbackServer();
    const bad = await startCallbackServer();
    bad.script({ status: 500, body: 'down' });
    try {
      const okId = await subscribe(good.url, 'Good');
      const failId = await subscribe(bad.url, 'Bad');
      const events = Array.from({ length: 40 }, (_, i) => storedEvent(i % 2 ? 'message.sent' : 'contact.created', client.id));
      // Several batches at once, as concurrent events.record jobs would commit them.
      await Promise.all([0, 10, 20, 30].map((start) => commitEvents(app, events.slice(start, start + 10))));
      await until(() => good.received.length >= 40 && bad.received.length >= 40);
      await until(async () => {
        const rows = await app.database.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('name', '=', 'hooks.deliver')
          .where('status', '=', 'running')
          .executeTakeFirstOrThrow();
        return Number(rows.n) === 0;
      });
      const subs = await app.database.db
        .selectFrom('webhookSubscriptions')
        .select(['id', 'totalCalls', 'successCount', 'failureCount', 'consecutiveFailures', 'failingSince'])
        .where('id', 'in', [okId, failId])
        .execute();
      const ok = subs.find((s) => s.id === okId)!;
      const fail = subs.find((s) => s.id === failId)!;
      expect([Number(ok.totalCalls), Number(ok.successCount), Number(ok.failureCount), ok.consecutiveFailures, ok.failingSince]).toEqual([40, 40, 0, 0, null]);
      expect([Number(fail.totalCalls), Number(fail.successCount), Number(fail.failureCount), fail.consecutiveFailures]).toEqual([40, 0, 40, 40]);
      expect(fail.failingSince).not.toBeNull();
      const failed = await deliveries(failId);
      expect(failed.every((d) => d.status === 'retrying' && d.attempts === 1 && d.jobToken !== null && d.nextAttemptAt !== null)).toBe(true);
      for (const d of failed) {
        const jobs = await jobOf(d.id);
        expect(jobs.map((j) => j.status)).toEqual(['completed', 'queued']);
        expect((jobs[1]!.payload as { token: string }).token).toBe(d.jobToken);
      }
      const attempts = await app.database.db
        .selectFrom('webhookDeliveryAttempts as a')
        .innerJoin('webhookDeliveries as d', 'd.id', 'a.deliveryId')
        .select(['d.subscriptionId', 'a.responseStatus'])
        .where('d.subscriptionId', 'in', [okId, failId])
        .execute();
      expect(attempts.filter((a) => a.subscriptionId === okId && a.responseStatus === 200)).toHaveLength(40);
      expect(attempts.filter((a) => a.subscriptionId === failId && a.responseStatus === 500)).toHaveLength(40);
      // Nothing pending for the good one; each delivery sent once.
      expect(new Set(good.received.map((r) => r.headers['x-parley-delivery-id'])).size).toBe(40);
      for (const id of [okId, failId]) await admin.delete(`/api/v1/webhook-subscriptions/${id}`);
    } finally {
      await good.close();
      await bad.close();
    }
  });
});

describe.each(ENGINES)('outbound webhooks, catch-up after an outage (%s)', (engine) => {
  let app: TestApp;
  let receiver: CallbackServer;
  let admin: TestClient;
  let client: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false, env: ALLOW_LOOPBACK_FAKES });
    receiver = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
    client = await createTestClient(app, 'Outage Co');
  });
  afterAll(async () => {
    await receiver.close();
    await app.destroy();
  });

  const queuedJobs = async (deliveryId: string) =>
    (
      await app.database.db.selectFrom('jobs').select(['id', 'payload', 'runAt', 'status']).where('name', '=', 'hooks.deliver').where('status', '=', 'queued').orderBy('id').execute()
    ).filter((j) => (j.payload as { deliveryId?: string }).deliveryId === deliveryId);

  /** Runs a queued job of the delivery now (the newest, or the given one), as a worker would, and completes it. */
  async function run(deliveryId: string, which: 'newest' | 'oldest' = 'newest') {
    const jobs = await queuedJobs(deliveryId);
    const job = which === 'newest' ? jobs.at(-1) : jobs[0];
    if (!job) throw new Error(`no queued job for ${deliveryId}`);
    const payload = job.payload as { deliveryId: string; token: string };
    await app.services.hooks.deliver(payload.deliveryId, payload.token);
    await app.database.db.updateTable('jobs').set({ status: 'completed' }).where('id', '=', job.id).execute();
  }

  it('a success brings the subscription’s deliveries waiting for their backoff forward; a failure does not', async () => {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Flaky', url: receiver.url, client_id: client.id });
    const subscriptionId = created.json<CreatedSubscription>().subscription.id;
    const [c1, c2] = [randomUUID(), randomUUID()];
    const a = storedEvent('message.received', client.id, c1);
    const a2 = storedEvent('message.sent', client.id, c1);
    const b = storedEvent('message.received', client.id, c2);
    const loose = storedEvent('contact.created', client.id);
    await commitEvents(app, [a, a2, b, loose]);
    const byEvent = async () => new Map((await app.database.db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).execute()).map((d) => [d.eventId, d]));
    let rows = await byEvent();
    const [da, da2, db, dl] = [a, a2, b, loose].map((e) => rows.get(e.id)!);

    // Down: every lane head fails and waits for its backoff (10 s ± 20 %).
    receiver.script({ status: 503, body: 'down' });
    for (const d of [da!, db!, dl!]) await run(d.id);
    rows = await byEvent();
    expect([a, b, loose].map((e) => rows.get(e.id)!.status)).toEqual(['retrying', 'retrying', 'retrying']);
    const waiting = new Map([da!, db!, dl!].map((d) => [d.id, rows.get(d.eventId)!]));
    for (const d of waiting.values()) expect(new Date(d.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now() + 5_000);
    // Another failure brings nothing forward.
    const probe = storedEvent('lead.qualified', client.id);
    await commitEvents(app, [probe]);
    const dp = (await byEvent()).get(probe.id)!;
    await run(dp.id);
    for (const d of [da!, db!, dl!]) expect(await queuedJobs(d.id)).toHaveLength(1);

    // Back: the probe's retry succeeds — the others go now instead of when their backoff ends.
    receiver.script({ status: 200, body: 'ok' });
    const sentBefore = receiver.received.length;
    await run(dp.id);
    expect(receiver.received.length - sentBefore).toBe(1);
    rows = await byEvent();
    for (const d of [da!, db!, dl!]) {
      const now = rows.get(d.eventId)!;
      expect(now.status).toBe('retrying');
      expect(now.jobToken).not.toBe(waiting.get(d.id)!.jobToken);
      expect(new Date(now.nextAttemptAt!).getTime()).toBeLessThan(Date.now() + 1_000);
      const jobs = await queuedJobs(d.id);
      expect(jobs).toHaveLength(2);
      expect(new Date(jobs[1]!.runAt).getTime()).toBeLessThan(Date.now() + 1_000);
      expect((jobs[1]!.payload as { token: string }).token).toBe(now.jobToken);
    }
    // The old retry jobs send nothing; the new ones deliver, and the lane's next follows.
    for (const d of [da!, db!, dl!]) await run(d.id, 'oldest');
    expect(receiver.received.length - sentBefore).toBe(1);
    for (const d of [da!, db!, dl!]) await run(d.id);
    await run(da2!.id);
    rows = await byEvent();
    expect([a, a2, b, loose, probe].map((e) => [rows.get(e.id)!.status, rows.get(e.id)!.attempts])).toEqual([
      ['succeeded', 2],
      ['succeeded', 1],
      ['succeeded', 2],
      ['succeeded', 2],
      ['succeeded', 2],
    ]);
    expect(receiver.received.length - sentBefore).toBe(5);
  });

  it('a new event parked behind a distant retry probes the receiver once it was quiet for 30 s; the success brings the rest', async () => {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Probed', url: receiver.url, client_id: client.id });
    const subscriptionId = created.json<CreatedSubscription>().subscription.id;
    const [c1, c2] = [randomUUID(), randomUUID()];
    const first = storedEvent('message.received', client.id, c1);
    const other = storedEvent('message.received', client.id, c2);
    await commitEvents(app, [first, other]);
    const deliveryOf = async (eventId: string) =>
      app.database.db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).where('eventId', '=', eventId).executeTakeFirstOrThrow();
    receiver.script({ status: 503, body: 'down' });
    for (const e of [first, other]) await run((await deliveryOf(e.id)).id);
    // An hour-long outage, compressed: both heads wait for a retry far away, nothing sent for a minute.
    const later = new Date(Date.now() + 20 * 60_000);
    await app.database.db.updateTable('webhookDeliveries').set({ nextAttemptAt: later }).where('subscriptionId', '=', subscriptionId).where('status', '=', 'retrying').execute();
    await app.database.db.updateTable('webhookSubscriptions').set({ lastTriggeredAt: new Date(Date.now() - 60_000) }).where('id', '=', subscriptionId).execute();
    const head = await deliveryOf(first.id);
    expect(await queuedJobs(head.id)).toHaveLength(1);

    // Still down: the next message of the first conversation parks and probes its head, once.
    const next = storedEvent('message.received', client.id, c1);
    await commitEvents(app, [next]);
    expect((await deliveryOf(next.id)).parked).toBe(true);
    const probed = await deliveryOf(first.id);
    expect(probed.jobToken).not.toBe(head.jobToken);
    expect(new Date(probed.nextAttemptAt!).getTime()).toBeLessThan(Date.now() + 1_000);
    expect(await queuedJobs(head.id)).toHaveLength(2);
    await run(head.id);
    expect((await deliveryOf(first.id)).status).toBe('retrying');
    // Just attempted: another new message does not probe again.
    const again = storedEvent('message.sent', client.id, c1);
    await commitEvents(app, [again]);
    const afterFailedProbe = await deliveryOf(first.id);
    expect(await queuedJobs(head.id)).toHaveLength(1 + 1); // the original far retry and the failed probe's own retry
    expect(new Date(afterFailedProbe.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now() + 5_000);

    // Back, and quiet for 30 s: the next message probes, the probe succeeds, the rest comes forward.
    await app.database.db.updateTable('webhookDeliveries').set({ nextAttemptAt: later }).where('id', '=', head.id).execute();
    await app.database.db.updateTable('webhookSubscriptions').set({ lastTriggeredAt: new Date(Date.now() - 60_000) }).where('id', '=', subscriptionId).execute();
    receiver.script({ status: 200, body: 'ok' });
    const last = storedEvent('message.sent', client.id, c1);
    await commitEvents(app, [last]);
    await run(head.id);
    expect((await deliveryOf(first.id)).status).toBe('succeeded');
    const otherHead = await deliveryOf(other.id);
    expect(new Date(otherHead.nextAttemptAt!).getTime()).toBeLessThan(Date.now() + 1_000);
    await run(otherHead.id);
    expect((await deliveryOf(other.id)).status).toBe('succeeded');
  });
});

// Two transactions at once on one lane: only PostgreSQL runs them concurrently (PGlite has one
// connection, so there the interleavings below cannot happen).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))('outbound webhooks, parked at insert against a concurrent settle (%s)', (engine) => {
  let app: TestApp;
  let receiver: CallbackServer;
  let admin: TestClient;
  let client: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false, env: ALLOW_LOOPBACK_FAKES });
    receiver = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
    client = await createTestClient(app, 'Race Co');
  });
  afterAll(async () => {
    await receiver.close();
    await app.destroy();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A subscription and the first delivery of a new lane (pending, holding a token). */
  async function laneWithHead() {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Race', url: receiver.url, client_id: client.id });
    const subscriptionId = created.json<CreatedSubscription>().subscription.id;
    const conversation = randomUUID();
    const head = storedEvent('message.received', client.id, conversation);
    await commitEvents(app, [head]);
    const row = await app.database.db.selectFrom('webhookDeliveries').selectAll().where('eventId', '=', head.id).executeTakeFirstOrThrow();
    return { subscriptionId, conversation, head: row };
  }

  /** The later delivery must end up holding a token and a queued job (woken, or never parked). */
  async function expectSendable(eventId: string) {
    const row = await app.database.db.selectFrom('webhookDeliveries').selectAll().where('eventId', '=', eventId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', parked: false });
    expect(row.jobToken).not.toBeNull();
    const jobs = await app.database.db.selectFrom('jobs').select('payload').where('name', '=', 'hooks.deliver').where('status', '=', 'queued').execute();
    expect(jobs.filter((j) => (j.payload as { token?: string }).token === row.jobToken)).toHaveLength(1);
  }

  it('the fan-out holds the earlier delivery: its settle waits, then wakes the delivery parked behind it', async () => {
    const { conversation, head } = await laneWithHead();
    const next = storedEvent('message.sent', client.id, conversation);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const fanOut = app.database.db.transaction().execute(async (trx) => {
      await app.services.hooks.sink().accept(trx, [next]);
      await gate;
    });
    await sleep(200);
    let settled = false;
    const delivering = app.services.hooks.deliver(head.id, head.jobToken!).then(() => (settled = true));
    await sleep(500);
    expect(settled).toBe(false); // its settle waits for the fan-out's lock on the head
    open();
    await fanOut;
    await delivering;
    expect((await app.database.db.selectFrom('webhookDeliveries').select('status').where('id', '=', head.id).executeTakeFirstOrThrow()).status).toBe('succeeded');
    await expectSendable(next.id);
  });

  it('a settle that finished the earlier delivery first: the fan-out waits for it and does not park the new one', async () => {
    const { subscriptionId, conversation, head } = await laneWithHead();
    const next = storedEvent('message.sent', client.id, conversation);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const now = new Date().toISOString();
    // parley_hooks_settle inside a transaction kept open: the head is finished but not committed.
    const settle = app.database.db.transaction().execute(async (trx) => {
      const settled = await new HooksRepository(trx).settle(
        [
          {
            deliveryId: head.id,
            token: head.jobToken!,
            subscriptionId,
            conversationId: conversation,
            seq: String(head.seq),
            ok: true,
            status: 'succeeded',
            attemptedAt: now,
            nextAttemptAt: null,
            nextToken: null,
            lastStatus: 200,
            lastError: null,
            attempt: { headers: {}, status: 200, excerpt: 'ok', error: null, durationMs: 1 },
            completion: null,
          },
        ],
        { name: deliverWebhookJob.name, maxAttempts: deliverWebhookJob.maxAttempts ?? 5, channel: app.queue.channel },
      );
      expect(settled.settled).toEqual([head.id]);
      await gate;
    });
    await sleep(200);
    let inserted = false;
    const fanOut = commitEvents(app, [next]).then(() => (inserted = true));
    await sleep(500);
    expect(inserted).toBe(false); // it waits for the settle's lock on the head
    open();
    await settle;
    await fanOut;
    await expectSendable(next.id);
  });
});
