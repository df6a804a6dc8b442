/**
 * The insights module's database function: the mark a new conversation, message or satisfaction
 * answer leaves for the `insights.recompute` job (InsightsService.register, `collect`
 * subscriptions of the event bus), called by `parley_publish` in the transaction of the change
 * with the events' payloads.
 *
 * A plain message (`direction` in its payload: a customer's, or the AI's) only counts itself in
 * the mark; anything else (a new conversation, a person's reply, a satisfaction answer) asks for a
 * recompute from the facts (`recompute`). The job adds a mark's counts to the conversation's row
 * where the row already holds what such a message could change (InsightsRepository.addCounts),
 * and recomputes the rest.
 *
 * A conversation already marked gets its `version` moved on (and its counts added) instead: that
 * update takes the mark's row lock until the change commits, so a recompute clearing the mark it
 * read (by version) either waits and then leaves the newer mark, or cleared it before — and then
 * this inserts a new one. Either way a change that committed after a recompute read its facts
 * stays marked.
 *
 * Applied by `migrateToLatest` when this file changes; the rules (only `create or replace`,
 * signature changes need a migration) are in server/db/routines.ts. The table is migrations
 * 0038's and 0039's.
 */
import { defineSqlRoutines } from '../../db/routines';

export const insightsRoutines = defineSqlRoutines({
  name: 'insights',
  statements: [
    // p_payloads: [{conversationId, direction?, senderType?}] (the subscriptions' keys). In id
    // order, so two transactions marking the same conversations take their rows' locks in the
    // same order.
    `create or replace function parley_insights_mark(p_payloads jsonb) returns void language plpgsql as $$
    begin
      insert into service_level_marks as m (conversation_id, recompute, customer_messages, ai_replies)
      select (p->>'conversationId')::uuid,
        bool_or(not coalesce(p->>'direction' = 'inbound' or (p->>'direction' = 'outbound' and p->>'senderType' = 'ai'), false)),
        count(*) filter (where p->>'direction' = 'inbound'),
        count(*) filter (where p->>'direction' = 'outbound' and p->>'senderType' = 'ai')
      from jsonb_array_elements(p_payloads) as p
      where jsonb_typeof(p->'conversationId') = 'string'
      group by 1
      order by 1
      on conflict (conversation_id) do update set version = m.version + 1, recompute = m.recompute or excluded.recompute,
        customer_messages = m.customer_messages + excluded.customer_messages, ai_replies = m.ai_replies + excluded.ai_replies;
    end $$`,
  ],
});
