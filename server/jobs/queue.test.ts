import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, ENGINES, secondInstance, type TestDatabase } from '../../test/helpers/database';
import type { Database } from '../db/database';
import { defineJob, type JobDefinition, PermanentJobError, RetryLaterError } from './define-job';
import { backoffDelay, type ClaimedRow, JobQueue, type JobQueueOptions, leaseMsFor, MAX_LEASE_MS } from './queue';

const logger = pino({ level: 'silent' });
const payload = z.object({ n: z.number().int() });

/** A job definition with a name of its own, so tests sharing a database never see each other's. */
function job(options: Partial<Omit<JobDefinition, 'name' | 'payload'>> = {}) {
  return defineJob({ name: `test.${randomUUID().slice(0, 8)}`, payload, ...options });
}

/** Resolves when `predicate` holds; polls (no timing asserted, only a generous deadline). */
async function eventually(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('backoffDelay', () => {
  it('doubles from the base each attempt, up to the cap', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter
    try {
      expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, 100, 1_000))).toEqual([100, 200, 400, 800, 1_000]);
      expect(backoffDelay(30, 100, 1_000)).toBe(1_000);
      expect(backoffDelay(0, 100, 1_000)).toBe(100);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('jitters by at most 20 % either way, never below zero', () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      for (let i = 0; i < 50; i++) {
        const raw = Math.min(10_000, 50 * 2 ** (attempt - 1));
        const delay = backoffDelay(attempt, 50, 10_000);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(raw * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.ceil(raw * 1.2));
      }
    }
    expect(backoffDelay(1, 0, 0)).toBe(0);
  });
});

describe.each(ENGINES)('job queue (%s)', (engine) => {
  let database: TestDatabase;
  const queues: JobQueue[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
  });
  afterAll(async () => {
    await database.destroy();
  });

  function queue(options: Partial<JobQueueOptions> = {}, on: Database = database): JobQueue {
    const q = new JobQueue(on, { logger, pollIntervalMs: 50, ...options });
    queues.push(q);
    return q;
  }

  const rowOf = (id: number | null) =>
    database.db.selectFrom('jobs').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();

  it('runs a committed job once and marks it completed', async () => {
    const def = job();
    const q = queue();
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    const id = await q.enqueue(def, { n: 7 });
    await q.waitForIdle();
    expect(runs).toEqual([7]);
    expect(await rowOf(id)).toMatchObject({ status: 'completed', attempts: 1, lastError: null, lockedBy: null });
  });

  it('never runs a job enqueued in a transaction that rolled back', async () => {
    const def = job();
    const q = queue();
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    const rollback = new Error('rollback');
    await expect(
      database.db.transaction().execute(async (trx) => {
        await q.enqueue(def, { n: 1 }, { db: trx });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    await database.db.transaction().execute(async (trx) => {
      await q.enqueue(def, { n: 2 }, { db: trx });
    });
    await q.waitForIdle();
    expect(runs).toEqual([2]);
    const rows = await database.db.selectFrom('jobs').select('payload').where('name', '=', def.name).execute();
    expect(rows).toEqual([{ payload: { n: 2 } }]);
  });

  it('refuses a payload that does not match the job schema before it reaches the table', async () => {
    const def = job();
    await expect(queue().enqueue(def, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
    expect(await database.db.selectFrom('jobs').select('id').where('name', '=', def.name).execute()).toEqual([]);
  });

  it('retries a failing job with exponentially growing delays, then marks it failed', async () => {
    const base = 100;
    const def = job({ maxAttempts: 4, backoffMs: base, maxBackoffMs: 60_000 });
    const q = queue();
    const runAts: number[] = [];
    q.register(def, async (_payload, ctx) => {
      const row = await database.db.selectFrom('jobs').select('runAt').where('id', '=', ctx.jobId).executeTakeFirstOrThrow();
      runAts.push(row.runAt.getTime());
      throw new Error(`boom ${ctx.attempt}`);
    });
    await q.start();
    const id = await q.enqueue(def, { n: 1 });
    await eventually(async () => (await rowOf(id)).status === 'failed', 'the job failed');
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 4, lastError: 'boom 4', lockedBy: null });
    expect(runAts).toHaveLength(4);
    const gaps = runAts.slice(1).map((t, i) => t - runAts[i]!);
    // Each retry waits at least its backoff (base·2^(n-1), minus the 20 % jitter)...
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(Math.floor(0.8 * base * 2 ** i)));
    // ...and the waits grow: the third is at least 3.2·base, the first at most 1.2·base plus the run.
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
  });

  it('fails a job at once on PermanentJobError', async () => {
    const def = job({ maxAttempts: 5, backoffMs: 1 });
    const q = queue();
    let runs = 0;
    q.register(def, async () => {
      runs += 1;
      throw new PermanentJobError('no such mailbox');
    });
    await q.start();
    const id = await q.enqueue(def, { n: 1 });
    await eventually(async () => (await rowOf(id)).status === 'failed', 'the job failed');
    expect(await rowOf(id)).toMatchObject({ attempts: 1, lastError: 'no such mailbox' });
    expect(runs).toBe(1);
  });

  it('honours the delay of RetryLaterError instead of the backoff', async () => {
    const def = job({ maxAttempts: 3, backoffMs: 1 });
    const q = queue();
    const runAts: number[] = [];
    q.register(def, async (_payload, ctx) => {
      const row = await database.db.selectFrom('jobs').select('runAt').where('id', '=', ctx.jobId).executeTakeFirstOrThrow();
      runAts.push(row.runAt.getTime());
      if (ctx.attempt === 1) throw new RetryLaterError('rate limited', 400);
    });
    await q.start();
    const id = await q.enqueue(def, { n: 1 });
    await eventually(async () => (await rowOf(id)).status === 'completed', 'the job completed');
    expect(await rowOf(id)).toMatchObject({ attempts: 2 });
    expect(runAts[1]! - runAts[0]!).toBeGreaterThanOrEqual(400);
  });

  it('picks up a job whose worker died (running, lease expired), as after a restart', async () => {
    const def = job({ maxAttempts: 3 });
    const { rows } = await sql<{ id: number }>`
      insert into jobs (name, payload, status, attempts, max_attempts, locked_by, locked_until)
      values (${def.name}, '{"n": 5}', 'running', 1, 3, 'dead-host:1:abc', now() - interval '1 second')
      returning id`.execute(database.db);
    const q = queue();
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    await q.waitForIdle();
    expect(runs).toEqual([5]);
    expect(await rowOf(rows[0]!.id)).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('gives up on a dead worker’s job that already used its attempts', async () => {
    const def = job({ maxAttempts: 2 });
    const { rows } = await sql<{ id: number }>`
      insert into jobs (name, payload, status, attempts, max_attempts, locked_by, locked_until)
      values (${def.name}, '{"n": 1}', 'running', 2, 2, 'dead-host:1:abc', now() - interval '1 second')
      returning id`.execute(database.db);
    const q = queue();
    let runs = 0;
    q.register(def, async () => {
      runs += 1;
    });
    await q.start();
    await q.waitForIdle();
    expect(runs).toBe(0);
    expect(await rowOf(rows[0]!.id)).toMatchObject({ status: 'failed' });
  });

  /** How far a job's lease reaches past the statement that set it, in ms. */
  const leaseOf = async (id: number) =>
    Number(
      (
        await sql<{ ms: number }>`select extract(epoch from (locked_until - updated_at)) * 1000 as ms from jobs where id = ${id}`.execute(database.db)
      ).rows[0]?.ms,
    );

  it('leases each claimed job by its own type, not by the longest timeout of any registered type', async () => {
    const short = job({ timeoutMs: 2_000 });
    const send = job({ timeoutMs: 30_000 });
    const training = job({ timeoutMs: 5 * 60_000 });
    const q = queue({ concurrency: 3, heartbeatMs: 60_000 });
    const started = new Set<string>();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const def of [short, send, training]) {
      q.register(def, async () => {
        started.add(def.name);
        await held;
      });
    }
    const ids = [await q.enqueue(short, { n: 1 }), await q.enqueue(send, { n: 2 }), await q.enqueue(training, { n: 3 })];
    await q.start();
    await eventually(() => started.size === 3, 'all three run');
    expect(await Promise.all(ids.map((id) => leaseOf(id!)))).toEqual([leaseMsFor(short), leaseMsFor(send), leaseMsFor(training)]);
    expect(leaseMsFor(short)).toBeLessThan(leaseMsFor(send));
    // The training's lease is not its 5-minute timeout: the heartbeat keeps it while it runs.
    expect(leaseMsFor(training)).toBe(MAX_LEASE_MS);
    release();
    await q.waitForIdle();
  });

  it('the heartbeat renews the lease of every job running here, in one statement, and of no other', async () => {
    const def = job({ timeoutMs: 10 * 60_000 });
    const q = queue({ concurrency: 2, heartbeatMs: 60_000, workerId: 'beating' });
    let running = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    q.register(def, async () => {
      running += 1;
      await held;
    });
    const a = await q.enqueue(def, { n: 1 });
    const b = await q.enqueue(def, { n: 2 });
    // Another worker's running job is not this queue's to renew.
    const elsewhere = `${hostname()}:${process.pid}:elsewhere`;
    const { rows } = await sql<{ id: number }>`
      insert into jobs (name, payload, status, attempts, max_attempts, locked_by, locked_until)
      values (${def.name}, '{"n": 3}', 'running', 1, 3, ${elsewhere}, now() + interval '1 hour')
      returning id`.execute(database.db);
    const foreign = rows[0]!.id;
    const foreignLease = (await rowOf(foreign)).lockedUntil;
    await q.start();
    await eventually(() => running === 2, 'both run');
    // Their leases nearly ran out (a long job, or a clock moved on)…
    await sql`update jobs set locked_until = now() + interval '1 second' where id = any(${[a, b]}::bigint[])`.execute(database.db);
    expect(await q.heartbeat()).toBe(2);
    // …and reach a full lease from now again, the other worker's untouched.
    for (const id of [a!, b!]) expect(await leaseOf(id)).toBeGreaterThan(MAX_LEASE_MS - 5_000);
    const other = await rowOf(foreign);
    expect(other.lockedBy).toBe(elsewhere);
    expect(other.lockedUntil).toEqual(foreignLease);
    release();
    await eventually(async () => (await rowOf(a)).status === 'completed' && (await rowOf(b)).status === 'completed', 'both complete');
    await sql`delete from jobs where id = ${foreign}`.execute(database.db);
  });

  it('the heartbeat runs on its own while a long job runs', async () => {
    const def = job({ timeoutMs: 10 * 60_000 });
    const q = queue({ heartbeatMs: 20 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let running = false;
    q.register(def, async () => {
      running = true;
      await held;
    });
    const id = await q.enqueue(def, { n: 1 });
    await q.start();
    await eventually(() => running, 'the job runs');
    await sql`update jobs set locked_until = now() + interval '10 seconds', updated_at = now() where id = ${id}`.execute(database.db);
    await eventually(async () => (await leaseOf(id!)) > MAX_LEASE_MS - 5_000, 'the lease is renewed');
    // Renewed by the heartbeat, not taken over by a new claim.
    expect(await rowOf(id)).toMatchObject({ status: 'running', attempts: 1 });
    release();
    await q.waitForIdle();
  });

  it('a dead worker’s job is claimed again once its own lease passes, not before', async () => {
    const def = job({ timeoutMs: 30_000 });
    // A worker that stopped beating (on PostgreSQL, a process on another host; start-up recovery
    // takes back at once only the jobs of processes it can see are gone).
    const worker = `${hostname()}:${process.pid}:stalled`;
    const { rows } = await sql<{ id: number }>`
      insert into jobs (name, payload, status, attempts, max_attempts, locked_by, locked_until)
      values (${def.name}, '{"n": 7}', 'running', 1, 3, ${worker}, now() + interval '20 seconds')
      returning id`.execute(database.db);
    const id = rows[0]!.id;
    const q = queue({ workerId: 'survivor' });
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    // Still leased: several polls go by and nobody takes it.
    const polled = Date.now();
    await eventually(() => Date.now() - polled > 300, 'a few polls');
    expect(runs).toEqual([]);
    expect(await rowOf(id)).toMatchObject({ status: 'running', lockedBy: worker });
    // Its lease passes (the dead worker stopped beating): the survivor takes it.
    await sql`update jobs set locked_until = now() - interval '1 millisecond' where id = ${id}`.execute(database.db);
    await q.waitForIdle();
    expect(runs).toEqual([7]);
    expect(await rowOf(id)).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('several workers under load run every job exactly once', async () => {
    const def = job();
    // On PostgreSQL the second worker has its own connection pool, as another process would.
    const other = await secondInstance(database);
    const seen = new Map<number, number>();
    const handler = async ({ n }: { n: number }) => {
      seen.set(n, (seen.get(n) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    };
    const a = queue({ concurrency: 4, workerId: 'a' });
    const b = queue({ concurrency: 4, workerId: 'b' }, other);
    a.register(def, handler);
    b.register(def, handler);
    await Promise.all([a.start(), b.start()]);
    const total = 120;
    for (let i = 0; i < total; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, k) => a.enqueue(def, { n: i + k })));
    }
    await Promise.all([a.waitForIdle(20_000), b.waitForIdle(20_000)]);
    expect(seen.size).toBe(total);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    const byWorker = await database.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('name', '=', def.name)
      .groupBy('status')
      .execute();
    expect(byWorker.map((r) => ({ status: r.status, n: Number(r.n) }))).toEqual([{ status: 'completed', n: total }]);
  });

  it('starts no job while paused, and works through what waited once the pause ends', async () => {
    const def = job();
    let paused = true;
    // A poll a minute away: once the pause ends, the queue's own re-checks resume the work.
    const q = queue({ pause: () => paused, maxPauseMs: 600_000, pollIntervalMs: 60_000 });
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    expect(q.reserve([{ definition: def, n: 1 }])).toBeNull(); // no slot to claim locally either
    const ids = [await q.enqueue(def, { n: 1 }), await q.enqueue(def, { n: 2 })];
    // The NOTIFY wake-ups and several re-checks have come and gone: nothing was claimed.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(runs).toEqual([]);
    expect((await Promise.all(ids.map(rowOf))).map((r) => r.status)).toEqual(['queued', 'queued']);
    paused = false;
    await eventually(() => runs.length === 2, 'both jobs ran after the pause');
    expect(runs.sort()).toEqual([1, 2]);
    const claim = q.reserve([{ definition: def, n: 1 }]);
    expect(claim).not.toBeNull();
    q.release(claim);
  });

  it('never starves while the pause lasts: one job at a time after maxPauseMs without any', async () => {
    const def = job();
    const q = queue({ pause: () => true, maxPauseMs: 100, pollIntervalMs: 60_000 });
    const runs: number[] = [];
    q.register(def, async ({ n }) => {
      runs.push(n);
    });
    await q.start();
    for (const n of [1, 2, 3]) await q.enqueue(def, { n });
    await eventually(() => runs.length === 3, 'every job ran although the queue never stopped pausing');
    expect(runs.sort()).toEqual([1, 2, 3]);
  });

  it('wakes on NOTIFY: a committed job runs although the next poll is a minute away', async () => {
    const def = job();
    const q = queue({ pollIntervalMs: 60_000 });
    let resolveRun!: (n: number) => void;
    const ran = new Promise<number>((resolve) => {
      resolveRun = resolve;
    });
    q.register(def, async ({ n }) => resolveRun(n));
    await q.start();
    await q.waitForIdle();
    await database.db.transaction().execute(async (trx) => {
      await q.enqueue(def, { n: 42 }, { db: trx });
    });
    await expect(Promise.race([ran, new Promise((_, reject) => setTimeout(() => reject(new Error('not woken')), 10_000))])).resolves.toBe(42);
  });

  it('runs a job inserted by insertJobSql at the end of one statement, its payload computed there, woken by NOTIFY', async () => {
    const def = job();
    const q = queue({ pollIntervalMs: 60_000 });
    let resolveRun!: (n: number) => void;
    const ran = new Promise<number>((resolve) => {
      resolveRun = resolve;
    });
    q.register(def, async ({ n }) => resolveRun(n));
    await q.start();
    await q.waitForIdle();
    const { rows } = await sql<{ id: number }>`
      with numbers as (select n from (values (3), (4), (5)) as v(n))
      ${q.insertJobSql(def, 'numbers', sql`jsonb_build_object('n', sum(n)::int)`)}`.execute(database.db);
    expect(rows).toHaveLength(1);
    await expect(Promise.race([ran, new Promise((_, reject) => setTimeout(() => reject(new Error('not woken')), 10_000))])).resolves.toBe(12);
    await q.waitForIdle();
    expect(await rowOf(rows[0]!.id)).toMatchObject({ status: 'completed', payload: { n: 12 } });
  });

  it('with every slot busy, jobs announced meanwhile run as slots free up, without waiting for the poll', async () => {
    const def = job();
    const q = queue({ concurrency: 1, pollIntervalMs: 60_000 });
    const runs: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    q.register(def, async ({ n }) => {
      if (n === 0) await gate;
      runs.push(n);
    });
    await q.start();
    await q.waitForIdle();
    await q.enqueue(def, { n: 0 });
    await vi.waitFor(async () => expect((await database.db.selectFrom('jobs').select('status').where('name', '=', def.name).executeTakeFirstOrThrow()).status).toBe('running'));
    for (let n = 1; n <= 4; n++) await q.enqueue(def, { n });
    await new Promise((resolve) => setTimeout(resolve, 100)); // their NOTIFYs arrive while the slot is taken
    release();
    await vi.waitFor(() => expect(runs).toHaveLength(5), { timeout: 10_000 });
    expect(runs[0]).toBe(0);
    expect([...runs].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('a detached job gives its slot back: the job it waits for runs, and it completes (or retries) when its handler settles', async () => {
    const def = job({ backoffMs: 10 });
    const q = queue({ concurrency: 1, pollIntervalMs: 60_000 });
    let second!: () => void;
    const secondRan = new Promise<void>((resolve) => {
      second = resolve;
    });
    let failFirstOnce = true;
    q.register(def, async ({ n }, ctx) => {
      if (n === 1) {
        second();
        return;
      }
      // Job 0 waits for job 1, which can only run in the one slot once job 0 detached.
      ctx.detach();
      await secondRan;
      if (failFirstOnce) {
        failFirstOnce = false;
        throw new Error('the batch failed');
      }
    });
    await q.start();
    const first = await q.enqueue(def, { n: 0 });
    await vi.waitFor(async () => expect((await rowOf(first)).status).toBe('running'));
    const next = await q.enqueue(def, { n: 1 });
    await q.waitForIdle();
    await vi.waitFor(async () => expect((await rowOf(first)).status).toBe('completed'), { timeout: 10_000 });
    expect(await rowOf(first)).toMatchObject({ attempts: 2 });
    expect(await rowOf(next)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('a job with slots of its own is run locally with every shared slot busy, up to its own limit; others get no slot', async () => {
    const busy = job();
    const batched = job({ localSlots: 2 });
    const q = queue({ concurrency: 1, pollIntervalMs: 60_000 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    q.register(busy, async () => {
      await gate;
    });
    const ran: number[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    q.register(batched, async ({ n }) => {
      ran.push(n);
      await finished;
    });
    await q.start();
    const blocker = await q.enqueue(busy, { n: 0 });
    await vi.waitFor(async () => expect((await rowOf(blocker)).status).toBe('running'));
    expect(q.reserve([{ definition: busy, n: 1 }])).toBeNull(); // the one slot is taken
    const claim = q.reserve([
      { definition: busy, n: 1 },
      { definition: batched, n: 2 },
    ]);
    expect(claim?.slots[batched.name]).toMatchObject({ n: 2, own: true });
    expect(claim?.slots[busy.name]).toBeUndefined();
    const { rows } = await sql<ClaimedRow & { status: string }>`
      with numbers as (select n from (values (1), (2)) as v(n))
      ${q.insertJobSql(batched, 'numbers', sql`jsonb_build_object('n', n)`, claim)}`.execute(database.db);
    // Inserted claimed by this worker, not queued; both run while the one slot is still taken.
    expect(rows.map((r) => r.status)).toEqual(['running', 'running']);
    q.runLocal(claim, rows);
    await vi.waitFor(() => expect(ran).toHaveLength(2));
    expect((await rowOf(blocker)).status).toBe('running');
    // Both of its own slots are taken now; the shared one still is.
    expect(q.reserve([{ definition: batched, n: 1 }])).toBeNull();
    finish();
    release();
    await q.waitForIdle();
    expect(ran.sort()).toEqual([1, 2]);
  });

  it('a batched job is never claimed where it is inserted; its handler claims the queued ones and completes them in its transaction', async () => {
    const def = job({ batched: true });
    const q = queue({ concurrency: 1 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done: number[][] = [];
    let takenByFailure: number[] = [];
    let failOnce = true;
    q.register(def, async ({ n }) => {
      await gate;
      const taken = await q.takeQueued(def, 3);
      // Claimed for this worker in a statement of their own: running, no longer queued.
      for (const t of taken) expect((await rowOf(t.id)).status).toBe('running');
      try {
        await database.db.transaction().execute(async (trx) => {
          await q.completeTaken(trx, taken.map((t) => t.id));
          if (failOnce) {
            failOnce = false;
            takenByFailure = taken.map((t) => t.id);
            throw new Error('rolled back');
          }
        });
        done.push([n, ...taken.map((t) => t.payload.n)]);
      } catch {
        // The handler's work failed: its taken jobs stay claimed until their leases run out.
      }
    });
    await q.start();
    expect(q.reserve([{ definition: def, n: 5 }])).toBeNull();
    const first = await q.enqueue(def, { n: 1 });
    await vi.waitFor(async () => expect((await rowOf(first)).status).toBe('running'));
    // Queued behind the running one (one slot), one with a payload its schema now refuses.
    const later = [];
    for (const n of [2, 3, 4, 5, 6]) later.push(await q.enqueue(def, { n }));
    await sql`update jobs set payload = '{"n": "three"}'::jsonb where id = ${later[1]!}`.execute(database.db);
    release();
    await vi.waitFor(() => expect(takenByFailure).toHaveLength(2));
    // The next handler (5) took the one left (6); the failed handler's jobs wait for their leases.
    await vi.waitFor(() => expect(done).toEqual([[5, 6]]));
    // 2 and 4 were taken by the failed handler (3 refused): still running, leased to this worker.
    expect(takenByFailure).toEqual([later[0], later[2]]);
    for (const id of takenByFailure) expect(await rowOf(id)).toMatchObject({ status: 'running', lockedBy: expect.any(String) });
    // Their leases run out: they are claimed again and done.
    await sql`update jobs set locked_until = statement_timestamp() - interval '1 second' where id = any(${takenByFailure}::bigint[])`.execute(database.db);
    await vi.waitFor(async () => expect((await Promise.all(takenByFailure.map(rowOf))).map((r) => r.status)).toEqual(['completed', 'completed']));
    await q.waitForIdle();
    // Each job's work done once: 1's own batch failed (its taken jobs redone), 5 took 6.
    expect(done.flat().sort()).toEqual([2, 4, 5, 6]);
    const rows = await database.db.selectFrom('jobs').select(['status', 'lastError']).where('name', '=', def.name).orderBy('id').execute();
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed', 'failed', 'completed', 'completed', 'completed']);
    expect(rows[2]!.lastError).toMatch(/^Invalid payload/u);
  });

  it('wakes for a delayed job at its time, without polling', async () => {
    const def = job();
    const q = queue({ pollIntervalMs: 60_000 });
    let done = false;
    q.register(def, async () => {
      done = true;
    });
    await q.start();
    const id = await q.enqueue(def, { n: 1 }, { delayMs: 150 });
    expect((await rowOf(id)).status).toBe('queued');
    await eventually(() => done, 'the delayed job ran');
  });

  it('keeps one pending job per singleton key, and takes the key again once that job is done', async () => {
    const def = job();
    const q = queue();
    let runs = 0;
    q.register(def, async () => {
      runs += 1;
    });
    const first = await q.enqueue(def, { n: 1 }, { singletonKey: 'digest' });
    const duplicate = await q.enqueue(def, { n: 2 }, { singletonKey: 'digest' });
    const otherKey = await q.enqueue(def, { n: 3 }, { singletonKey: 'other' });
    expect(first).not.toBeNull();
    expect(duplicate).toBeNull();
    expect(otherKey).not.toBeNull();
    await q.start();
    await q.waitForIdle();
    expect(runs).toBe(2);
    expect(await q.enqueue(def, { n: 4 }, { singletonKey: 'digest' })).not.toBeNull();
  });

  it('waitForIdle waits for ready and running jobs, but not for jobs scheduled later', async () => {
    const def = job();
    const q = queue();
    const finished: number[] = [];
    q.register(def, async ({ n }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished.push(n);
    });
    await q.start();
    await Promise.all([1, 2, 3].map((n) => q.enqueue(def, { n })));
    await q.enqueue(def, { n: 99 }, { delayMs: 60_000 });
    await q.waitForIdle();
    expect(finished.sort()).toEqual([1, 2, 3]);
  });

  it('stop() lets running handlers finish and starts nothing afterwards, even with a claim in flight', async () => {
    const def = job();
    if (engine === 'postgres') {
      // Slow the claim down so stop() is called while it is in flight (PGlite runs one statement
      // at a time, so there the claim always finishes before stop() can look).
      await sql
        .raw(
          `create or replace function slow_claim() returns trigger language plpgsql as $$
           begin if new.name = '${def.name}' and new.status = 'running' then perform pg_sleep(0.2); end if; return new; end $$`,
        )
        .execute(database.db);
      await sql`create trigger slow_claim before update on jobs for each row execute function slow_claim()`.execute(database.db);
    }
    try {
      const q = queue({ concurrency: 1 });
      let startedAfterStop = 0;
      let stopped = false;
      q.register(def, async () => {
        if (stopped) startedAfterStop += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      await Promise.all(Array.from({ length: 4 }, (_, n) => q.enqueue(def, { n })));
      await q.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await q.stop();
      stopped = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(startedAfterStop).toBe(0);
      const running = await database.db.selectFrom('jobs').select('id').where('name', '=', def.name).where('status', '=', 'running').execute();
      expect(running).toEqual([]);
    } finally {
      if (engine === 'postgres') await sql`drop trigger slow_claim on jobs`.execute(database.db);
    }
  });

  it('a database error while recording a job outcome is logged, never left as an unhandled rejection', async () => {
    const def = job({ maxAttempts: 2, backoffMs: 1 });
    await sql
      .raw(
        `create or replace function refuse_outcome() returns trigger language plpgsql as $$
         begin if new.name = '${def.name}' and old.status = 'running' then raise exception 'database unavailable'; end if; return new; end $$`,
      )
      .execute(database.db);
    await sql`create trigger refuse_outcome before update on jobs for each row execute function refuse_outcome()`.execute(database.db);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const q = queue();
      let runs = 0;
      q.register(def, async () => {
        runs += 1;
      });
      await q.start();
      await q.enqueue(def, { n: 1 });
      await eventually(() => runs > 0, 'the job ran');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await q.stop();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await sql`drop trigger refuse_outcome on jobs`.execute(database.db);
    }
  });
});
