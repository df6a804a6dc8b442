/**
 * API keys (issue 14 §4): only the sha256 of a key is stored, with its 12-hex prefix for display
 * and lookup. A service-account key (`service`) belongs to the administrator who created it and
 * acts as that account (docs/api-keys.md). Revoked keys stay for the record.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table api_keys (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      name text not null check (length(name) between 1 and 100),
      service boolean not null default false,
      prefix text not null unique check (prefix ~ '^[0-9a-f]{12}$'),
      key_hash text not null check (key_hash ~ '^[0-9a-f]{64}$'),
      scopes text[] not null check (cardinality(scopes) between 1 and 50),
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      last_used_ip text check (length(last_used_ip) <= 100),
      revoked_at timestamptz,
      revoked_by uuid references users (id) on delete set null
    )`,
    `create index api_keys_user_idx on api_keys (user_id, created_at desc) where revoked_at is null`,
    `create index api_keys_service_idx on api_keys (created_at desc) where service and revoked_at is null`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table api_keys']);
}
