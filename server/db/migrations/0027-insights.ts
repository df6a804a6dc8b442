/**
 * Service levels (issue 16 §1; server/modules/insights, docs/insights.md).
 *
 * - `conversation_service_levels`: one row per conversation — first response, resolution (each on
 *   the wall clock and in the client's business hours), automated resolution, hand-offs,
 *   reopenings, replies by the AI and by people, the customer's messages, the person it counts
 *   for — recomputed from the stored facts by the
 *   `insights.service-level` job whenever the conversation changes. Indexed by (client, created_at)
 *   and created_at: the insights pages read a period's rows there for medians.
 * - `service_level_events`: what the messaging tables do not keep — each hand-off, reopening and
 *   resolution of a conversation, with its time, once per job that recorded it (the job's id is
 *   the key, so a job run twice records it once).
 * - `service_level_daily`: per client and UTC day of the conversations' creation, the sums of
 *   their rows, recomputed with them: a period's page reads one row per client and day.
 *
 * Existing conversations get their rows from the backfill job this migration queues (when there
 * are any): `insights.backfill` walks them by id in batches, each batch queueing the next.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table conversation_service_levels (
      conversation_id uuid primary key references conversations (id) on delete cascade,
      client_id uuid not null references clients (id) on delete cascade,
      channel_kind text not null check (channel_kind in ('whatsapp', 'messenger', 'instagram', 'webchat', 'api')),
      created_at timestamptz not null,
      first_inbound_at timestamptz,
      first_response_at timestamptz,
      first_responder text check (first_responder in ('ai', 'person')),
      first_response_seconds double precision check (first_response_seconds >= 0),
      first_response_business_seconds double precision check (first_response_business_seconds >= 0),
      resolved_at timestamptz,
      resolution_seconds double precision check (resolution_seconds >= 0),
      resolution_business_seconds double precision check (resolution_business_seconds >= 0),
      automated boolean not null default false,
      handoffs integer not null default 0 check (handoffs >= 0),
      reopenings integer not null default 0 check (reopenings >= 0),
      person_replies integer not null default 0 check (person_replies >= 0),
      ai_replies integer not null default 0 check (ai_replies >= 0),
      customer_messages integer not null default 0 check (customer_messages >= 0),
      agent_id uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      check ((first_response_at is null) = (first_responder is null)),
      check ((first_response_at is null) = (first_response_seconds is null)),
      check ((first_response_at is null) = (first_response_business_seconds is null)),
      check ((resolved_at is null) = (resolution_seconds is null)),
      check ((resolved_at is null) = (resolution_business_seconds is null)),
      check (not automated or resolved_at is not null)
    )`,
    `create index conversation_service_levels_client_created_idx on conversation_service_levels (client_id, created_at)`,
    `create index conversation_service_levels_created_idx on conversation_service_levels (created_at)`,
    `create index conversation_service_levels_agent_idx on conversation_service_levels (agent_id, created_at) where agent_id is not null`,
    `create table service_level_events (
      job_id bigint primary key,
      conversation_id uuid not null references conversations (id) on delete cascade,
      kind text not null check (kind in ('handoff', 'reopening', 'resolution')),
      at timestamptz not null
    )`,
    `create index service_level_events_conversation_idx on service_level_events (conversation_id, kind, at)`,
    `create table service_level_daily (
      client_id uuid not null references clients (id) on delete cascade,
      day date not null,
      conversations integer not null default 0 check (conversations >= 0),
      answered integer not null default 0 check (answered >= 0),
      first_response_seconds_sum double precision not null default 0,
      first_response_business_seconds_sum double precision not null default 0,
      resolved integer not null default 0 check (resolved >= 0),
      resolution_seconds_sum double precision not null default 0,
      resolution_business_seconds_sum double precision not null default 0,
      automated integer not null default 0 check (automated >= 0),
      handed_off integer not null default 0 check (handed_off >= 0),
      handoffs integer not null default 0 check (handoffs >= 0),
      reopenings integer not null default 0 check (reopenings >= 0),
      messages integer not null default 0 check (messages >= 0),
      updated_at timestamptz not null default now(),
      primary key (client_id, day)
    )`,
    `create index service_level_daily_day_idx on service_level_daily (day)`,
    // The rows of the conversations already there: the backfill job (InsightsService.backfill).
    `insert into jobs (name, payload, max_attempts, run_at, singleton_key)
      select 'insights.backfill', '{"after": null}'::jsonb, 20, now(), 'backfill'
      where exists (select 1 from conversations)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `delete from jobs where name in ('insights.backfill', 'insights.service-level') and status in ('queued', 'running')`,
    'drop table service_level_daily',
    'drop table service_level_events',
    'drop table conversation_service_levels',
  ]);
}
