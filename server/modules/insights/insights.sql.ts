/**
 * The insights module's database function: the mark a new conversation or message leaves for the
 * `insights.recompute` job (InsightsService.register, `collect` subscriptions of the event bus),
 * called by `parley_publish` in the transaction of the change with the events' payloads.
 *
 * A conversation already marked gets its `version` moved on instead: that update takes the
 * mark's row lock until the change commits, so a recompute clearing the mark it read (by version)
 * either waits and then leaves the newer mark, or cleared it before — and then this inserts a new
 * one. Either way a change that committed after a recompute read its facts stays marked.
 *
 * Applied by `migrateToLatest` when this file changes; the rules (only `create or replace`,
 * signature changes need a migration) are in server/db/routines.ts. The table is migration 0038's.
 */
import { defineSqlRoutines } from '../../db/routines';

export const insightsRoutines = defineSqlRoutines({
  name: 'insights',
  statements: [
    // p_payloads: [{conversationId}] (the subscriptions' keys). In id order, so two transactions
    // marking the same conversations take their rows' locks in the same order.
    `create or replace function parley_insights_mark(p_payloads jsonb) returns void language plpgsql as $$
    begin
      insert into service_level_marks as m (conversation_id)
      select distinct (p->>'conversationId')::uuid
      from jsonb_array_elements(p_payloads) as p
      where jsonb_typeof(p->'conversationId') = 'string'
      order by 1
      on conflict (conversation_id) do update set version = m.version + 1;
    end $$`,
  ],
});
