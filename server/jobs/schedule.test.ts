/**
 * Recurring jobs (schedule.ts): the periods' keys and bounds, and one run per period on both
 * engines whatever the number of instances — made up after a downtime, never on a first start.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, secondInstance, type TestDatabase } from '../../test/helpers/database';
import { JobQueue } from './queue';
import { defineRecurring, periodAt, periodOf, type RecurringDefinition, Scheduler } from './schedule';

const logger = pino({ level: 'silent' });

describe('periods', () => {
  it('a day is its UTC date, from midnight to midnight', () => {
    const day = periodAt('day', new Date('2026-11-28T23:59:59.999Z'));
    expect(day).toEqual({ key: '2026-11-28', start: new Date('2026-11-28T00:00:00Z'), end: new Date('2026-11-29T00:00:00Z') });
    expect(periodOf('day', '2026-11-28')).toEqual(day);
    expect(periodAt('day', new Date('2026-11-29T00:00:00Z')).key).toBe('2026-11-29');
  });

  it('a week is its ISO week, Monday to Monday, numbered in the year of its Thursday', () => {
    // 2026-11-28 is a Saturday of week 48.
    expect(periodAt('week', new Date('2026-11-28T12:00:00Z'))).toEqual({
      key: '2026-W48',
      start: new Date('2026-11-23T00:00:00Z'),
      end: new Date('2026-11-30T00:00:00Z'),
    });
    // 1 January 2026 is a Thursday: week 1 of 2026 begins on Monday 29 December 2025.
    expect(periodAt('week', new Date('2025-12-29T00:00:00Z')).key).toBe('2026-W01');
    expect(periodAt('week', new Date('2025-12-28T23:59:59Z')).key).toBe('2025-W52');
    // 1 January 2027 is a Friday: it belongs to week 53 of 2026.
    expect(periodAt('week', new Date('2027-01-01T00:00:00Z')).key).toBe('2026-W53');
    expect(periodAt('week', new Date('2027-01-04T00:00:00Z')).key).toBe('2027-W01');
  });

  it('every key names the period it came from', () => {
    for (let day = 0; day < 800; day += 3) {
      const at = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000 + 3_600_000);
      for (const every of ['day', 'week'] as const) {
        const period = periodAt(every, at);
        expect(periodOf(every, period.key)).toEqual(period);
        expect(period.start.getTime()).toBeLessThanOrEqual(at.getTime());
        expect(period.end.getTime()).toBeGreaterThan(at.getTime());
      }
    }
  });

  it('refuses a due minute outside the period', () => {
    expect(() => defineRecurring({ name: 'x', every: 'day', atMinute: 24 * 60 })).toThrow(/within one day/u);
    expect(() => defineRecurring({ name: 'x', every: 'week', atMinute: -1 })).toThrow(/within one week/u);
  });
});

describe.each(ENGINES)('recurring jobs (%s)', (engine) => {
  let database: TestDatabase;
  let second: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    second = await secondInstance(database);
  });

  afterAll(async () => {
    await second?.destroy();
    await database?.destroy();
  });

  /** An instance: its own queue (worker) and scheduler over `db`, with the handler counting runs. */
  async function instance(db: TestDatabase, definition: RecurringDefinition, runs: string[]) {
    const queue = new JobQueue(db, { logger, pollIntervalMs: 50 });
    const scheduler = new Scheduler({ db: db.db, queue, logger });
    scheduler.register(definition, async (period) => {
      runs.push(period.key);
      // Long enough for the other instance to try the same period while this one runs.
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    await queue.start();
    await scheduler.start();
    return { queue, scheduler };
  }

  const queued = (name: string) =>
    database.db.selectFrom('jobs').select(['payload', 'status', 'runAt']).where('name', '=', name).orderBy('id').execute();

  it('a first start waits for the next due time instead of running now', async () => {
    // Due at 00:00 UTC: always past today, so only "never ran before" keeps it from running now.
    const definition = defineRecurring({ name: `test.schedule.${randomUUID().slice(0, 8)}`, every: 'day', atMinute: 0 });
    const runs: string[] = [];
    const a = await instance(database, definition, runs);
    const b = await instance(second, definition, runs);
    try {
      const tomorrow = periodAt('day', periodAt('day', new Date()).end);
      const jobs = await queued(definition.job.name);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ payload: { period: tomorrow.key }, status: 'queued' });
      expect(new Date(jobs[0]!.runAt).getTime()).toBe(tomorrow.start.getTime());
      expect(runs).toEqual([]);
    } finally {
      await Promise.all([a.queue.stop(), b.queue.stop()]);
    }
  });

  it('a period missed while every instance was down runs once, however many instances start, and not again on restart', async () => {
    const definition = defineRecurring({ name: `test.schedule.${randomUUID().slice(0, 8)}`, every: 'day', atMinute: 0 });
    const today = periodAt('day', new Date());
    const yesterday = periodAt('day', new Date(today.start.getTime() - 1));
    await database.db.insertInto('scheduledRuns').values({ name: definition.job.name, period: yesterday.key }).execute();

    const runs: string[] = [];
    const a = await instance(database, definition, runs);
    const b = await instance(second, definition, runs);
    const deadline = Date.now() + 10_000;
    while ((await a.scheduler.runs(definition.job.name)).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([a.queue.waitForIdle(), b.queue.waitForIdle()]);
    // Both instances restart: the day has run, so only tomorrow's run is queued.
    const c = await instance(database, definition, runs);
    const d = await instance(second, definition, runs);
    try {
      expect(runs).toEqual([today.key]);
      expect((await a.scheduler.runs(definition.job.name)).map((r) => r.period)).toEqual([today.key, yesterday.key]);
      const tomorrow = periodAt('day', today.end);
      const waiting = (await queued(definition.job.name)).filter((j) => j.status === 'queued');
      expect(waiting.map((j) => j.payload)).toEqual([{ period: tomorrow.key }]);
    } finally {
      await Promise.all([a, b, c, d].map((i) => i.queue.stop()));
    }
  });

  it('a run of an earlier period (by hand, or retried late) does not make up the current one', async () => {
    const definition = defineRecurring({ name: `test.schedule.${randomUUID().slice(0, 8)}`, every: 'day', atMinute: 0 });
    const runs: string[] = [];
    const a = await instance(database, definition, runs);
    try {
      await a.queue.enqueue(definition.job, { period: '2020-01-01' });
      await a.queue.waitForIdle();
      expect(runs).toEqual(['2020-01-01']);
      const tomorrow = periodAt('day', periodAt('day', new Date()).end);
      expect((await queued(definition.job.name)).filter((j) => j.status === 'queued').map((j) => j.payload)).toEqual([{ period: tomorrow.key }]);
    } finally {
      await a.queue.stop();
    }
  });

  it('a run queued for a period that already ran does not run it again', async () => {
    const definition = defineRecurring({ name: `test.schedule.${randomUUID().slice(0, 8)}`, every: 'week', atMinute: 0 });
    const week = periodAt('week', new Date());
    await database.db.insertInto('scheduledRuns').values({ name: definition.job.name, period: week.key }).execute();
    const runs: string[] = [];
    const a = await instance(database, definition, runs);
    try {
      // A duplicate of this week's run (an instance that read the table before the run was recorded).
      await a.queue.enqueue(definition.job, { period: week.key });
      await a.queue.waitForIdle();
      expect(runs).toEqual([]);
      const next = periodAt('week', week.end);
      expect((await queued(definition.job.name)).filter((j) => j.status === 'queued').map((j) => j.payload)).toEqual([{ period: next.key }]);
    } finally {
      await a.queue.stop();
    }
  });
});
