/**
 * What `/api/v1/health` reports: whether this instance can do its work, not merely that it runs.
 * "ok" used to be answered while the disk was full and every webhook answered 500. Now:
 *
 * - database: a real write (the heartbeat row in app_settings), bounded by a short timeout — a
 *   read-only, full, locked or unreachable database fails it (503);
 * - disk: free space where the embedded database lives (statfs of DATA_DIR/pglite), under a threshold → 503;
 * - jobs: jobs due now and the age of the oldest; an old backlog is "degraded" (200): the jobs table
 *   is shared by every instance, so taking this one out of the balancer would not help.
 *
 * Load balancers poll it, so one check runs at a time and its result serves for `cacheMs`.
 */
import fs from 'node:fs';
import type { Logger } from 'pino';
import type { HealthReport } from '../../../common/api/system';
import type { Db, Engine } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { HealthRepository } from './health.repository';

export const HEARTBEAT_SETTING = 'health_heartbeat';
/** Counting stops here: a backlog this large is reported as this many. */
export const MAX_COUNTED_JOBS = 10_000;

export interface DiskReading {
  /** Blocks available to this (unprivileged) user. */
  bavail: number;
  blocks: number;
  bsize: number;
}

export interface HealthThresholds {
  minFreeBytes: number;
  minFreePercent: number;
  jobMaxAgeSeconds: number;
}

export interface HealthServiceDeps {
  db: Db;
  engine: Engine;
  version: string;
  /** The embedded database's directory (DATA_DIR/pglite); undefined on PostgreSQL or in memory (no disk check). */
  dataDir: string | undefined;
  thresholds: HealthThresholds;
  clock: Clock;
  logger?: Logger;
  /** Free space of a directory (default: fs.promises.statfs). */
  statfs?: (dir: string) => Promise<DiskReading>;
  /** Bound on the database part of a check (default 2 s). */
  timeoutMs?: number;
  /** How long a result is served again (default 1 s). */
  cacheMs?: number;
}

type DatabaseError = NonNullable<HealthReport['checks']['database']['error']>;

class HealthTimeout extends Error {}

function classify(error: unknown): DatabaseError {
  if (error instanceof HealthTimeout) return 'timeout';
  switch ((error as { code?: unknown }).code) {
    case '25006': // read_only_sql_transaction
      return 'read_only';
    case '53100': // disk_full
      return 'disk_full';
    case '57014': // query_canceled: our statement_timeout
      return 'timeout';
    default:
      return 'unavailable';
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HealthTimeout()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class HealthService {
  #cached: { at: number; report: HealthReport } | undefined;
  #running: Promise<HealthReport> | undefined;
  #lastFailing = '';
  readonly #health: HealthRepository;

  constructor(private readonly deps: HealthServiceDeps) {
    this.#health = new HealthRepository(deps.db);
  }

  /** The current report: cached for `cacheMs`, and one check at a time however many ask. */
  async report(): Promise<HealthReport> {
    const now = this.deps.clock.now().getTime();
    const cacheMs = this.deps.cacheMs ?? 1000;
    if (this.#cached && now - this.#cached.at < cacheMs) return this.#cached.report;
    this.#running ??= this.check().finally(() => {
      this.#running = undefined;
    });
    const report = await this.#running;
    this.#cached = { at: now, report };
    return report;
  }

  async check(): Promise<HealthReport> {
    const timeoutMs = this.deps.timeoutMs ?? 2000;
    const [database, disk] = await Promise.all([this.#checkDatabase(timeoutMs), this.#checkDisk()]);
    const failing: HealthReport['failing'] = [];
    if (!database.check.ok) failing.push('database');
    if (disk && !disk.ok) failing.push('disk');
    // Without a working database the backlog is unknown, not a second failure.
    if (database.check.ok && !database.jobs.ok) failing.push('jobs');
    const status = failing.some((name) => name !== 'jobs') ? 'failing' : failing.length ? 'degraded' : 'ok';
    const report: HealthReport = {
      status,
      engine: this.deps.engine,
      version: this.deps.version,
      failing,
      checks: { database: database.check, jobs: database.jobs, disk },
      checkedAt: this.deps.clock.now().toISOString(),
    };
    const key = failing.join(',');
    if (key !== this.#lastFailing) {
      if (key) this.deps.logger?.warn({ health: report.checks, failing }, 'health check failing');
      else this.deps.logger?.info('health checks pass again');
      this.#lastFailing = key;
    }
    return report;
  }

  /** Background jobs that finished since `since`: completed, failed for good, and the failures by job name. */
  async jobOutcomes(since: Date): Promise<{ completed: number; failed: number; failedByName: { name: string; count: number }[] }> {
    return this.#health.findJobOutcomes(since);
  }

  async #checkDatabase(timeoutMs: number): Promise<{ check: HealthReport['checks']['database']; jobs: HealthReport['checks']['jobs'] }> {
    const started = performance.now();
    try {
      await withTimeout(this.#writeHeartbeat(timeoutMs), timeoutMs);
    } catch (error) {
      this.deps.logger?.debug({ err: error }, 'health: database write failed');
      return { check: { ok: false, writeMs: null, error: classify(error) }, jobs: { ok: false, due: null, oldestDueSeconds: null } };
    }
    const writeMs = Math.round((performance.now() - started) * 10) / 10;
    try {
      const backlog = await withTimeout(this.#backlog(), timeoutMs);
      const ok = backlog.oldestDueSeconds === null || backlog.oldestDueSeconds <= this.deps.thresholds.jobMaxAgeSeconds;
      return { check: { ok: true, writeMs }, jobs: { ok, ...backlog } };
    } catch (error) {
      this.deps.logger?.debug({ err: error }, 'health: job backlog query failed');
      return { check: { ok: true, writeMs }, jobs: { ok: false, due: null, oldestDueSeconds: null } };
    }
  }

  async #writeHeartbeat(timeoutMs: number): Promise<void> {
    const upsert = (db: Db) => this.#health.writeHeartbeat(HEARTBEAT_SETTING, this.deps.clock.now().toISOString(), db);
    if (this.deps.engine === 'pglite') {
      await upsert(this.deps.db);
      return;
    }
    // On a server the statement itself is cancelled at the timeout, so a blocked write does not
    // keep a pooled connection.
    await this.deps.db.transaction().execute(async (trx) => {
      await this.#health.setLocalStatementTimeout(timeoutMs, trx);
      await upsert(trx);
    });
  }

  async #backlog(): Promise<{ due: number; oldestDueSeconds: number | null }> {
    const row = await this.#health.findJobBacklog(MAX_COUNTED_JOBS);
    return { due: row?.due ?? 0, oldestDueSeconds: row?.oldest === null || row?.oldest === undefined ? null : Math.round(row.oldest) };
  }

  async #checkDisk(): Promise<HealthReport['checks']['disk']> {
    const { dataDir, thresholds } = this.deps;
    if (dataDir === undefined) return null;
    const statfs = this.deps.statfs ?? ((dir: string) => fs.promises.statfs(dir));
    try {
      const reading = await statfs(dataDir);
      const freeBytes = reading.bavail * reading.bsize;
      const freePercent = reading.blocks > 0 ? Math.round((reading.bavail / reading.blocks) * 1000) / 10 : 0;
      return { ok: freeBytes >= thresholds.minFreeBytes && freePercent >= thresholds.minFreePercent, freeBytes, freePercent };
    } catch (error) {
      this.deps.logger?.debug({ err: error }, 'health: statfs failed');
      return { ok: false, freeBytes: null, freePercent: null };
    }
  }
}
