/**
 * Recurring jobs: work that runs once per period — a UTC day or an ISO week (Monday to Sunday,
 * UTC) — at a set minute into it, across every instance that shares the database.
 *
 * - A period's run is an ordinary job (`JobQueue`), payload `{ period }` (`2026-11-28`,
 *   `2026-W48`), enqueued with the period as its singleton key: while it is queued or running no
 *   instance can queue it again.
 * - When its handler succeeds, `scheduled_runs` records (name, period) and the next period's run is
 *   queued for its time. An instance that starts later reads that row and does not run the period
 *   again; a failed run is retried by the queue (its retry policy), then left for the next period.
 * - On start each instance makes sure the next run is queued. A run missed while every instance
 *   was down is made up at once — but only for a schedule that has run before: a new installation
 *   (or a new schedule) waits for its first due time instead of running at start.
 *
 * The handler gets the period (key, start, end); what it covers — the period itself, or the one
 * before it (yesterday's report, sent this morning) — is the handler's business.
 *
 * Time is the system's, never a service's injectable clock: the queue starts a job when the
 * database's clock passes its `run_at`, so a schedule computed from a clock set back (a test's)
 * would find every period due at once.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { DB } from '../db/schema';
import { defineJob, type JobContext, type JobDefinition } from './define-job';
import type { JobQueue } from './queue';

export type Cadence = 'day' | 'week';

export interface Period {
  /** `YYYY-MM-DD` for a day, ISO `YYYY-Www` for a week. */
  readonly key: string;
  /** The period's first instant (00:00 UTC; a week: Monday). */
  readonly start: Date;
  /** The next period's first instant. */
  readonly end: Date;
}

const DAY_MS = 24 * 60 * 60_000;
const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/u;
const WEEK_KEY = /^(\d{4})-W(\d{2})$/u;

const periodPayload = z.object({ period: z.string().regex(/^\d{4}-(\d{2}-\d{2}|W\d{2})$/u, 'a day (YYYY-MM-DD) or an ISO week (YYYY-Www)') });

export interface RecurringDefinition {
  readonly job: JobDefinition<typeof periodPayload>;
  readonly every: Cadence;
  /** Minutes after the period starts (UTC) when its run is due: 7 × 60 runs a day's at 07:00 UTC. */
  readonly atMinute: number;
}

/** A recurring job: its name, cadence, due minute and the queue's retry policy for one run. */
export function defineRecurring(options: {
  name: string;
  every: Cadence;
  atMinute?: number;
  maxAttempts?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
}): RecurringDefinition {
  const { name, every, atMinute = 0, ...policy } = options;
  const length = every === 'day' ? 24 * 60 : 7 * 24 * 60;
  if (!Number.isInteger(atMinute) || atMinute < 0 || atMinute >= length) throw new Error(`atMinute must be a whole minute within one ${every}`);
  return { job: defineJob({ name, payload: periodPayload, ...policy }), every, atMinute };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The period of `every` that contains `at`. */
export function periodAt(every: Cadence, at: Date): Period {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  if (every === 'day') {
    const start = new Date(day);
    return { key: `${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}-${pad(start.getUTCDate())}`, start, end: new Date(day + DAY_MS) };
  }
  // ISO week: starts on Monday; its year is the year of its Thursday.
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  const start = new Date(day - weekday * DAY_MS);
  const thursday = new Date(start.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { key: `${year}-W${pad(week)}`, start, end: new Date(start.getTime() + 7 * DAY_MS) };
}

/** The period a key names (the inverse of `periodAt(…).key`). */
export function periodOf(every: Cadence, key: string): Period {
  if (every === 'day') {
    if (!DAY_KEY.test(key)) throw new Error(`Not a day: ${key}`);
    return periodAt('day', new Date(`${key}T00:00:00Z`));
  }
  const match = WEEK_KEY.exec(key);
  if (!match) throw new Error(`Not an ISO week: ${key}`);
  // 4 January is always in week 1.
  const week1 = periodAt('week', new Date(Date.UTC(Number(match[1]), 0, 4)));
  return periodAt('week', new Date(week1.start.getTime() + (Number(match[2]) - 1) * 7 * DAY_MS));
}

const dueAt = (definition: RecurringDefinition, period: Period) => new Date(period.start.getTime() + definition.atMinute * 60_000);

export type RecurringHandler = (period: Period, context: JobContext) => Promise<void>;

interface Registered {
  definition: RecurringDefinition;
}

export class Scheduler {
  readonly #db: Kysely<DB>;
  readonly #queue: JobQueue;
  readonly #logger: Logger;
  readonly #schedules = new Map<string, Registered>();

  constructor(deps: { db: Kysely<DB>; queue: JobQueue; logger: Logger }) {
    this.#db = deps.db;
    this.#queue = deps.queue;
    this.#logger = deps.logger.child({ component: 'schedule' });
  }

  /** Registers the recurring job's handler with the queue; `start` queues its next run. */
  register(definition: RecurringDefinition, handler: RecurringHandler): void {
    const name = definition.job.name;
    if (this.#schedules.has(name)) throw new Error(`Schedule ${name} is already registered`);
    this.#schedules.set(name, { definition });
    this.#queue.register(definition.job, async ({ period: key }, context) => {
      const period = periodOf(definition.every, key);
      if (!(await this.#ran(name, key))) {
        await handler(period, context);
        await this.#db.insertInto('scheduledRuns').values({ name, period: key }).onConflict((oc) => oc.doNothing()).execute();
      }
      await this.#queueNext(definition, false);
    });
  }

  /** Queues the next run of every registered schedule (each instance, at start; idempotent). */
  async start(): Promise<void> {
    for (const { definition } of this.#schedules.values()) await this.#queueNext(definition, true);
  }

  /** The periods of `name` that ran, newest first (tests, the CLI). */
  async runs(name: string, limit = 10): Promise<{ period: string; ranAt: Date }[]> {
    return this.#db.selectFrom('scheduledRuns').select(['period', 'ranAt']).where('name', '=', name).orderBy('period', 'desc').limit(limit).execute();
  }

  async #ran(name: string, period: string): Promise<boolean> {
    const row = await this.#db.selectFrom('scheduledRuns').select('period').where('name', '=', name).where('period', '=', period).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The current period's run when it has not run and is not yet due; else the next period's. At
   * start (`makeUp`), a current period already past its due time is run now if the schedule ran
   * before (made up after a downtime) — never on a schedule's very first start, and never after a
   * run (a run of an earlier period, made by hand or retried late, does not make up today's).
   */
  async #queueNext(definition: RecurringDefinition, makeUp: boolean): Promise<void> {
    const name = definition.job.name;
    const now = new Date();
    const current = periodAt(definition.every, now);
    const due = dueAt(definition, current);
    // Keys sort as their periods do (zero-padded days, ISO weeks).
    const latest = await this.#db.selectFrom('scheduledRuns').select('period').where('name', '=', name).orderBy('period', 'desc').limit(1).executeTakeFirst();
    let period: Period;
    let runAt: Date;
    if (latest && latest.period >= current.key) {
      period = periodAt(definition.every, periodOf(definition.every, latest.period).end);
      runAt = dueAt(definition, period);
    } else if (now < due) {
      period = current;
      runAt = due;
    } else if (latest && makeUp) {
      period = current;
      runAt = now;
    } else {
      period = periodAt(definition.every, current.end);
      runAt = dueAt(definition, period);
    }
    const id = await this.#queue.enqueue(definition.job, { period: period.key }, { runAt, singletonKey: period.key });
    if (id !== null) this.#logger.debug({ schedule: name, period: period.key, runAt }, 'recurring run queued');
  }
}
