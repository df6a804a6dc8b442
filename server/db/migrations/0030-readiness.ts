/**
 * Production readiness (issue 16 §4; docs/readiness.md), owned by the readiness module.
 *
 * - `readiness_runs`: one row per check of the installation (the page loading, Re-check, the daily
 *   job) with its score and counts, and the items that got worse than in the run before — so a drop
 *   is detected against the previous run and told to the admins once (`notified_at`).
 * - `readiness_items`: the last result of each of the 24 items, and since when it has that status.
 * - `readiness_test_emails`: the test e-mails sent from the page, by outbox id, with an HMAC of the
 *   SMTP configuration they were sent under: the e-mail item is complete only when a test went out
 *   over the SMTP server configured now (the fingerprint, never the URL: it holds the password).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table readiness_runs (
      id bigint generated always as identity primary key,
      checked_at timestamptz not null default now(),
      trigger text not null check (trigger in ('page', 'daily')),
      score smallint not null check (score between 0 and 100),
      complete smallint not null check (complete >= 0),
      attention smallint not null check (attention >= 0),
      critical smallint not null check (critical >= 0),
      worsened jsonb not null default '[]'::jsonb check (jsonb_typeof(worsened) = 'array'),
      notified_at timestamptz
    )`,
    `create index readiness_runs_checked_at_idx on readiness_runs (checked_at desc, id desc)`,
    `create table readiness_items (
      key text primary key check (length(key) between 1 and 64),
      category text not null check (category in ('Security', 'Performance', 'UX', 'Technical', 'Email', 'Content', 'SEO', 'Monitoring')),
      status text not null check (status in ('complete', 'needs-attention', 'critical')),
      reason text not null check (length(reason) <= 2000),
      checked_at timestamptz not null,
      status_since timestamptz not null
    )`,
    `create table readiness_test_emails (
      email_id uuid primary key,
      smtp_fingerprint text not null check (length(smtp_fingerprint) = 64),
      sent_to text not null check (length(sent_to) <= 254),
      requested_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now()
    )`,
    `create index readiness_test_emails_created_at_idx on readiness_test_emails (created_at desc)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table readiness_test_emails', 'drop table readiness_items', 'drop table readiness_runs']);
}
