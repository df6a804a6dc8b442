/**
 * Customer satisfaction (CSAT, issue 16 §1; docs/satisfaction.md).
 *
 * - `satisfaction_surveys` (owned by the messaging module): one per resolution of a conversation —
 *   the rating request sent to the customer in the conversation's channel, then its answer (1–5
 *   and an optional comment), once. `pending` until answered or until it expires; a new
 *   resolution's survey expires the pending one. Unique per (conversation, resolution time).
 * - `messages.survey_id`: the request (a system message) and the customer's answer are messages of
 *   the thread marked with their survey — the widget draws stars under the request, the API
 *   channel's payload carries the survey, the portal shows the rating.
 * - `agents.csat_enabled`, `agents.csat_question`: the client's choice (on by default) and wording
 *   (null: Parley's default question).
 * - Ratings in the service levels: per conversation the number of ratings, their sum and how many
 *   were 4 or 5 (`satisfied`), summed per day in `service_level_daily` like the other figures.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table satisfaction_surveys (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      conversation_id uuid not null references conversations (id) on delete cascade,
      channel_id uuid not null references channels (id) on delete cascade,
      resolved_at timestamptz not null,
      question text not null check (length(question) between 1 and 500),
      status text not null default 'pending' check (status in ('pending', 'answered', 'expired')),
      rating smallint check (rating between 1 and 5),
      comment text check (length(comment) <= 2000),
      answered_at timestamptz,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      unique (conversation_id, resolved_at),
      check ((status = 'answered') = (rating is not null)),
      check ((status = 'answered') = (answered_at is not null))
    )`,
    `create index satisfaction_surveys_pending_idx on satisfaction_surveys (conversation_id) where status = 'pending'`,
    `create index satisfaction_surveys_answered_idx on satisfaction_surveys (client_id, answered_at) where status = 'answered'`,
    `alter table messages add column survey_id uuid references satisfaction_surveys (id) on delete set null`,
    `alter table agents add column csat_enabled boolean not null default true`,
    `alter table agents add column csat_question text check (length(csat_question) between 1 and 300)`,
    `alter table conversation_service_levels
      add column ratings integer not null default 0 check (ratings >= 0),
      add column rating_sum integer not null default 0 check (rating_sum >= 0),
      add column satisfied integer not null default 0 check (satisfied >= 0)`,
    `alter table service_level_daily
      add column ratings integer not null default 0 check (ratings >= 0),
      add column rating_sum integer not null default 0 check (rating_sum >= 0),
      add column satisfied integer not null default 0 check (satisfied >= 0)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'alter table service_level_daily drop column ratings, drop column rating_sum, drop column satisfied',
    'alter table conversation_service_levels drop column ratings, drop column rating_sum, drop column satisfied',
    'alter table agents drop column csat_question',
    'alter table agents drop column csat_enabled',
    'alter table messages drop column survey_id',
    'drop table satisfaction_surveys',
  ]);
}
