/**
 * Automations triggered by public events (issue 14 §3). Owned by server/modules/automations.
 *
 * - `automations.trigger_events`: the event types of `config.triggers` (a generated column, so it
 *   can never disagree with the config), GIN-indexed for the active automations: the events
 *   module's sink finds the automations an event batch may start in one indexed query.
 * - `automation_executions`: `started_how` may be 'event'; `trigger_event_id`, `trigger_event_type`
 *   and `trigger_event` (the envelope, sent as the request's `trigger`) say which event started it.
 *   Unique (automation_id, trigger_event_id): the same event never starts the same automation twice.
 * - Triggers stored as strings before (templates' `workflow_config.triggers`, which the templates'
 *   automations copied into `config.triggers`) become `{event}` objects: an event type as is, the
 *   old placeholder names by their meaning (new_message → message.received, …); any other string
 *   named no event and never started anything, so it is dropped.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

/** The catalogue when this migration was written (common/api/events.ts may grow; this must not change). */
const EVENT_TYPES = [
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
const ALIASES: Record<string, string> = {
  new_message: 'message.received',
  message: 'message.received',
  message_received: 'message.received',
  new_lead: 'lead.qualified',
  lead: 'lead.qualified',
  new_conversation: 'conversation.created',
  escalation: 'conversation.escalated',
  escalated: 'conversation.escalated',
  conversation_escalated: 'conversation.escalated',
  resolved: 'conversation.resolved',
  new_contact: 'contact.created',
};

const quote = (s: string) => `'${s.replace(/'/gu, "''")}'`;

/** `<column>` with its `triggers` array's strings turned into `{event}` objects (unknown strings dropped). */
function normalized(column: string): string {
  const aliases = Object.entries(ALIASES)
    .map(([alias, event]) => `(${quote(alias)}, ${quote(event)})`)
    .join(', ');
  const events = `array[${EVENT_TYPES.map(quote).join(', ')}]`;
  return `jsonb_set(${column}, '{triggers}', coalesce((
      select jsonb_agg(case when jsonb_typeof(t.value) = 'string' then jsonb_build_object('event', coalesce(m.event, btrim(t.value #>> '{}'))) else t.value end order by t.ordinality)
      from jsonb_array_elements(${column} -> 'triggers') with ordinality t
      left join (values ${aliases}) m (alias, event) on m.alias = lower(btrim(t.value #>> '{}'))
      where jsonb_typeof(t.value) <> 'string' or coalesce(m.event, btrim(t.value #>> '{}')) = any(${events})
    ), '[]'::jsonb))`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `update templates set workflow_config = ${normalized('workflow_config')}
      where jsonb_typeof(workflow_config -> 'triggers') = 'array'`,
    `update automations set config = ${normalized('config')}
      where jsonb_typeof(config -> 'triggers') = 'array'`,

    `alter table automations add column trigger_events jsonb not null
      generated always as (jsonb_path_query_array(config, '$.triggers[*].event')) stored`,
    `create index automations_active_trigger_events_idx on automations using gin (trigger_events) where status = 'active'`,

    `alter table automation_executions drop constraint automation_executions_started_how_check`,
    `alter table automation_executions add constraint automation_executions_started_how_check
      check (started_how in ('manual', 'template', 'api', 'schedule', 'event'))`,
    `alter table automation_executions
      add column trigger_event_id uuid,
      add column trigger_event_type text check (trigger_event_type is null or length(trigger_event_type) between 1 and 100),
      add column trigger_event jsonb check (trigger_event is null or jsonb_typeof(trigger_event) = 'object')`,
    `alter table automation_executions add constraint automation_executions_event_check
      check ((started_how = 'event') = (trigger_event_id is not null) and (trigger_event_id is null) = (trigger_event_type is null))`,
    `create unique index automation_executions_trigger_event_idx on automation_executions (automation_id, trigger_event_id)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `drop index automation_executions_trigger_event_idx`,
    `delete from automation_executions where started_how = 'event'`,
    `alter table automation_executions drop constraint automation_executions_event_check`,
    `alter table automation_executions drop column trigger_event, drop column trigger_event_type, drop column trigger_event_id`,
    `alter table automation_executions drop constraint automation_executions_started_how_check`,
    `alter table automation_executions add constraint automation_executions_started_how_check
      check (started_how in ('manual', 'template', 'api', 'schedule'))`,
    `drop index automations_active_trigger_events_idx`,
    `alter table automations drop column trigger_events`,
  ]);
}
