/**
 * Durable background jobs on the application's own PostgreSQL (PGlite or server).
 *
 * - Enqueue is an INSERT plus pg_notify in the caller's transaction: a job exists exactly when the
 *   work that asked for it committed, and the NOTIFY is delivered only on commit.
 * - Workers claim with `FOR UPDATE SKIP LOCKED`, so any number of workers in any number of
 *   processes share the table without taking the same job.
 * - A claimed job holds a lease (`locked_until`) of its own type's length (`leaseMsFor`: its timeout
 *   plus a little, at most `MAX_LEASE_MS`), renewed by a heartbeat — one statement per instance
 *   for all the jobs it runs — while the handler runs. If its process dies, the job becomes
 *   claimable again when the lease ends (within `MAX_LEASE_MS`), so work survives crashes and
 *   restarts without waiting for the longest job type's timeout.
 * - LISTEN/NOTIFY wakes an idle worker within milliseconds of a commit; a slow poll covers missed
 *   notifications and delayed retries.
 *
 * Why not pg-boss: it only polls (≥ 0.5 s pickup), and the reply path has a latency budget
 * (docs/ARCHITECTURE.md, "Jobs").
 */
import { hostname } from 'node:os';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import {
  type JobContext,
  type JobDefinition,
  type JobHandler,
  type JobPayload,
  type JobPayloadInput,
  PermanentJobError,
  RetryLaterError,
} from './define-job';

export interface EnqueueOptions {
  /** Enqueue inside this transaction (or connection); defaults to the queue's database. */
  db?: Kysely<DB>;
  /** Run no earlier than this. */
  runAt?: Date;
  delayMs?: number;
  /** At most one queued-or-running job per (name, key); a duplicate enqueue is ignored. */
  singletonKey?: string;
}

export interface JobQueueOptions {
  logger: Logger;
  concurrency?: number;
  /**
   * While this says so, no new job starts here — except one after `MAX_PAUSE_MS` without any, so
   * work is never starved. Lets what the process must answer first (a burst of webhook
   * deliveries) keep the CPU; the backlog is worked through once the burst has passed, or by
   * other instances (jobs inserted meanwhile are queued, not claimed here).
   */
  pause?: () => boolean;
  /** While paused, one job still starts after this long without any (default `MAX_PAUSE_MS`). */
  maxPauseMs?: number;
  /** Fallback poll when no notification arrives (default 1000 ms). */
  pollIntervalMs?: number;
  /**
   * Wake on LISTEN/NOTIFY (default true). `false` leaves only the poll: the polling-only baseline
   * `npm run bench` measures pickup latency against.
   */
  listen?: boolean;
  workerId?: string;
  /** How often the leases of the jobs running here are renewed (default `HEARTBEAT_MS`). */
  heartbeatMs?: number;
}

interface Registered {
  definition: JobDefinition;
  handler: JobHandler<JobDefinition>;
}

export interface ClaimedRow {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  /** A locally claimed job's hint read by the database (`JobDefinition.localHint`). */
  hint?: unknown;
}

/**
 * Slots of this instance held for jobs that the code about to insert them may insert already
 * claimed (status running, locked by this worker), to run here as soon as the insert committed:
 * no claim statement, no wake-up, and the inserting code can hand the handler what it already
 * has in memory. If this process dies, such a job is like any claimed one: its lease runs out (or
 * the next start recovers it, `recoverOrphans`) and it runs again.
 */
export interface LocalClaim {
  readonly workerId: string;
  /** Job name → slots still held and the lease to take (`own`: of the job's `localSlots`, not the queue's). */
  readonly slots: Record<string, { n: number; leaseMs: number; hint?: string; own?: boolean }>;
}

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BACKOFF_MS = 1_000;
const DEFAULT_MAX_BACKOFF_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 60_000;
/** A lease outlasts its job's timeout by this much (the handler is aborted at the timeout). */
const LEASE_GRACE_MS = 5_000;
/**
 * No lease is longer: a job of a dead instance is claimed again at most this long after its last
 * heartbeat. Jobs that may run longer (training) keep theirs by the heartbeat.
 */
export const MAX_LEASE_MS = 30_000;
/** Leases of running jobs are renewed this often: two beats may be missed before one lapses. */
export const HEARTBEAT_MS = 10_000;
const CLEANUP_EVERY_MS = 10 * 60_000;
/** While paused (JobQueueOptions.pause), one job still starts after this long without any. */
export const MAX_PAUSE_MS = 2_000;
/** While paused with nothing running, how often the queue looks whether the pause has ended. */
const PAUSE_RECHECK_MS = 50;

export class JobQueue {
  readonly #database: Database;
  readonly #logger: Logger;
  readonly #concurrency: number;
  readonly #pause: (() => boolean) | undefined;
  readonly #maxPauseMs: number;
  /** performance.now() of the last job started here. */
  #lastStart = 0;
  readonly #pollIntervalMs: number;
  readonly #listen: boolean;
  readonly #workerId: string;
  readonly #jobs = new Map<string, Registered>();
  /** Names of the jobs whose payload is erased once they are done (`erasePayloadWhenDone`). */
  readonly #erasedWhenDone: string[] = [];
  /** Handlers running here that hold a slot. */
  readonly #running = new Set<Promise<void>>();
  /** Handlers running here that gave their slot back (`JobContext.detach`). */
  readonly #detached = new Set<Promise<void>>();
  /** Id → name of the jobs whose handlers run here now (the heartbeat renews their leases). */
  readonly #runningJobs = new Map<number, string>();
  readonly #heartbeatMs: number;
  #heartbeatTimer: NodeJS.Timeout | undefined;
  /** `#leasesJson()`, computed once the jobs are registered. */
  #leases: string | undefined;
  #started = false;
  #stopping = false;
  #claiming = false;
  #claimAgain = false;
  /**
   * A wake-up found every slot busy (or claimed a full batch): there may be work waiting, so the
   * next finished job claims again. Otherwise a finished job claims nothing — new work announces
   * itself by NOTIFY, and the poll covers the rest — which saves an (usually empty) claim per job.
   */
  #mayHaveWork = false;
  /** The claim loop running now, if any: stop() waits for it, as it may still start jobs. */
  #claimLoopDone: Promise<void> = Promise.resolve();
  /** Slots held by outstanding `reserve` calls. */
  #reserved = 0;
  /** Per job name with `localSlots`: its own slots held by `reserve` calls and running. */
  readonly #ownSlots = new Map<string, { reserved: number; running: number }>();
  /** Jobs whose handler finished, completed together by one statement per turn of the event loop. */
  #toComplete: number[] = [];
  #completing: Promise<void> | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #wakeTimers = new Set<NodeJS.Timeout>();
  #pauseTimer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #lastCleanup = 0;

  constructor(database: Database, options: JobQueueOptions) {
    this.#database = database;
    this.#logger = options.logger.child({ component: 'jobs' });
    this.#concurrency = options.concurrency ?? 8;
    this.#pause = options.pause;
    this.#maxPauseMs = options.maxPauseMs ?? MAX_PAUSE_MS;
    // A queue paused from its start waits `maxPauseMs` like one that has just started a job.
    this.#lastStart = performance.now();
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#listen = options.listen ?? true;
    this.#heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.#workerId = options.workerId ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  }

  get channel(): string {
    return this.#database.channel('parley_jobs');
  }

  register<J extends JobDefinition>(definition: J, handler: JobHandler<J>): void {
    if (this.#jobs.has(definition.name)) throw new Error(`Job ${definition.name} is already registered`);
    this.#jobs.set(definition.name, { definition, handler: handler });
    this.#leases = undefined;
    if (definition.erasePayloadWhenDone) this.#erasedWhenDone.push(definition.name);
  }

  /** Adds a job. Returns its id, or null when a singleton with the same key is already pending. */
  async enqueue<J extends JobDefinition>(
    definition: J,
    payload: JobPayloadInput<J>,
    options: EnqueueOptions = {},
  ): Promise<number | null> {
    // Validate on the way in: a bad payload is a programming error and must not reach the table.
    const parsed: unknown = definition.payload.parse(payload);
    const db = options.db ?? this.#database.db;
    const runAt = options.runAt ?? (options.delayMs ? new Date(Date.now() + options.delayMs) : undefined);
    const notice = JSON.stringify({ name: definition.name, runAt: runAt?.toISOString() });
    const result = await sql<{ id: number }>`
      with inserted as (
        insert into jobs (name, payload, max_attempts, run_at, singleton_key)
        values (
          ${definition.name},
          ${JSON.stringify(parsed)}::jsonb,
          ${definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS},
          coalesce(${runAt?.toISOString() ?? null}::timestamptz, statement_timestamp()),
          ${options.singletonKey ?? null}
        )
        on conflict (name, singleton_key) where singleton_key is not null and status in ('queued', 'running')
        do nothing
        returning id
      )
      select id, pg_notify(${this.channel}, ${notice}) from inserted`.execute(db);
    return result.rows[0]?.id ?? null;
  }

  /**
   * Adds one job per payload in ONE statement (and one wake-up NOTIFY): many jobs of one kind made
   * in one transaction (an event starting hundreds of automations). No singleton keys. Returns how
   * many were added.
   */
  async enqueueMany<J extends JobDefinition>(
    definition: J,
    payloads: readonly JobPayloadInput<J>[],
    options: Omit<EnqueueOptions, 'singletonKey'> = {},
  ): Promise<number> {
    if (payloads.length === 0) return 0;
    const parsed = payloads.map((payload) => JSON.stringify(definition.payload.parse(payload)));
    const db = options.db ?? this.#database.db;
    const runAt = options.runAt ?? (options.delayMs ? new Date(Date.now() + options.delayMs) : undefined);
    const notice = JSON.stringify({ name: definition.name, runAt: runAt?.toISOString() });
    const result = await sql<{ n: number }>`
      with inserted as (
        insert into jobs (name, payload, max_attempts, run_at)
        select ${definition.name}, p::jsonb, ${definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS},
          coalesce(${runAt?.toISOString() ?? null}::timestamptz, statement_timestamp())
        from unnest(${parsed}::text[]) as p
        returning id
      )
      select count(*)::int as n, pg_notify(${this.channel}, ${notice}) from inserted`.execute(db);
    return result.rows[0]?.n ?? 0;
  }

  /**
   * The tail of one SQL statement that inserts a job and its wake-up NOTIFY: `insert into jobs …
   * select <payload> from <source> returning …`, for a statement whose CTEs wrote the rows the job
   * is about (`with stored as (insert … returning id) <this>`). Rows and job then commit together
   * as one statement — atomic without a transaction, one round trip instead of four (the webhook
   * group commit). `payload` is a jsonb expression over `source` (an aggregate of its ids, say)
   * that cannot be checked before it exists: it must produce what the job's schema accepts, and
   * the worker's parse fails the job otherwise. With a `local` claim holding a slot for the job,
   * it is inserted claimed by this instance (then run it with `runLocal`).
   */
  insertJobSql(definition: JobDefinition, source: string, payload: RawBuilder<unknown>, local: LocalClaim | null = null): RawBuilder<ClaimedRow & { status: string }> {
    const notice = JSON.stringify({ name: definition.name });
    const slot = local?.slots[definition.name];
    const claimed = slot !== undefined && slot.n > 0;
    return sql<ClaimedRow & { status: string }>`
      insert into jobs (name, payload, max_attempts, run_at, status, attempts, locked_by, locked_until)
      select ${definition.name}, ${payload}, ${definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}, statement_timestamp(),
        ${claimed ? 'running' : 'queued'}, ${claimed ? 1 : 0}, ${claimed ? (local?.workerId ?? null) : null},
        ${claimed ? sql`statement_timestamp() + ${slot.leaseMs} * interval '1 millisecond'` : sql`null`}
      from ${sql.table(source)}
      returning id, name, payload, attempts, max_attempts as "maxAttempts", status,
        case when status = 'queued' then pg_notify(${this.channel}, ${notice}) end as notified`;
  }

  /** Jobs that may run now: the concurrency, or while paused none (one now and then). */
  #limit(): number {
    if (!this.#pause?.()) return this.#concurrency;
    return performance.now() - this.#lastStart >= this.#maxPauseMs ? Math.min(this.#concurrency, this.#running.size + this.#reserved + 1) : 0;
  }

  #leaseMs(definition: JobDefinition): number {
    return leaseMsFor(definition);
  }

  /** Registered job name → its lease in ms, as JSON for the claim and heartbeat statements. */
  #leasesJson(): string {
    return (this.#leases ??= JSON.stringify(Object.fromEntries([...this.#jobs].map(([name, { definition }]) => [name, this.#leaseMs(definition)]))));
  }

  /**
   * Holds up to `n` free slots per definition for jobs about to be inserted already claimed by
   * this instance (`LocalClaim`). Null when this instance runs none of them now (no workers, not
   * started, stopping, or every slot busy): the jobs are then inserted queued, for any instance.
   */
  reserve(wanted: readonly { definition: JobDefinition; n: number }[]): LocalClaim | null {
    if (!this.#started || this.#stopping) return null;
    let free = this.#limit() - this.#running.size - this.#reserved;
    const slots: Record<string, { n: number; leaseMs: number; hint?: string; own?: boolean }> = {};
    let total = 0;
    for (const { definition, n } of wanted) {
      if (!this.#jobs.has(definition.name) || definition.batched) continue;
      if (definition.localSlots !== undefined) {
        const own = this.#own(definition.name);
        const take = Math.min(n, definition.localSlots - own.reserved - own.running);
        if (take <= 0) continue;
        slots[definition.name] = { n: take, leaseMs: this.#leaseMs(definition), own: true, ...(definition.localHint ? { hint: definition.localHint } : {}) };
        own.reserved += take;
        continue;
      }
      if (free <= 0) continue;
      const take = Math.min(n, free);
      if (take <= 0) continue;
      slots[definition.name] = { n: take, leaseMs: this.#leaseMs(definition), ...(definition.localHint ? { hint: definition.localHint } : {}) };
      free -= take;
      total += take;
    }
    if (Object.keys(slots).length === 0) return null;
    this.#reserved += total;
    return { workerId: this.#workerId, slots };
  }

  /**
   * Runs jobs inserted already claimed under `claim` (their insert committed), each with what the
   * inserting code holds for it, then gives back the slots left over.
   */
  runLocal(claim: LocalClaim | null, rows: readonly ClaimedRow[], hint?: (row: ClaimedRow) => unknown): void {
    if (!claim) return;
    for (const row of rows) {
      const slot = claim.slots[row.name];
      if (!slot || slot.n <= 0) {
        this.#logger.error({ job: row.name, jobId: row.id }, 'a locally claimed job had no reserved slot');
        continue;
      }
      slot.n -= 1;
      if (slot.own) this.#own(row.name).reserved -= 1;
      else this.#reserved -= 1;
      this.#run(row, hint?.(row) ?? row.hint, slot.own === true);
    }
    this.release(claim);
  }

  /**
   * For the handler of a `batched` job: claims up to `limit` other queued jobs of its kind that are
   * due, for this worker, in one short statement of its own (as the queue claims jobs: running,
   * leased) — so that nothing waits on the handler's longer transaction (a coalesced job's key is
   * free again at once). The handler does their work and completes them with `completeTaken` in its
   * transaction; if it fails, their leases run out and they are claimed again like any job. A
   * payload its schema refuses is marked failed, as a claimed job's would be, and not returned.
   */
  async takeQueued<J extends JobDefinition>(definition: J, limit: number): Promise<{ id: number; payload: JobPayload<J> }[]> {
    if (limit <= 0) return [];
    const { rows } = await sql<{ id: string | number; payload: unknown }>`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${this.#workerId},
        locked_until = statement_timestamp() + ${this.#leaseMs(definition)} * interval '1 millisecond', updated_at = statement_timestamp()
      where id in (
        select id from jobs
        where name = ${definition.name} and status = 'queued' and run_at <= statement_timestamp()
        order by run_at, id
        limit ${limit}
        for update skip locked)
      returning id, payload`.execute(this.#database.db);
    const taken: { id: number; payload: JobPayload<J> }[] = [];
    for (const row of rows) {
      const parsed = definition.payload.safeParse(row.payload);
      if (parsed.success) {
        taken.push({ id: Number(row.id), payload: parsed.data as JobPayload<J> });
        continue;
      }
      this.#logger.error({ job: definition.name, jobId: row.id }, 'a queued job had an invalid payload');
      await sql`
        update jobs set status = 'failed', last_error = ${`Invalid payload: ${parsed.error.message}`}, completed_at = statement_timestamp(),
          locked_by = null, locked_until = null, updated_at = statement_timestamp()
        where id = ${row.id} and locked_by = ${this.#workerId}`.execute(this.#database.db);
    }
    return taken.sort((a, b) => a.id - b.id);
  }

  /** Completes jobs `takeQueued` claimed, in the handler's transaction `trx` (with its work). */
  async completeTaken(trx: Kysely<DB>, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await sql`
      update jobs set status = 'completed', completed_at = statement_timestamp(), updated_at = statement_timestamp(),
        locked_by = null, locked_until = null, last_error = null, ${this.#erasedPayload()}
      where id = any(${[...ids]}::bigint[]) and locked_by = ${this.#workerId}`.execute(trx);
  }

  /** Gives back what is left of a reservation (the insert failed, or claimed fewer jobs). */
  release(claim: LocalClaim | null): void {
    if (!claim) return;
    for (const [name, slot] of Object.entries(claim.slots)) {
      if (slot.own) this.#own(name).reserved -= slot.n;
      else this.#reserved -= slot.n;
      slot.n = 0;
    }
    if (this.#mayHaveWork) this.#wake();
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#stopping = false;
    await this.recoverOrphans().catch((error: unknown) => this.#logger.warn({ err: error }, 'recovering orphaned jobs failed'));
    if (this.#listen) this.#unlisten = await this.#database.listen(this.channel, (payload) => this.#onNotify(payload));
    this.#schedulePoll();
    this.#scheduleHeartbeat();
    this.#wake();
  }

  #scheduleHeartbeat(): void {
    this.#heartbeatTimer = setTimeout(() => {
      this.heartbeat()
        .catch((error: unknown) => this.#logger.warn({ err: error }, 'renewing job leases failed'))
        .finally(() => {
          if (this.#started && !this.#stopping) this.#scheduleHeartbeat();
        });
    }, this.#heartbeatMs);
  }

  /**
   * Renews the lease of every job running here, each by its own type's lease, in one statement.
   * Returns how many were renewed (a job another worker took over meanwhile is not).
   */
  async heartbeat(): Promise<number> {
    if (this.#runningJobs.size === 0) return 0;
    const result = await sql`
      update jobs set locked_until = statement_timestamp() + (${this.#leasesJson()}::jsonb ->> name)::bigint * interval '1 millisecond'
      where id = any(${[...this.#runningJobs.keys()]}::bigint[]) and locked_by = ${this.#workerId} and status = 'running'`.execute(
      this.#database.db,
    );
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Jobs a dead process held are queued again at once instead of when their lease ends: those of
   * a process of this host that no longer exists, and on PGlite also another host's (only one
   * process can open its data directory). Other hosts' jobs on PostgreSQL are left to their leases.
   */
  async recoverOrphans(): Promise<number> {
    const { rows } = await sql<{ lockedBy: string }>`
      select distinct locked_by from jobs where status = 'running' and locked_by is not null`.execute(this.#database.db);
    const host = hostname();
    const orphans = rows
      .map((r) => r.lockedBy)
      .filter((worker) => {
        if (worker === this.#workerId) return false;
        const [workerHost, pid] = worker.split(':');
        if (workerHost !== host) return this.#database.engine === 'pglite';
        return pid !== undefined && /^\d+$/u.test(pid) && !processAlive(Number(pid));
      });
    if (orphans.length === 0) return 0;
    const result = await sql`
      update jobs set status = 'queued', locked_by = null, locked_until = null, updated_at = statement_timestamp()
      where status = 'running' and locked_by = any(${orphans}::text[])`.execute(this.#database.db);
    const n = Number(result.numAffectedRows ?? 0);
    if (n > 0) this.#logger.info({ jobs: n }, 'jobs of a stopped process queued again');
    return n;
  }

  /** Stops claiming and waits for running handlers (up to `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#started) return;
    this.#stopping = true;
    clearTimeout(this.#pollTimer);
    clearTimeout(this.#heartbeatTimer);
    for (const t of this.#wakeTimers) clearTimeout(t);
    this.#wakeTimers.clear();
    clearTimeout(this.#pauseTimer);
    this.#pauseTimer = undefined;
    await this.#unlisten?.();
    this.#unlisten = undefined;
    await this.#claimLoopDone;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#running, ...this.#detached]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.#started = false;
  }

  /**
   * Resolves when no job of a registered name is ready or running (tests, CLI). Jobs scheduled
   * for later do not count.
   */
  async waitForIdle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const names = [...this.#jobs.keys()];
    for (;;) {
      if (this.#running.size === 0 && this.#detached.size === 0 && this.#reserved === 0 && [...this.#ownSlots.values()].every((o) => o.reserved === 0)) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from jobs
          where name = any(${names}::text[])
            and ((status = 'queued' and run_at <= statement_timestamp()) or status = 'running')`.execute(
          this.#database.db,
        );
        if ((rows[0]?.n ?? 0) === 0 && this.#running.size === 0 && this.#detached.size === 0) return;
      }
      if (Date.now() > deadline) throw new Error('Jobs did not become idle in time');
      this.#wake();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  #onNotify(payload: string): void {
    let runAt: string | undefined;
    let name: string | undefined;
    try {
      ({ name, runAt } = JSON.parse(payload) as { name?: string; runAt?: string });
    } catch {
      // an unknown payload still means "look at the table"
    }
    if (name !== undefined && !this.#jobs.has(name)) return;
    const delay = runAt ? new Date(runAt).getTime() - Date.now() : 0;
    if (delay > 0) this.#wakeAfter(delay);
    else this.#wake();
  }

  #wakeAfter(ms: number): void {
    const timer = setTimeout(() => {
      this.#wakeTimers.delete(timer);
      this.#wake();
    }, ms + 1);
    this.#wakeTimers.add(timer);
  }

  #schedulePoll(): void {
    this.#pollTimer = setTimeout(() => {
      this.#wake();
      this.#cleanupIfDue();
      if (!this.#stopping) this.#schedulePoll();
    }, this.#pollIntervalMs);
  }

  /** Claims as many jobs as there are free slots; coalesces concurrent wake-ups. */
  #wake(): void {
    if (this.#stopping || !this.#started) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    this.#claiming = true;
    this.#claimLoopDone = this.#claimLoop().finally(() => {
      this.#claiming = false;
    });
  }

  async #claimLoop(): Promise<void> {
    do {
      this.#claimAgain = false;
      const free = this.#limit() - this.#running.size - this.#reserved;
      if (this.#jobs.size === 0) return;
      if (free <= 0) {
        this.#mayHaveWork = true;
        // Paused: look again soon rather than at the next poll, so work resumes as the pause ends.
        if (this.#pause && this.#running.size === 0 && this.#pauseTimer === undefined) {
          this.#pauseTimer = setTimeout(() => {
            this.#pauseTimer = undefined;
            this.#wake();
          }, PAUSE_RECHECK_MS);
        }
        return;
      }
      this.#mayHaveWork = false;
      let rows: ClaimedRow[];
      try {
        rows = await this.#claim(free);
      } catch (error) {
        this.#logger.error({ err: error }, 'claiming jobs failed');
        return;
      }
      for (const row of rows) this.#run(row);
      if (rows.length === free) this.#claimAgain = true;
    } while (this.#claimAgain && !this.#stopping);
  }

  async #claim(limit: number): Promise<ClaimedRow[]> {
    const names = [...this.#jobs.keys()];
    // Each job is leased by its own type (a send for 30 s, not for the longest type's timeout).
    const { rows } = await sql<ClaimedRow>`
      update jobs set
        status = 'running',
        attempts = attempts + 1,
        locked_by = ${this.#workerId},
        locked_until = statement_timestamp() + (${this.#leasesJson()}::jsonb ->> name)::bigint * interval '1 millisecond',
        updated_at = statement_timestamp()
      where id in (
        select id from jobs
        where name = any(${names}::text[])
          and ((status = 'queued' and run_at <= statement_timestamp())
            or (status = 'running' and locked_until < statement_timestamp()))
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      returning id, name, payload, attempts, max_attempts as "maxAttempts"`.execute(this.#database.db);
    return rows;
  }

  #own(name: string): { reserved: number; running: number } {
    let own = this.#ownSlots.get(name);
    if (!own) this.#ownSlots.set(name, (own = { reserved: 0, running: 0 }));
    return own;
  }

  /** `ownSlot`: a job run where it was inserted in one of its kind's `localSlots`, not a shared slot. */
  #run(row: ClaimedRow, hint?: unknown, ownSlot = false): void {
    this.#lastStart = performance.now();
    this.#runningJobs.set(row.id, row.name);
    if (ownSlot) this.#own(row.name).running += 1;
    // The handler may detach before `task` exists (synchronously, as it starts).
    const slot: { task?: Promise<void> } = {};
    let detached = false;
    const detach = (): void => {
      if (detached) return;
      detached = true;
      if (slot.task && this.#running.delete(slot.task)) {
        this.#detached.add(slot.task);
        // As when a job finishes: claim only if a wake-up found every slot busy.
        if (this.#mayHaveWork) this.#wake();
      }
    };
    const started = this.#execute(row, hint, detach)
      .catch((error: unknown) => {
        // The outcome could not be recorded (the database is unreachable, say). The lease runs out
        // and the job is claimed again; an unhandled rejection would crash the whole process.
        this.#logger.error({ err: error, job: row.name, jobId: row.id }, 'recording the outcome of a job failed');
      })
      .finally(() => {
        this.#runningJobs.delete(row.id);
        this.#running.delete(started);
        this.#detached.delete(started);
        if (ownSlot) this.#own(row.name).running -= 1;
        if (this.#mayHaveWork) this.#wake();
      });
    slot.task = started;
    // A job in a slot of its own holds none of the shared ones: as if detached from the start.
    if (ownSlot) detached = true;
    if (detached) {
      this.#detached.add(started);
      if (this.#mayHaveWork) this.#wake();
    } else {
      this.#running.add(started);
    }
  }

  async #execute(row: ClaimedRow, hint: unknown, detach: () => void): Promise<void> {
    const registered = this.#jobs.get(row.name);
    if (!registered) return;
    const { definition, handler } = registered;
    // Only failures log: a child logger per job would cost every job on the reply path.
    const log = () => this.#logger.child({ job: row.name, jobId: row.id, attempt: row.attempts });
    if (row.attempts > row.maxAttempts) {
      await this.#fail(row, 'Gave up after the worker holding it stopped responding');
      return;
    }
    const parsed = definition.payload.safeParse(row.payload);
    if (!parsed.success) {
      await this.#fail(row, `Invalid payload: ${parsed.error.message}`);
      return;
    }
    const controller = new AbortController();
    const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => controller.abort(new Error(`Timed out after ${timeoutMs} ms`)), timeoutMs);
    let inline = false;
    const context: JobContext = {
      jobId: row.id,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
      signal: controller.signal,
      completion: { id: row.id, workerId: this.#workerId },
      completedInline: () => {
        inline = true;
      },
      detach,
      hint,
    };
    try {
      await Promise.race([
        handler(parsed.data, context),
        new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (!inline) await this.#complete(row.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof PermanentJobError || row.attempts >= row.maxAttempts) {
        log().warn({ err: error }, 'job failed');
        await this.#fail(row, message);
      } else {
        const delay =
          error instanceof RetryLaterError
            ? error.retryAfterMs
            : backoffDelay(row.attempts, definition.backoffMs ?? DEFAULT_BACKOFF_MS, definition.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
        log().info({ err: error, retryInMs: delay }, 'job failed; will retry');
        await sql`
          update jobs set status = 'queued', run_at = statement_timestamp() + ${delay} * interval '1 millisecond',
            locked_by = null, locked_until = null, last_error = ${message}, updated_at = statement_timestamp()
          where id = ${row.id} and locked_by = ${this.#workerId}`.execute(this.#database.db);
        this.#wakeAfter(delay);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Marks a job completed. Jobs finishing in the same turn of the event loop share one UPDATE
   * (under load several finish together); each caller resolves once its job is recorded.
   */
  #complete(id: number): Promise<void> {
    this.#toComplete.push(id);
    this.#completing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const ids = this.#toComplete;
      this.#toComplete = [];
      this.#completing = undefined;
      await sql`
        update jobs set status = 'completed', completed_at = statement_timestamp(), updated_at = statement_timestamp(),
          locked_by = null, locked_until = null, last_error = null, ${this.#erasedPayload()}
        where id = any(${ids}::bigint[]) and locked_by = ${this.#workerId}`.execute(this.#database.db);
    });
    return this.#completing;
  }

  async #fail(row: ClaimedRow, message: string): Promise<void> {
    await sql`
      update jobs set status = 'failed', last_error = ${message}, completed_at = statement_timestamp(),
        locked_by = null, locked_until = null, updated_at = statement_timestamp(), ${this.#erasedPayload()}
      where id = ${row.id} and locked_by = ${this.#workerId}`.execute(this.#database.db);
  }

  /** The `payload = …` assignment of a finishing job: `{}` for the jobs whose payload is erased when done. */
  #erasedPayload(): RawBuilder<unknown> {
    if (this.#erasedWhenDone.length === 0) return sql`payload = payload`;
    return sql`payload = case when name = any(${this.#erasedWhenDone}::text[]) then '{}'::jsonb else payload end`;
  }

  #cleanupIfDue(): void {
    if (Date.now() - this.#lastCleanup < CLEANUP_EVERY_MS) return;
    this.#lastCleanup = Date.now();
    sql`delete from jobs where (status = 'completed' and completed_at < statement_timestamp() - interval '7 days')
        or (status = 'failed' and completed_at < statement_timestamp() - interval '30 days')`
      .execute(this.#database.db)
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'job cleanup failed'));
  }
}

/** A job type's lease: its timeout and a grace period, at most `MAX_LEASE_MS` (the heartbeat renews it). */
export function leaseMsFor(definition: JobDefinition): number {
  return Math.min((definition.timeoutMs ?? DEFAULT_TIMEOUT_MS) + LEASE_GRACE_MS, MAX_LEASE_MS);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** base·2^(attempt-1), capped, with ±20 % jitter so a burst of failures does not retry in lockstep. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const jitter = raw * 0.2 * (Math.random() * 2 - 1);
  return Math.max(0, Math.round(raw + jitter));
}
