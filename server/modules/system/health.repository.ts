/** The health check's queries: the heartbeat write and the job backlog. */
import { sql } from 'kysely';
import type { Db } from '../../db/database';

export class HealthRepository {
  constructor(private readonly db: Db) {}

  /** Writes the heartbeat setting (a real write: fails on a read-only, full or locked database). */
  async writeHeartbeat(key: string, value: string, db: Db = this.db): Promise<void> {
    await db
      .insertInto('appSettings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }))
      .execute();
  }

  /** Cancels any statement of the transaction `trx` that runs longer than `timeoutMs` (PostgreSQL). */
  async setLocalStatementTimeout(timeoutMs: number, trx: Db): Promise<void> {
    await sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
  }

  /** Jobs due now (counted up to `maxCounted`) and the age in seconds of the oldest (null: none). */
  async findJobBacklog(maxCounted: number, db: Db = this.db): Promise<{ due: number; oldest: number | null } | undefined> {
    // Both parts read the jobs table's partial indexes (jobs_ready_idx, jobs_lease_idx).
    const { rows } = await sql<{ due: number; oldest: number | null }>`
      select
        (select count(*) from (
          select 1 from jobs where status = 'queued' and run_at <= statement_timestamp()
          union all
          select 1 from jobs where status = 'running' and locked_until < statement_timestamp()
          limit ${maxCounted}) d)::int as due,
        extract(epoch from statement_timestamp() - least(
          (select min(run_at) from jobs where status = 'queued' and run_at <= statement_timestamp()),
          (select min(locked_until) from jobs where status = 'running' and locked_until < statement_timestamp())
        ))::float8 as oldest`.execute(db);
    return rows[0];
  }

  /**
   * Jobs that finished since `since`: how many completed, how many failed for good, and the
   * failures by job name (most first). A scan of the jobs finished in the window (completed jobs
   * are kept 7 days, failed ones 30).
   */
  async findJobOutcomes(since: Date, db: Db = this.db): Promise<{ completed: number; failed: number; failedByName: { name: string; count: number }[] }> {
    const { rows } = await sql<{ name: string; completed: number; failed: number }>`
      select name,
        count(*) filter (where status = 'completed')::int as completed,
        count(*) filter (where status = 'failed')::int as failed
      from jobs
      where status in ('completed', 'failed') and completed_at >= ${since}
      group by name`.execute(db);
    const failedByName = rows
      .filter((row) => row.failed > 0)
      .map((row) => ({ name: row.name, count: row.failed }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    return {
      completed: rows.reduce((sum, row) => sum + row.completed, 0),
      failed: rows.reduce((sum, row) => sum + row.failed, 0),
      failedByName,
    };
  }
}
