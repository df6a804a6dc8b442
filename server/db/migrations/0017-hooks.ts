/**
 * Outbound webhook subscriptions and their deliveries (issue 14 §2, §5). Owned by
 * server/modules/hooks.
 *
 * - `webhook_subscriptions`: the spec's fields (name, url, events, status, last triggered, total
 *   calls) plus the client scope (`client_id` null: every client's events, admins only), the
 *   signing secret sealed with the secrets key (server/lib/secret-box.ts) and its first characters,
 *   where it came from (`source`: the portal or a Zapier REST hook), the counters, and the run of
 *   failed attempts auto-disable looks at (`consecutive_failures` since `failing_since`).
 *   `events` null: every event type.
 * - `webhook_deliveries`: one event (or a `ping`) for one subscription, with the exact body sent.
 *   `conversation_id` and `seq` order the deliveries of one subscription per conversation (a
 *   redelivery or a ping has neither: unordered). `job_token` names the one job allowed to send it
 *   now (null while it waits for an earlier delivery — `parked` — or once it is finished).
 * - `webhook_delivery_attempts`: each HTTP request made, with its headers and answer (the body is
 *   the delivery's: every attempt sends the same bytes, so it is stored once).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table webhook_subscriptions (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(btrim(name)) between 1 and 200),
      url text not null check (length(url) between 1 and 2048),
      events jsonb check (events is null or (jsonb_typeof(events) = 'array' and jsonb_array_length(events) between 1 and 100)),
      client_id uuid references clients (id) on delete cascade,
      status text not null default 'active' check (status in ('active', 'inactive')),
      disabled_reason text check (disabled_reason is null or length(disabled_reason) <= 500),
      source text not null default 'portal' check (source in ('portal', 'rest_hook')),
      created_by uuid references users (id) on delete set null,
      signing_secret text not null,
      secret_prefix text not null check (length(secret_prefix) <= 20),
      last_triggered_at timestamptz,
      total_calls bigint not null default 0,
      success_count bigint not null default 0,
      failure_count bigint not null default 0,
      consecutive_failures integer not null default 0,
      failing_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index webhook_subscriptions_created_at_idx on webhook_subscriptions (created_at desc, id)`,
    `create index webhook_subscriptions_client_idx on webhook_subscriptions (client_id, created_at desc, id)`,
    `create index webhook_subscriptions_active_idx on webhook_subscriptions (client_id) where status = 'active'`,

    `create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      subscription_id uuid not null references webhook_subscriptions (id) on delete cascade,
      event_id uuid,
      event_type text not null check (length(event_type) between 1 and 100),
      conversation_id uuid,
      seq bigint,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'retrying', 'succeeded', 'failed')),
      attempts integer not null default 0,
      first_attempt_at timestamptz,
      next_attempt_at timestamptz,
      last_status integer,
      last_error text check (last_error is null or length(last_error) <= 2000),
      finished_at timestamptz,
      redelivery_of uuid references webhook_deliveries (id) on delete set null,
      job_token uuid,
      parked boolean not null default false,
      created_at timestamptz not null default now(),
      check ((status in ('succeeded', 'failed')) = (finished_at is not null)),
      check ((conversation_id is null) = (seq is null))
    )`,
    `create index webhook_deliveries_subscription_created_idx on webhook_deliveries (subscription_id, created_at desc, id)`,
    `create index webhook_deliveries_lane_idx on webhook_deliveries (subscription_id, conversation_id, seq)
      where status in ('pending', 'retrying') and conversation_id is not null`,
    `create index webhook_deliveries_event_idx on webhook_deliveries (event_id) where event_id is not null`,

    `create table webhook_delivery_attempts (
      id uuid primary key default gen_random_uuid(),
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempted_at timestamptz not null default now(),
      request_headers jsonb not null default '{}'::jsonb check (jsonb_typeof(request_headers) = 'object'),
      response_status integer,
      response_excerpt text check (response_excerpt is null or length(response_excerpt) <= 2000),
      error text check (error is null or length(error) <= 2000),
      duration_ms integer not null check (duration_ms >= 0)
    )`,
    `create index webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, attempted_at, id)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table webhook_delivery_attempts', 'drop table webhook_deliveries', 'drop table webhook_subscriptions']);
}
