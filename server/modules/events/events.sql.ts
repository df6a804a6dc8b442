/**
 * The public events' outbox's database functions (EventsService.recordBatch): a batch of
 * `events.record` jobs is stored in two round trips — what its events are made of, then the events
 * and the jobs' completion — instead of one per step, because a batch runs for every few events
 * and on PGlite each statement takes the one core the reply path also needs (issue 14 §8).
 * Applied by `migrateToLatest` when this file changes (server/db/routines.ts).
 *
 * Both answer jsonb that the caller reads as text: the CamelCasePlugin renames nested keys, and an
 * envelope's keys are snake_case on purpose (the public payload). Keys here are the repository's
 * row fields (camelCase); times are ISO strings.
 */
import { defineSqlRoutines } from '../../db/routines';

export const eventsOutboxRoutines = defineSqlRoutines({
  name: 'events-outbox',
  statements: [
    // p: {conversationIds: [text], before: [bigint, one per conversation], except: [bigint], payloads: [job payload]}.
    // 1. The conversations' locks, in sorted order (two batches sharing conversations never wait in
    //    a circle), held to the end of the transaction: their events take seq in the order of the changes.
    // 2. Their `events.record` jobs still waiting that were queued before the batch's last job of
    //    that conversation (job ids follow the changes), not the batch's own: stored first.
    // 3. The snapshots every payload (the batch's and those jobs') needs, one query per kind.
    // Returns {pending: [{id, payload}], conversations, messages, contacts, executions, contactMessages}.
    `create or replace function parley_events_prepare(p jsonb) returns jsonb language plpgsql as $$
    declare
      v_pending jsonb;
      v_payloads jsonb;
      v_conversations jsonb;
      v_messages jsonb;
      v_contacts jsonb;
      v_executions jsonb;
      v_contact_messages jsonb;
    begin
      perform pg_advisory_xact_lock(hashtextextended('parley.events:' || s.c, 0))
      from (select jsonb_array_elements_text(coalesce(p->'conversationIds', '[]'::jsonb)) as c order by 1) as s;

      select coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'payload', j.payload) order by j.id), '[]'::jsonb)
      into v_pending
      from jsonb_array_elements_text(coalesce(p->'conversationIds', '[]'::jsonb)) with ordinality as b(conversation_id, i)
      join jobs j on j.payload->>'conversationId' = b.conversation_id and j.id < (p->'before'->>(b.i::integer - 1))::bigint
      where j.name = 'events.record' and j.status in ('queued', 'running')
        and not (coalesce(p->'except', '[]'::jsonb) @> to_jsonb(j.id));

      v_payloads := coalesce(p->'payloads', '[]'::jsonb) || coalesce((select jsonb_agg(e->'payload') from jsonb_array_elements(v_pending) as e), '[]'::jsonb);

      select coalesce(jsonb_agg(jsonb_build_object(
          'id', c.id, 'clientId', c.client_id, 'clientName', cl.company_name, 'channelId', c.channel_id, 'platform', ch.kind,
          'status', c.status, 'handledBy', c.handled_by, 'priority', c.priority, 'title', c.title, 'isLead', c.is_lead,
          'leadEmail', c.lead_email, 'leadPhone', c.lead_phone, 'leadSignals', c.lead_signals, 'createdAt', c.created_at,
          'contactId', c.contact_id, 'contactName', ct.name, 'contactExternalId', ct.external_id, 'contactCreatedAt', ct.created_at)), '[]'::jsonb)
      into v_conversations
      from conversations c
      join clients cl on cl.id = c.client_id
      join channels ch on ch.id = c.channel_id
      join contacts ct on ct.id = c.contact_id
      where c.id in (
        select (x->>'conversationId')::uuid from jsonb_array_elements(v_payloads) as x
        where x->>'event' not in ('contact.created', 'automation.execution.updated') and x ? 'conversationId');

      select coalesce(jsonb_agg(jsonb_build_object(
          'id', m.id, 'conversationId', m.conversation_id, 'direction', m.direction, 'senderType', m.sender_type,
          'messageType', m.message_type, 'content', m.content, 'status', m.status, 'errorMessage', m.error_message,
          'createdAt', m.created_at)), '[]'::jsonb)
      into v_messages
      from messages m
      where m.id in (
        select (x->>'messageId')::uuid from jsonb_array_elements(v_payloads) as x
        where x->>'event' in ('message.created', 'message.updated', 'lead.qualified') and x ? 'messageId');

      -- A contact's lead details: its newest conversation's.
      select coalesce(jsonb_agg(to_jsonb(k)), '[]'::jsonb)
      into v_contacts
      from (
        select distinct on (ct.id) ct.id, ct.client_id as "clientId", ct.name, ct.external_id as "externalId", ch.kind as platform,
          ct.created_at as "createdAt", c.lead_email as "leadEmail", c.lead_phone as "leadPhone"
        from contacts ct
        join channels ch on ch.id = ct.channel_id
        left join conversations c on c.contact_id = ct.id
        where ct.id in (
          select (x->>'contactId')::uuid from jsonb_array_elements(v_payloads) as x
          where x->>'event' = 'contact.created' and x ? 'contactId')
        order by ct.id, c.created_at desc nulls last
      ) as k;

      select coalesce(jsonb_agg(jsonb_build_object(
          'id', e.id, 'automationId', e.automation_id, 'automationName', a.name, 'clientId', a.client_id, 'status', e.status,
          'startedAt', e.started_at, 'finishedAt', e.finished_at, 'errorMessage', e.error_message, 'triggerEventType', e.trigger_event_type)), '[]'::jsonb)
      into v_executions
      from automation_executions e
      join automations a on a.id = e.automation_id
      where e.id in (
        select (x->>'executionId')::uuid from jsonb_array_elements(v_payloads) as x
        where x->>'event' = 'automation.execution.updated' and x ? 'executionId');

      -- The website's contact form (contact_message.created: messageId is the contact message's).
      select coalesce(jsonb_agg(jsonb_build_object(
          'id', m.id, 'firstName', m.first_name, 'lastName', m.last_name, 'email', m.email, 'company', m.company,
          'message', m.message, 'createdAt', m.created_at)), '[]'::jsonb)
      into v_contact_messages
      from contact_messages m
      where m.id in (
        select (x->>'messageId')::uuid from jsonb_array_elements(v_payloads) as x
        where x->>'event' = 'contact_message.created' and x ? 'messageId');

      return jsonb_build_object('pending', v_pending, 'conversations', v_conversations, 'messages', v_messages,
        'contacts', v_contacts, 'executions', v_executions, 'contactMessages', v_contact_messages);
    end $$`,

    // p_rows: events in order ({id, type, dedupe_key, client_id, conversation_id, performed_by,
    // envelope, created_at}); seq follows that order (the rows are inserted one by one). One already
    // stored under its dedupe key is skipped. Then the jobs (p_completions: [{id, workerId}]) are
    // completed. Returns the stored events: [{id, seq (text), type, clientId, conversationId,
    // performedBy, envelope}] in seq order, performedBy and envelope as JSON text.
    `create or replace function parley_events_store(p_rows jsonb, p_completions jsonb) returns jsonb language plpgsql as $$
    declare
      v_row jsonb;
      v_stored record;
      v_out jsonb := '[]'::jsonb;
    begin
      for v_row in select r from jsonb_array_elements(coalesce(p_rows, '[]'::jsonb)) with ordinality as t(r, i) order by i loop
        insert into events (id, type, dedupe_key, client_id, conversation_id, performed_by, envelope, created_at)
        values ((v_row->>'id')::uuid, v_row->>'type', v_row->>'dedupe_key', (v_row->>'client_id')::uuid,
          (v_row->>'conversation_id')::uuid, v_row->'performed_by', v_row->'envelope', (v_row->>'created_at')::timestamptz)
        on conflict (type, dedupe_key) do nothing
        returning events.id, events.seq, events.type, events.client_id, events.conversation_id, events.performed_by, events.envelope into v_stored;
        if found then
          v_out := v_out || jsonb_build_array(jsonb_build_object('id', v_stored.id, 'seq', v_stored.seq::text, 'type', v_stored.type,
            'clientId', v_stored.client_id, 'conversationId', v_stored.conversation_id,
            'performedBy', v_stored.performed_by::text, 'envelope', v_stored.envelope::text));
        end if;
      end loop;
      perform parley_complete_job(c) from jsonb_array_elements(coalesce(p_completions, '[]'::jsonb)) as c;
      return v_out;
    end $$`,
  ],
});
