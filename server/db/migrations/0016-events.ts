/**
 * Issue 14 §1: the public events' outbox and the lead flag.
 *
 * `events` (owned by server/modules/events): one row per public event (common/api/events.ts),
 * written by the `events.record` job in the transaction that also hands it to the sinks (outbound
 * webhooks, event-triggered automations). `seq` orders the outbox — within one conversation it
 * follows the order of the changes (docs/events.md, "Ordering"). `dedupe_key` makes a retried
 * materialiser job a no-op: one source (a message, a contact, one status change's job) gives its
 * event once. Rows older than 30 days are deleted by `events.prune`.
 *
 * `conversations.is_lead …` (owned by messaging): set by `parley_record_inbound` the first time a
 * customer's message shows an e-mail address, a phone number or purchase intent (signals computed in
 * Node, server/modules/messaging/lead-signals.ts); later messages fill a missing e-mail or phone.
 *
 * `jobs_events_record_conversation_idx`: the materialiser reads the conversation's earlier pending
 * `events.record` jobs, so it can store them first (the order of the changes).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table events (
      id uuid primary key default gen_random_uuid(),
      seq bigserial not null unique,
      type text not null check (type in ('message.received', 'message.sent', 'message.failed', 'conversation.created',
        'conversation.escalated', 'conversation.resolved', 'conversation.reopened', 'contact.created', 'lead.qualified',
        'automation.execution.finished')),
      dedupe_key text not null check (length(dedupe_key) <= 200),
      client_id uuid references clients (id) on delete cascade,
      conversation_id uuid,
      performed_by jsonb not null,
      envelope jsonb not null,
      created_at timestamptz not null default now()
    )`,
    `create unique index events_dedupe_idx on events (type, dedupe_key)`,
    // "recent events of a type a scope may see" (REST hooks' samples): newest first, per client or all
    `create index events_type_client_seq_idx on events (type, client_id, seq desc)`,
    `create index events_type_seq_idx on events (type, seq desc)`,
    // retention (events.prune) and a conversation's events in order
    `create index events_created_at_idx on events (created_at)`,
    `create index events_conversation_seq_idx on events (conversation_id, seq) where conversation_id is not null`,

    `alter table conversations
      add column is_lead boolean not null default false,
      add column lead_email text check (length(lead_email) <= 320),
      add column lead_phone text check (length(lead_phone) <= 40),
      add column lead_signals jsonb not null default '[]'::jsonb,
      add column lead_at timestamptz`,
    `create index conversations_lead_idx on conversations (client_id, lead_at desc) where is_lead`,

    `create index jobs_events_record_conversation_idx on jobs ((payload->>'conversationId'), id)
      where name = 'events.record' and status in ('queued', 'running')`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'drop index jobs_events_record_conversation_idx',
    'drop index conversations_lead_idx',
    `alter table conversations drop column is_lead, drop column lead_email, drop column lead_phone, drop column lead_signals, drop column lead_at`,
    'drop table events',
  ]);
}
