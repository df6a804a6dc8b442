/**
 * Share links of the AI Summary (issue 16 §3; docs/insights.md, "Share links"), owned by the
 * insights module: a read-only link to one period's summary that anyone holding it may open
 * without signing in, until it expires or its creator (or an administrator) revokes it.
 *
 * - The period is frozen when the link is made: `period_from` .. `period_to` are the instants the
 *   summary covers (`period_kind` only names how it was chosen, "Last 7 days" say), so everyone
 *   opening the link sees the same report (docs/DECISIONS.md).
 * - `client_id` null: every client (only managers and administrators make those).
 * - Only the sha256 of the link's token is stored; the token itself is shown once, in the URL.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table summary_shares (
      id uuid primary key default gen_random_uuid(),
      token_hash text not null unique check (length(token_hash) = 64),
      created_by uuid not null references users (id) on delete cascade,
      client_id uuid references clients (id) on delete cascade,
      period_kind text not null check (period_kind in ('24h', '7d', '30d', 'custom')),
      period_from timestamptz not null,
      period_to timestamptz not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      check (period_to > period_from)
    )`,
    'create index summary_shares_created_by_idx on summary_shares (created_by, created_at desc)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table summary_shares']);
}
