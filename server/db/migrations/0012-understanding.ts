/**
 * What the agent understood (issue 12 §4): why a message and a conversation have their priority
 * (the keyword or signal that raised it, or "Set by a person") and why a conversation was
 * escalated (the AI agent's hand-off reason, or a person's). Written by the messaging module
 * (`parley_record_inbound`, `MessagingService.escalate`, `InboxStateService`); null where nothing
 * raised the priority, and on rows from before this migration.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `alter table messages add column priority_reason text check (char_length(priority_reason) <= 300)`,
    `alter table conversations add column priority_reason text check (char_length(priority_reason) <= 300)`,
    `alter table conversations add column escalation_reason text check (char_length(escalation_reason) <= 300)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'alter table conversations drop column escalation_reason',
    'alter table conversations drop column priority_reason',
    'alter table messages drop column priority_reason',
  ]);
}
