/**
 * Automations (issue 13 §1, spec part 2 §3): a client's automation calls a workflow (n8n, Zapier or
 * any URL) and the workflow reports back — step messages and the execution's final status — over
 * per-execution callback URLs. Owned by server/modules/automations.
 *
 * - `automations`: the spec's fields plus `signing_secret`, sealed with the secrets key
 *   (server/lib/secret-box.ts): the key of the trigger request's HMAC signature and of the
 *   executions' callback tokens. `client_id` null: staff only (no client user sees it).
 * - `automation_executions`: the spec's fields (`execution_id` is the workflow's own id) plus how
 *   and by whom it was started, the sha256 of its callback token (never the token), when that
 *   token stops working (`callback_token_expires_at`: a few minutes after it finished),
 *   `last_heard_at` (the silence timeout), and `triggered_at` (the trigger POST began; a retried
 *   job never sends it twice). Finished ⇔ `finished_at` and `duration_ms` set.
 * - `automation_messages`: the spec's fields plus the execution that posted it.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table automations (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(btrim(name)) between 1 and 200),
      description text check (description is null or length(description) <= 2000),
      workflow_id text check (workflow_id is null or length(btrim(workflow_id)) between 1 and 200),
      workflow_url text check (workflow_url is null or length(workflow_url) between 1 and 2048),
      status text not null default 'inactive' check (status in ('active', 'paused', 'inactive', 'error')),
      config jsonb not null default '{}'::jsonb check (jsonb_typeof(config) = 'object'),
      client_id uuid references clients (id) on delete cascade,
      created_by uuid references users (id) on delete set null,
      signing_secret text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index automations_created_at_idx on automations (created_at desc, id)`,
    `create index automations_client_created_at_idx on automations (client_id, created_at desc, id)`,

    `create table automation_executions (
      id uuid primary key default gen_random_uuid(),
      automation_id uuid not null references automations (id) on delete cascade,
      status text not null default 'running' check (status in ('success', 'error', 'running', 'waiting', 'canceled')),
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      duration_ms bigint check (duration_ms is null or duration_ms >= 0),
      error_message text check (error_message is null or length(error_message) <= 2000),
      execution_id text check (execution_id is null or length(execution_id) between 1 and 200),
      started_how text not null default 'manual' check (started_how in ('manual', 'template', 'api', 'schedule')),
      started_by uuid references users (id) on delete set null,
      callback_token_hash text not null check (length(callback_token_hash) = 64),
      callback_token_expires_at timestamptz,
      last_heard_at timestamptz not null default now(),
      triggered_at timestamptz,
      check ((status in ('success', 'error', 'canceled')) = (finished_at is not null)),
      check ((finished_at is null) = (duration_ms is null))
    )`,
    `create index automation_executions_automation_started_idx on automation_executions (automation_id, started_at desc, id)`,
    `create index automation_executions_unfinished_idx on automation_executions (last_heard_at) where finished_at is null`,

    `create table automation_messages (
      id uuid primary key default gen_random_uuid(),
      automation_id uuid not null references automations (id) on delete cascade,
      execution_id uuid references automation_executions (id) on delete cascade,
      message_type text not null default 'info' check (length(message_type) between 1 and 50),
      step_name text check (step_name is null or length(step_name) <= 200),
      content text not null check (length(content) <= 10000),
      metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
      timestamp timestamptz not null default now()
    )`,
    `create index automation_messages_automation_timestamp_idx on automation_messages (automation_id, timestamp desc, id)`,
    `create index automation_messages_execution_idx on automation_messages (execution_id) where execution_id is not null`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table automation_messages', 'drop table automation_executions', 'drop table automations']);
}
