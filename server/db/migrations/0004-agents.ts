/**
 * AI agents (issue 4): one agent per client (its configuration), the client's knowledge base
 * (FAQ entries and articles, versioned), trained models per version, what every AI message was
 * (engine, sources, latency, cost) and message intelligence (sentiment, response times).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table agents (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null unique references clients (id) on delete cascade,
      name text not null check (length(name) between 1 and 100),
      description text not null default '' check (length(description) <= 1000),
      enabled boolean not null default true,
      confidence_threshold real not null default 0.8 check (confidence_threshold > 0 and confidence_threshold < 1),
      escalation_enabled boolean not null default true,
      response_delay_seconds integer not null default 2 check (response_delay_seconds between 0 and 60),
      disabled_channel_ids jsonb not null default '[]',
      business_hours jsonb,
      outside_hours text not null default 'answer' check (outside_hours in ('answer', 'away')),
      greeting_text text not null,
      handoff_text text not null,
      fallback_text text not null,
      away_text text not null,
      engine text not null default 'embedded' check (engine in ('embedded', 'openai', 'anthropic', 'openai-compatible')),
      llm_model text,
      llm_base_url text,
      -- sealed with SECRETS_KEY (server/lib/secret-box.ts), never returned
      llm_api_key_sealed text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    // The knowledge base's version and training state, per client (a client without an agent row
    // still has a knowledge base).
    `create table knowledge_bases (
      client_id uuid primary key references clients (id) on delete cascade,
      version integer not null default 0,
      live_version integer,
      live_at timestamptz,
      training_status text not null default 'idle' check (training_status in ('idle', 'queued', 'training', 'failed')),
      training_progress real not null default 0,
      training_error text,
      updated_at timestamptz not null default now()
    )`,
    `create table knowledge_entries (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      questions jsonb not null,
      answer text not null check (length(answer) between 1 and 4000),
      link text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index knowledge_entries_client_idx on knowledge_entries (client_id, created_at)`,
    `create table knowledge_articles (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      title text not null check (length(title) between 1 and 200),
      body text not null check (length(body) between 1 and 50000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index knowledge_articles_client_idx on knowledge_articles (client_id, created_at)`,
    // A trained version: the knowledge it was trained on (so answers and model always agree) and
    // the embedded engine's model.
    `create table agent_models (
      client_id uuid not null references clients (id) on delete cascade,
      version integer not null,
      knowledge jsonb not null,
      model jsonb not null,
      metrics jsonb not null,
      trained_at timestamptz not null default now(),
      primary key (client_id, version)
    )`,
    // What produced each AI message: {engine, model, decision, sources, latencyMs, usage, fallbackReason}.
    `alter table messages add column ai jsonb`,
    `alter table messages add column sentiment real check (sentiment is null or (sentiment >= -1 and sentiment <= 1))`,
    `create index messages_ai_client_idx on messages (client_id, created_at) where sender_type = 'ai'`,
    // Response times: the first unanswered customer message, and the running total of answers.
    `alter table conversations add column awaiting_since timestamptz`,
    `alter table conversations add column response_count integer not null default 0`,
    `alter table conversations add column response_seconds_total double precision not null default 0`,
    `alter table conversations add column sentiment real check (sentiment is null or (sentiment >= -1 and sentiment <= 1))`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'alter table conversations drop column sentiment',
    'alter table conversations drop column response_seconds_total',
    'alter table conversations drop column response_count',
    'alter table conversations drop column awaiting_since',
    'drop index messages_ai_client_idx',
    'alter table messages drop column sentiment',
    'alter table messages drop column ai',
    'drop table agent_models',
    'drop table knowledge_articles',
    'drop table knowledge_entries',
    'drop table knowledge_bases',
    'drop table agents',
  ]);
}
