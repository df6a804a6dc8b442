/**
 * The public event `contact_form.submitted` (issue 15, issue 14 §1; docs/events.md): a visitor's
 * message from the website's contact form, installation-wide (`client_id` null).
 *
 * Widens the one check constraint that lists the event types, `events.type` (migration 0016).
 * Nothing else in the schema names them: webhook subscriptions keep their chosen types as JSON
 * (`webhook_subscriptions.events`), deliveries and executions a bounded text
 * (`webhook_deliveries.event_type`, `automation_executions.trigger_event_type`), and automations'
 * `trigger_events` is generated from their config (migration 0019, whose list of types converts old
 * trigger words and stays as it was). Every type is spelt out here (not read from
 * common/api/events.ts), so the migration keeps meaning what it meant when it was written.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

const BEFORE = [
  'message.received',
  'message.sent',
  'message.failed',
  'conversation.created',
  'conversation.escalated',
  'conversation.resolved',
  'conversation.reopened',
  'contact.created',
  'lead.qualified',
  'automation.execution.finished',
];
const AFTER = [...BEFORE, 'contact_form.submitted'];

const check = (types: readonly string[]) =>
  `alter table events add constraint events_type_check check (type in (${types.map((t) => `'${t}'`).join(', ')}))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table events drop constraint events_type_check', check(AFTER)]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    // Deliveries and executions keep their copies of the envelope; only the outbox rows go.
    `delete from events where type = 'contact_form.submitted'`,
    'alter table events drop constraint events_type_check',
    check(BEFORE),
  ]);
}
