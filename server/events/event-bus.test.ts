/**
 * EventBus subscriptions' `delayMs` and `coalesce` (parley_publish → parley_insert_jobs, migration
 * 0026) on both engines: a delayed job waits and is never claimed where it is inserted; coalesced
 * jobs are one queued job per key — within one publication and across transactions — while a
 * running job does not hold the key; a transaction that coalesced into a queued job holds it until
 * it ends (PostgreSQL); collected subscriptions hand their payloads to a function and queue one
 * job per window for all of them.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../test/helpers/database';
import { defineJob } from '../jobs/define-job';
import { JobQueue } from '../jobs/queue';
import { EventBus } from './event-bus';

const logger = pino({ level: 'silent' });

describe.each(ENGINES)('event bus: delayed and coalesced subscriptions (%s)', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database.destroy();
  });

  function setup(options: { delayMs?: number; coalesce?: boolean }) {
    const job = defineJob({ name: `test.${randomUUID().slice(0, 8)}`, payload: z.object({ conversationId: z.string() }), batched: true });
    const queue = new JobQueue(database, { logger });
    const bus = new EventBus(database, logger, { jobChannel: queue.channel });
    bus.subscribe({
      event: 'conversation.created',
      job,
      keys: ['conversationId'],
      ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
      ...(options.coalesce ? { coalesce: 'conversationId' as const } : {}),
    });
    const publish = (...conversationIds: string[]) =>
      database.db.transaction().execute(async (trx) => {
        await bus.publishMany(
          trx,
          conversationIds.map((conversationId) => ({ name: 'conversation.created', payload: { conversationId, clientId: randomUUID() }, performedBy: { kind: 'system' } })),
        );
      });
    const rows = () =>
      database.db
        .selectFrom('jobs')
        .select([
          'id',
          'status',
          'payload',
          'coalesceKey',
          sql<number>`extract(epoch from (run_at - created_at)) * 1000`.as('delay'),
          sql<string>`(extract(epoch from run_at) * 1000)::bigint::text`.as('runAtMs'),
        ])
        .where('name', '=', job.name)
        .orderBy('id')
        .execute();
    return { job, publish, rows };
  }

  it('a delayed job is queued to run that long after the event, at the end of its window of that length', async () => {
    const { publish, rows } = setup({ delayMs: 1500 });
    await publish('a');
    await publish('b');
    const list = await rows();
    expect(list).toHaveLength(2);
    for (const row of list) {
      expect(row).toMatchObject({ status: 'queued', coalesceKey: null });
      // At least the delay, less than twice it: the first multiple of 1.5 s since the epoch after it,
      // so the jobs of events in one window fall due at one moment (one claim, one batch).
      expect(Number(row.delay)).toBeGreaterThanOrEqual(1500);
      expect(Number(row.delay)).toBeLessThan(3000);
      expect(BigInt(row.runAtMs) % 1500n).toBe(0n);
    }
  });

  it('coalesced jobs: one queued job per key, within a publication and across transactions', async () => {
    const { publish, rows } = setup({ coalesce: true, delayMs: 1000 });
    await publish('a', 'b', 'a');
    await publish('a');
    expect((await rows()).map((r) => [r.payload, r.coalesceKey, r.status])).toEqual([
      [{ conversationId: 'a' }, 'a', 'queued'],
      [{ conversationId: 'b' }, 'b', 'queued'],
    ]);
    // Once the queued one runs, the key is free: a change made meanwhile queues the next job.
    const first = (await rows())[0]!;
    await database.db.updateTable('jobs').set({ status: 'running' }).where('id', '=', first.id).execute();
    await publish('a');
    expect((await rows()).map((r) => [r.coalesceKey, r.status])).toEqual([
      ['a', 'running'],
      ['b', 'queued'],
      ['a', 'queued'],
    ]);
  });

  it('without coalesce every event queues its job', async () => {
    const { publish, rows } = setup({});
    await publish('a', 'a');
    expect((await rows()).map((r) => [r.coalesceKey, r.status])).toEqual([
      [null, 'queued'],
      [null, 'queued'],
    ]);
  });

  it('collected subscriptions: the function gets every payload, one queued job (payload {}) takes them all', async () => {
    // A function of the test's own, recording what it is handed (the insights module's marks it conversations).
    const table = `collected_${randomUUID().slice(0, 8)}`;
    const fn = `${table}_fn`;
    await sql.raw(`create table ${table} (n serial primary key, payloads jsonb not null)`).execute(database.db);
    await sql
      .raw(`create function ${fn}(p jsonb) returns void language plpgsql as $$ begin insert into ${table} (payloads) values (p); end $$`)
      .execute(database.db);
    const job = defineJob({ name: `test.${randomUUID().slice(0, 8)}`, payload: z.object({}) });
    const queue = new JobQueue(database, { logger });
    const bus = new EventBus(database, logger, { jobChannel: queue.channel });
    // Windows of an hour: the two publications below fall in one (unless an hour ends between them; see below).
    const delayMs = 3_600_000;
    bus.subscribe({ event: 'conversation.created', job, keys: ['conversationId'], collect: fn, delayMs });
    bus.subscribe({ event: 'message.created', job, keys: ['conversationId'], collect: fn, delayMs });
    const created = (conversationId: string) =>
      ({ name: 'conversation.created', payload: { conversationId, clientId: randomUUID() }, performedBy: { kind: 'system' } }) as const;
    const message = (conversationId: string) =>
      ({
        name: 'message.created',
        payload: { conversationId, clientId: randomUUID(), channelId: randomUUID(), messageId: randomUUID(), direction: 'inbound', senderType: 'customer' },
        performedBy: { kind: 'system' },
      }) as const;
    const publish = (...events: Parameters<typeof bus.publishMany>[1]) =>
      database.db.transaction().execute(async (trx) => bus.publishMany(trx, events));
    const jobs = () =>
      database.db
        .selectFrom('jobs')
        .select(['id', 'status', 'payload', 'coalesceKey', sql<string>`(extract(epoch from run_at) * 1000)::bigint::text`.as('runAtMs')])
        .where('name', '=', job.name)
        .orderBy('id')
        .execute();
    const collected = async () => (await sql<{ payloads: unknown }>`select payloads from ${sql.table(table)} order by n`.execute(database.db)).rows.map((r) => r.payloads);

    await publish(created('a'), message('a'), message('b'));
    // One call per publication, with the keys only; one queued job, coalesced on its window (its due time).
    expect(await collected()).toEqual([[{ conversationId: 'a' }, { conversationId: 'a' }, { conversationId: 'b' }]]);
    const [first] = await jobs();
    expect(await jobs()).toEqual([expect.objectContaining({ payload: {}, status: 'queued', coalesceKey: `*:${first!.runAtMs}` })]);
    expect(BigInt(first!.runAtMs) % BigInt(delayMs)).toBe(0n);
    await publish(message('c'));
    expect(await collected()).toHaveLength(2);
    // The same window's publication adds no job (one more only if an hour ended in between).
    const windows = new Set((await jobs()).map((j) => j.coalesceKey));
    expect(await jobs()).toHaveLength(windows.size);
    // Once it runs, what is collected meanwhile queues the next one, for the same window.
    await database.db.updateTable('jobs').set({ status: 'running' }).where('name', '=', job.name).execute();
    await publish(message('d'));
    expect((await jobs()).filter((j) => j.status === 'queued')).toHaveLength(1);
    expect(await collected()).toHaveLength(3);
    // A publication that matches no collected subscription calls nothing.
    await publish({ name: 'conversation.resolved', payload: { conversationId: 'a', clientId: randomUUID() }, performedBy: { kind: 'system' } });
    expect(await collected()).toHaveLength(3);
  });

  // Two transactions at once: PostgreSQL only (PGlite has one connection).
  it.runIf(engine === 'postgres')('a transaction that coalesced into a queued job holds it: no worker claims it before that transaction ends', async () => {
    const job = defineJob({ name: `test.${randomUUID().slice(0, 8)}`, payload: z.object({ conversationId: z.string() }) });
    const queue = new JobQueue(database, { logger });
    const insert = (db: typeof database.db) =>
      sql`select parley_insert_jobs(${JSON.stringify([{ name: job.name, payload: { conversationId: 'a' }, maxAttempts: 1, coalesceKey: 'a' }])}::jsonb, null, 'parley_test_jobs')`.execute(db);
    // Queued and due (no delay), committed.
    await insert(database.db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let coalescedNow!: () => void;
    const coalesced = new Promise<void>((resolve) => (coalescedNow = resolve));
    const open = database.db.transaction().execute(async (trx) => {
      await insert(trx);
      coalescedNow();
      await held;
    });
    await coalesced;
    // The open transaction coalesced into the queued job (no second one) and holds it.
    expect(await database.db.selectFrom('jobs').select('status').where('name', '=', job.name).execute()).toEqual([{ status: 'queued' }]);
    expect(await queue.takeQueued(job, 10)).toEqual([]);
    release();
    await open;
    expect(await queue.takeQueued(job, 10)).toEqual([expect.objectContaining({ payload: { conversationId: 'a' } })]);
  });

  it('refuses a collect that is not a function name, or with withEvent', () => {
    const job = defineJob({ name: 'test.collect', payload: z.object({}) });
    const bus = new EventBus(database, logger, { jobChannel: 'x' });
    expect(() => bus.subscribe({ event: 'conversation.created', job, keys: ['conversationId'], collect: 'f(); drop table jobs' })).toThrow(/not a function name/u);
    expect(() => bus.subscribe({ event: 'conversation.created', job, keys: ['conversationId'], collect: 'f', withEvent: true })).toThrow(/not with withEvent/u);
  });

  it('asks for local slots only for jobs a publication may claim: not a delayed, coalesced or collected subscription’s', () => {
    const job = (name: string) => defineJob({ name: `test.slots-${name}`, payload: z.object({ conversationId: z.string() }) });
    const [now, delayed, coalesced] = [job('now'), job('delayed'), job('coalesced')];
    const collected = defineJob({ name: 'test.slots-collected', payload: z.object({}) });
    const bus = new EventBus(database, logger, { jobChannel: 'x' });
    bus.subscribe({ event: 'conversation.created', job: now, keys: ['conversationId'] });
    bus.subscribe({ event: 'conversation.created', job: delayed, keys: ['conversationId'], delayMs: 1000 });
    bus.subscribe({ event: 'message.created', job: coalesced, keys: ['conversationId'], coalesce: 'conversationId' });
    bus.subscribe({ event: 'message.created', job: collected, keys: ['conversationId'], collect: 'parley_insights_mark', delayMs: 1000 });
    bus.subscribe({ event: 'message.created', job: now, keys: ['conversationId'] });
    expect(bus.jobsFor(['conversation.created', 'message.created']).map((j) => j.name)).toEqual([now.name]);
    expect(bus.jobsFor(['message.created']).map((j) => j.name)).toEqual([now.name]);
    // The subscriptions themselves are all published.
    expect(bus.publishContext.subscriptions.map((s) => s.job)).toEqual([now.name, delayed.name, coalesced.name, collected.name, now.name]);
  });

  it.each([
    ['a delayed job', { delayMs: 500 }],
    ['a coalesced job', { coalesceKey: 'x' }],
  ] as const)('%s is never claimed where it is inserted, even with a local slot', async (_kind, special) => {
    const { job, rows } = setup({});
    const local = { workerId: 'here', slots: { [job.name]: { n: 2, leaseMs: 1000 } } };
    const jobs = [
      { name: job.name, payload: { conversationId: 'x' }, maxAttempts: 1, ...special },
      { name: job.name, payload: { conversationId: 'y' }, maxAttempts: 1 },
    ];
    const { rows: claimed } = await sql<{ claimed: unknown[] }>`
      select parley_insert_jobs(${JSON.stringify(jobs)}::jsonb, ${JSON.stringify(local)}::jsonb, 'parley_test_jobs') as claimed`.execute(database.db);
    expect(claimed[0]!.claimed).toEqual([expect.objectContaining({ payload: { conversationId: 'y' } })]);
    expect((await rows()).map((r) => [r.payload, r.status])).toEqual([
      [{ conversationId: 'x' }, 'queued'],
      [{ conversationId: 'y' }, 'running'],
    ]);
  });
});
