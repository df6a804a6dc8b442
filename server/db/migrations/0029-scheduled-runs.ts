/**
 * Recurring jobs (server/jobs/schedule.ts): one row per (schedule, period) that ran to the end. A
 * period's job runs once across every instance: the queue's singleton key holds it while it is
 * queued or running, and this row afterwards, so an instance that starts later does not run the
 * period again.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table scheduled_runs (
      name text not null check (length(name) between 1 and 100),
      period text not null check (length(period) between 1 and 40),
      ran_at timestamptz not null default now(),
      primary key (name, period)
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table scheduled_runs']);
}
