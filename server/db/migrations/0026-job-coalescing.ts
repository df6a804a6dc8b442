/**
 * Coalesced jobs (server/jobs/jobs.sql.ts `parley_insert_jobs`, EventBus subscriptions'
 * `coalesce`): at most one *queued* job per (name, coalesce key). A job inserted while one with
 * the same key waits is not inserted — the waiting one will do the work of both (its handler reads
 * the current state, not the event). Unlike a singleton key, a running job does not hold the key:
 * a change made while it runs queues the next one, so nothing that happened after its read is
 * missed. Used by `insights.service-level` (one job per conversation per burst of messages).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `alter table jobs add column coalesce_key text check (length(coalesce_key) between 1 and 200)`,
    `create unique index jobs_coalesce_idx on jobs (name, coalesce_key) where coalesce_key is not null and status = 'queued'`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop index jobs_coalesce_idx', 'alter table jobs drop column coalesce_key']);
}
