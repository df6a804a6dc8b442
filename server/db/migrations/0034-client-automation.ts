/**
 * A client's automation switches and conversions (issue 17 §2–3; docs/client-dashboard.md).
 *
 * - `clients.automation_paused_at`, `clients.automation_paused_by` (owned by the clients module):
 *   the client's automation is paused since then, by that person (null once the account is gone).
 *   While paused the AI agent does not answer (the away text and a hand-off to people instead),
 *   a resolved conversation the customer reopens stays with people, and the client's
 *   event-triggered automations do not start (read by `parley_agent_context`,
 *   `parley_record_inbound` and the automations' trigger query).
 * - `clients.lead_qualification`: whether customers' messages can make a conversation of this
 *   client a lead (the lead signals; on by default, as before). Read by `parley_record_inbound`.
 * - `conversations.converted_at` (owned by the messaging module): the business marked the lead as
 *   converted then; only a lead can be (check).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `alter table clients
      add column automation_paused_at timestamptz,
      add column automation_paused_by uuid references users (id) on delete set null,
      add column lead_qualification boolean not null default true`,
    `alter table conversations
      add column converted_at timestamptz,
      add constraint conversations_converted_lead_check check (converted_at is null or is_lead)`,
    `create index conversations_converted_idx on conversations (client_id, lead_at) where converted_at is not null`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'drop index conversations_converted_idx',
    'alter table conversations drop constraint conversations_converted_lead_check, drop column converted_at',
    'alter table clients drop column lead_qualification, drop column automation_paused_by, drop column automation_paused_at',
  ]);
}
