/**
 * The e-mailed reports (issue 16 §5; docs/insights.md, "Reports by e-mail"), owned by the
 * report-emails module: one row per report sent — its kind, the period it covers (`2026-11-27`,
 * `2026-W48`) and its recipient — inserted in the transaction that queues the e-mail, so each
 * recipient gets a period's report once, whatever the number of instances or runs of the job.
 *
 * - `client_id`: whose figures the report carried (null: every client).
 * - `email_id`: the outbox row (the e-mail module's `emails`); null once that row is gone.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table report_deliveries (
      kind text not null check (kind in ('daily', 'weekly')),
      period text not null check (period ~ '^[0-9]{4}-([0-9]{2}-[0-9]{2}|W[0-9]{2})$'),
      user_id uuid not null references users (id) on delete cascade,
      client_id uuid references clients (id) on delete cascade,
      email_id uuid references emails (id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (kind, period, user_id)
    )`,
    'create index report_deliveries_user_idx on report_deliveries (user_id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table report_deliveries']);
}
