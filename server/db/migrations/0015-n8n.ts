/**
 * The n8n connection (issue 13): the base URL of the n8n instance this installation drives and its
 * public-API key, sealed with SECRETS_KEY (server/lib/secret-box.ts) and never returned. One row
 * per installation — administrators manage it, and the n8n instance is one shared service like
 * the SMTP server (docs/DECISIONS.md) — kept to one row by a boolean key that can only be true.
 * The last connection test's outcome is kept so the settings screen can show it.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table n8n_connections (
      singleton boolean primary key default true check (singleton),
      base_url text not null check (length(base_url) between 8 and 2000),
      api_key_sealed text not null,
      updated_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_test_ok boolean,
      last_test_message text check (length(last_test_message) <= 2000),
      last_test_workflow_count integer check (last_test_workflow_count >= 0),
      last_tested_at timestamptz
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table n8n_connections']);
}
