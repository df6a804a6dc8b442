/**
 * The messaging hot paths as database functions: recording customers' messages, queueing a reply
 * and recording a send's outcome each take one round trip instead of ten or more statements
 * (BEGIN, the writes, one NOTIFY per event, one INSERT per subscriber's job, COMMIT). On this
 * machine a statement costs about as much CPU for its round trip as for its work, in Node and in
 * PostgreSQL (docs/BENCHMARKS.md, "Where the time goes"), and PL/pgSQL plans its statements once
 * per connection.
 *
 * The TypeScript side stays in charge of what is decided: it computes every value (priority,
 * summaries, previews, times) and passes the subscribers of each event and the jobs to insert;
 * these functions only write, in one transaction, what it handed them. Each has one caller
 * (MessagingService or EventBus), which documents the JSON it passes.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

/** Errors the functions raise: the TypeScript caller maps them to AppError codes. */
export const HOT_PATH_ERRORS = {
  notFound: 'PA404',
  conflict: 'PA409',
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    // Raw deliveries are read by id (the processing job, a replay); this index was only written,
    // one more entry for every delivery Meta sends.
    'drop index inbound_events_received_idx',

    // A finished job, when the worker that holds it is the one finishing it (as JobQueue does).
    // (PL/pgSQL rather than SQL functions throughout: its plans are cached per connection, a SQL
    // function called from another one is planned again at every call.)
    `create function parley_complete_job(p_job jsonb) returns void language plpgsql as $$
    begin
      if jsonb_typeof(p_job) = 'object' then
        update jobs set status = 'completed', completed_at = statement_timestamp(), updated_at = statement_timestamp(),
          locked_by = null, locked_until = null, last_error = null
        where id = (p_job->>'id')::bigint and locked_by = p_job->>'workerId';
      end if;
    end $$`,

    // Jobs, in order: [{name, payload, maxAttempts}]. Up to the slots `p_local` holds per job name
    // ({workerId, slots: {name: {n, leaseMs, hint?}}}, JobQueue.reserve) are inserted already
    // claimed by that worker, which runs them once this transaction committed; those are returned,
    // each with its `hint` — what the job's hint function (a function of the payload, named by the
    // job's definition) reads in this same transaction — so the handler need not read it again.
    // The rest are queued, with one wake-up for the workers.
    `create function parley_insert_jobs(p_jobs jsonb, p_local jsonb, p_job_channel text) returns jsonb language plpgsql as $$
    declare
      v_claimed jsonb;
      v_queued integer;
      v_row jsonb;
      v_fn text;
      v_hint jsonb;
      v_out jsonb := '[]'::jsonb;
    begin
      if p_jobs is null or jsonb_array_length(p_jobs) = 0 then
        return '[]'::jsonb;
      end if;
      with wanted as (
        select j, i, row_number() over (partition by j->>'name' order by i) as rank
        from jsonb_array_elements(p_jobs) with ordinality as t(j, i)
      ), placed as (
        select j, i,
          rank <= coalesce((p_local->'slots'->(j->>'name')->>'n')::integer, 0) as claimed,
          coalesce((p_local->'slots'->(j->>'name')->>'leaseMs')::bigint, 0) as lease_ms
        from wanted
      ), inserted as (
        insert into jobs (name, payload, max_attempts, run_at, status, attempts, locked_by, locked_until)
        select j->>'name', j->'payload', (j->>'maxAttempts')::integer, statement_timestamp(),
          case when claimed then 'running' else 'queued' end,
          case when claimed then 1 else 0 end,
          case when claimed then p_local->>'workerId' end,
          case when claimed then statement_timestamp() + lease_ms * interval '1 millisecond' end
        from placed order by i
        returning id, name, payload, attempts, max_attempts, status
      )
      select
        coalesce(jsonb_agg(jsonb_build_object('id', id, 'name', name, 'payload', payload, 'attempts', attempts, 'maxAttempts', max_attempts) order by id)
          filter (where status = 'running'), '[]'::jsonb),
        count(*) filter (where status = 'queued')
      into v_claimed, v_queued
      from inserted;
      if v_queued > 0 then
        perform pg_notify(p_job_channel, '{}');
      end if;
      for v_row in select value from jsonb_array_elements(v_claimed) loop
        v_fn := p_local->'slots'->(v_row->>'name')->>'hint';
        if v_fn is not null then
          execute format('select %I($1)', v_fn) into v_hint using v_row->'payload';
          v_row := v_row || jsonb_build_object('hint', v_hint);
        end if;
        v_out := v_out || v_row;
      end loop;
      return v_out;
    end $$`,

    // What the AI agent needs to answer one customer message ({messageId}: the agent's job
    // payload), in one read: the message, its conversation, channel, contact and client, the
    // client's agent and live knowledge version, whether a newer customer message or an answer
    // exists, and the conversation's 30 most recent messages (newest first). Null for an unknown
    // or outbound message. AgentPolicy reads it; it is also the agent job's hint.
    `create function parley_agent_context(p_payload jsonb) returns jsonb language plpgsql stable as $$
    begin
      return (select jsonb_build_object(
        'id', m.id, 'content', m.content, 'createdAt', m.created_at, 'externalMessageId', m.external_message_id,
        'conversationId', m.conversation_id, 'clientId', m.client_id, 'channelId', m.channel_id, 'priority', m.priority,
        'status', c.status, 'handledBy', c.handled_by, 'lastInboundAt', c.last_inbound_at,
        'kind', ch.kind, 'channelStatus', ch.status, 'contactExternalId', ct.external_id, 'contactName', ct.name,
        'companyName', cl.company_name,
        'liveVersion', (select kb.live_version from knowledge_bases kb where kb.client_id = m.client_id),
        'agent', (select to_jsonb(a) from agents a where a.client_id = m.client_id),
        -- only the newest customer message is answered (ties on the time broken by id), and only
        -- if nobody answered since
        'superseded', exists (
          select 1 from messages l
          where l.conversation_id = m.conversation_id and l.id <> m.id
            and ((l.direction = 'inbound' and (l.created_at > m.created_at or (l.created_at = m.created_at and l.id > m.id)))
              or (l.sender_type in ('ai', 'agent') and l.created_at >= m.created_at))),
        'recent', coalesce((
          select jsonb_agg(jsonb_build_object('senderType', h.sender_type, 'content', h.content, 'createdAt', h.created_at) order by h.created_at desc, h.id desc)
          from (select sender_type, content, created_at, id from messages
                where conversation_id = m.conversation_id order by created_at desc, id desc limit 30) h), '[]'::jsonb))
      from messages m
      join conversations c on c.id = m.conversation_id
      join channels ch on ch.id = m.channel_id
      join contacts ct on ct.id = c.contact_id
      join clients cl on cl.id = m.client_id
      where m.id = (p_payload->>'messageId')::uuid and m.direction = 'inbound');
    end $$`,

    // Domain events: the subscribers' jobs (one per matching subscription, its payload the keys it
    // names from the event's payload; parley_insert_jobs), and the events themselves as JSON arrays
    // of at most 16 (a NOTIFY carries at most 8000 bytes; events carry ids only).
    // Subscriptions: [{event, where, unlessPerformedBy, job, maxAttempts, keys}]. Returns the jobs
    // claimed for `p_local`.
    `create function parley_publish(p_events jsonb, p_subscriptions jsonb, p_event_channel text, p_job_channel text, p_local jsonb default null)
    returns jsonb language plpgsql as $$
    declare
      v_jobs jsonb;
      v_chunk jsonb;
    begin
      if p_events is null or jsonb_array_length(p_events) = 0 then
        return '[]'::jsonb;
      end if;
      select coalesce(jsonb_agg(jsonb_build_object(
          'name', s->>'job',
          'payload', coalesce((select jsonb_object_agg(k, e->'payload'->k) from jsonb_array_elements_text(s->'keys') as k), '{}'::jsonb),
          'maxAttempts', (s->>'maxAttempts')::integer) order by i), '[]'::jsonb)
      into v_jobs
      from jsonb_array_elements(p_events) with ordinality as ev(e, i)
      join jsonb_array_elements(coalesce(p_subscriptions, '[]'::jsonb)) as s on s->>'event' = e->>'name'
      where (e->'payload') @> coalesce(s->'where', '{}'::jsonb)
        and not coalesce((s->'unlessPerformedBy') ? (e->'performedBy'->>'kind'), false);
      for v_chunk in
        select jsonb_agg(e order by i) from jsonb_array_elements(p_events) with ordinality as ev(e, i)
        group by (i - 1) / 16 order by min(i)
      loop
        perform pg_notify(p_event_channel, v_chunk::text);
      end loop;
      return parley_insert_jobs(v_jobs, p_local, p_job_channel);
    end $$`,

    // Customers' messages on one channel, in order (MessagingService.recordInboundBatch):
    // the contact (created, or renamed when the platform sends a new name), its conversation
    // (created, or reopened when resolved), the message once per external id (a redelivery
    // stores nothing: the unique index decides), the conversation's state, the events and their
    // subscribers' jobs; then, optionally, the raw deliveries marked processed and the job done.
    // Returns {results: [{created, messageId, conversationId}], claimed: [jobs claimed for p.local]}.
    `create function parley_record_inbound(p jsonb) returns jsonb language plpgsql as $$
    declare
      v_channel uuid := (p->>'channelId')::uuid;
      v_client uuid := (p->>'clientId')::uuid;
      v_now timestamptz := (p->>'now')::timestamptz;
      v_item jsonb;
      v_contact uuid;
      v_conv uuid;
      v_conv_created boolean;
      v_last timestamptz;
      v_at timestamptz;
      v_msg uuid;
      v_status text;
      v_events jsonb := '[]'::jsonb;
      v_results jsonb := '[]'::jsonb;
      v_claimed jsonb;
    begin
      for v_item in select value from jsonb_array_elements(p->'items') loop
        insert into contacts (client_id, channel_id, external_id, name, avatar_url)
        values (v_client, v_channel, v_item->>'contactExternalId', v_item->>'contactName', v_item->>'contactAvatarUrl')
        on conflict (channel_id, external_id) do update set
          name = coalesce(excluded.name, contacts.name),
          avatar_url = coalesce(excluded.avatar_url, contacts.avatar_url),
          updated_at = v_now
        where (excluded.name is not null and excluded.name is distinct from contacts.name)
          or (excluded.avatar_url is not null and excluded.avatar_url is distinct from contacts.avatar_url)
        returning id into v_contact;
        if v_contact is null then
          select c.id into v_contact from contacts c where c.channel_id = v_channel and c.external_id = v_item->>'contactExternalId';
        end if;

        insert into conversations (client_id, channel_id, contact_id, title)
        values (v_client, v_channel, v_contact, v_item->>'contactName')
        on conflict (contact_id) do nothing
        returning id into v_conv;
        v_conv_created := v_conv is not null;
        v_last := null;
        if not v_conv_created then
          select c.id, c.last_message_at into v_conv, v_last from conversations c where c.contact_id = v_contact;
        end if;
        -- A conversation's messages have strictly increasing times, also within one batch.
        v_at := greatest(v_now, v_last + interval '1 microsecond');

        insert into messages (conversation_id, client_id, channel_id, direction, sender_type, content, message_type, media,
          status, external_message_id, priority, ai_summary, sentiment, created_at)
        values (v_conv, v_client, v_channel, 'inbound', 'customer', v_item->>'text', v_item->>'type',
          case when jsonb_typeof(v_item->'media') = 'object' then v_item->'media' end,
          'received', v_item->>'externalId', v_item->>'priority', v_item->>'aiSummary', (v_item->>'sentiment')::real, v_at)
        on conflict (channel_id, external_message_id) where external_message_id is not null do nothing
        returning id into v_msg;
        if v_msg is null then
          select m.id into v_msg from messages m where m.channel_id = v_channel and m.external_message_id = v_item->>'externalId';
          v_results := v_results || jsonb_build_object('created', false, 'messageId', v_msg, 'conversationId', v_conv);
          continue;
        end if;

        update conversations c set
          status = case when c.status = 'resolved' then 'active' else c.status end,
          unread_count = c.unread_count + 1,
          last_message_at = v_at,
          last_message_preview = v_item->>'preview',
          last_inbound_at = v_at,
          awaiting_since = coalesce(c.awaiting_since, v_at),
          priority = case
            when v_item->>'priority' = 'high' or c.priority = 'high' then 'high'
            when v_item->>'priority' = 'medium' or c.priority = 'medium' then 'medium'
            else 'low' end,
          ai_summary = v_item->>'aiSummary',
          -- the mood moves with each message, recent ones weighing more
          sentiment = case
            when v_item->>'sentiment' is null then c.sentiment
            when c.sentiment is null then (v_item->>'sentiment')::real
            else round((c.sentiment * 0.6 + (v_item->>'sentiment')::real * 0.4)::numeric, 3)::real end,
          updated_at = v_now
        where c.id = v_conv
        returning c.status into v_status;

        v_events := v_events
          || jsonb_build_object('name', 'message.created', 'at', p->>'at', 'performedBy', p->'performedBy',
               'payload', jsonb_build_object('messageId', v_msg, 'conversationId', v_conv, 'clientId', v_client,
                 'channelId', v_channel, 'direction', 'inbound', 'senderType', 'customer'))
          || case when v_conv_created
               then jsonb_build_object('name', 'conversation.created', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client))
               else jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'status', v_status)) end;
        v_results := v_results || jsonb_build_object('created', true, 'messageId', v_msg, 'conversationId', v_conv);
      end loop;

      v_claimed := parley_publish(v_events, p->'subscriptions', p->>'eventChannel', p->>'jobChannel', p->'local');
      if jsonb_typeof(p->'processed') = 'object' then
        -- one by primary key: a join with the JSON would be planned for a hundred rows and scan the table
        for v_item in select value from jsonb_array_elements(p->'processed'->'events') loop
          update inbound_events set processed_at = v_now, error = v_item->>'error' where id = (v_item->>'id')::bigint;
        end loop;
      end if;
      perform parley_complete_job(p->'completeJob');
      return jsonb_build_object('results', v_results, 'claimed', v_claimed);
    end $$`,

    // A reply on a conversation (MessagingService.sendMessage): refused on a disabled channel and,
    // on the channels that have one, outside the customer-service window; the message queued, the
    // conversation's state, the send job, the events; optionally the summaries the AI agent
    // computed and its job done. Returns {message, claimed: [the send job, if claimed for
    // p.local], channel (the row, secrets sealed), recipient (the contact's id on the channel)}:
    // what the send job needs.
    `create function parley_send_message(p jsonb) returns jsonb language plpgsql as $$
    declare
      v_now timestamptz := (p->>'now')::timestamptz;
      v_at timestamptz;
      v_conv record;
      v_message messages;
      v_status text;
      v_sender text := p->>'senderType';
      v_events jsonb;
      v_claimed jsonb;
    begin
      select c.id, c.client_id, c.channel_id, c.last_inbound_at, c.last_message_at, ch.kind, ch.status as channel_status,
        to_jsonb(ch) as channel, ct.external_id as recipient
      into v_conv
      from conversations c join channels ch on ch.id = c.channel_id join contacts ct on ct.id = c.contact_id
      where c.id = (p->>'conversationId')::uuid
      for update of c;
      if not found then
        raise exception 'conversation_not_found' using errcode = '${HOT_PATH_ERRORS.notFound}';
      end if;
      if v_conv.channel_status <> 'active' then
        raise exception 'channel_disabled' using errcode = '${HOT_PATH_ERRORS.conflict}';
      end if;
      if (p->'windowKinds') ? v_conv.kind
        and (v_conv.last_inbound_at is null or v_now - v_conv.last_inbound_at >= ((p->>'windowMs')::bigint * interval '1 millisecond')) then
        raise exception 'window_closed' using errcode = '${HOT_PATH_ERRORS.conflict}';
      end if;
      -- The AI agent's reply to one message (p.replyTo): only while it is the newest customer
      -- message and nobody answered it — checked under the conversation's lock, so a burst of
      -- messages gets one reply even when several answers are computed at once.
      if jsonb_typeof(p->'replyTo') = 'string' and exists (
        select 1 from messages r join messages l on l.conversation_id = r.conversation_id and l.id <> r.id
        where r.id = (p->>'replyTo')::uuid
          and ((l.direction = 'inbound' and (l.created_at > r.created_at or (l.created_at = r.created_at and l.id > r.id)))
            or (l.sender_type in ('ai', 'agent') and l.created_at >= r.created_at))) then
        perform parley_complete_job(p->'completeJob');
        return jsonb_build_object('skipped', true);
      end if;
      -- A conversation's messages have strictly increasing times.
      v_at := greatest(v_now, v_conv.last_message_at + interval '1 microsecond');

      insert into messages (conversation_id, client_id, channel_id, direction, sender_type, sender_id, content, message_type,
        status, ai_confidence, ai, created_at)
      values (v_conv.id, v_conv.client_id, v_conv.channel_id, 'outbound', v_sender, (p->>'senderId')::uuid, p->>'text', 'text',
        'queued', (p->>'aiConfidence')::real, case when jsonb_typeof(p->'ai') = 'object' then p->'ai' end, v_at)
      returning * into v_message;

      update conversations c set
        last_message_at = v_at,
        last_message_preview = p->>'preview',
        first_response_at = coalesce(c.first_response_at, case when c.last_inbound_at is not null then v_at end),
        -- a person's reply takes over the conversation
        handled_by = case when v_sender = 'agent' then 'human' else c.handled_by end,
        -- system notes answer nobody; AI and people's replies end the customer's wait
        response_count = c.response_count + case when v_sender <> 'system' and c.awaiting_since is not null then 1 else 0 end,
        response_seconds_total = c.response_seconds_total + case when v_sender <> 'system'
          then coalesce(greatest(0, extract(epoch from (v_at - c.awaiting_since))), 0) else 0 end,
        awaiting_since = case when v_sender <> 'system' then null else c.awaiting_since end,
        ai_summary = coalesce(p->>'conversationSummary', c.ai_summary),
        updated_at = v_now
      where c.id = v_conv.id
      returning c.status into v_status;

      if jsonb_typeof(p->'inboundSummary') = 'object' then
        update messages set ai_summary = p->'inboundSummary'->>'aiSummary'
        where id = (p->'inboundSummary'->>'messageId')::uuid;
      end if;

      v_claimed := parley_insert_jobs(
        jsonb_build_array(jsonb_build_object('name', p->'sendJob'->>'name', 'payload', jsonb_build_object('messageId', v_message.id),
          'maxAttempts', (p->'sendJob'->>'maxAttempts')::integer)),
        p->'local', p->>'jobChannel');

      v_events := jsonb_build_array(
        jsonb_build_object('name', 'message.created', 'at', p->>'at', 'performedBy', p->'performedBy',
          'payload', jsonb_build_object('messageId', v_message.id, 'conversationId', v_conv.id, 'clientId', v_conv.client_id,
            'channelId', v_conv.channel_id, 'direction', 'outbound', 'senderType', v_sender)),
        jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
          'payload', jsonb_build_object('conversationId', v_conv.id, 'clientId', v_conv.client_id, 'status', v_status)));
      v_claimed := v_claimed || parley_publish(v_events, p->'subscriptions', p->>'eventChannel', p->>'jobChannel', p->'local');
      perform parley_complete_job(p->'completeJob');
      return jsonb_build_object('message', to_jsonb(v_message), 'claimed', v_claimed, 'channel', v_conv.channel, 'recipient', v_conv.recipient);
    end $$`,

    // The send job's outcome (MessagingService.markSent / markFailed): only a queued message
    // changes; the event; optionally the job done.
    `create function parley_finish_send(p jsonb) returns boolean language plpgsql as $$
    declare
      v_message record;
      v_changed boolean;
    begin
      update messages m set
        status = p->>'status',
        external_message_id = coalesce(m.external_message_id, p->>'externalMessageId'),
        sent_at = coalesce((p->>'sentAt')::timestamptz, m.sent_at),
        attempts = (p->>'attempts')::integer,
        error_code = p->>'errorCode',
        error_message = p->>'errorMessage'
      where m.id = (p->>'messageId')::uuid and m.status = 'queued'
      returning m.id, m.conversation_id, m.client_id, m.status into v_message;
      v_changed := found;
      if v_changed then
        perform parley_publish(
          jsonb_build_array(jsonb_build_object('name', 'message.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
            'payload', jsonb_build_object('messageId', v_message.id, 'conversationId', v_message.conversation_id,
              'clientId', v_message.client_id, 'status', v_message.status))),
          p->'subscriptions', p->>'eventChannel', p->>'jobChannel');
      end if;
      perform parley_complete_job(p->'completeJob');
      return v_changed;
    end $$`,

    // A conversation's summary (the AI agent's) with its event; optionally the job done.
    `create function parley_set_conversation_summary(p jsonb) returns void language plpgsql as $$
    declare
      v_conv record;
    begin
      update conversations c set ai_summary = p->>'summary'
      where c.id = (p->>'conversationId')::uuid
      returning c.id, c.client_id, c.status into v_conv;
      if found then
        perform parley_publish(
          jsonb_build_array(jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
            'payload', jsonb_build_object('conversationId', v_conv.id, 'clientId', v_conv.client_id, 'status', v_conv.status))),
          p->'subscriptions', p->>'eventChannel', p->>'jobChannel');
      end if;
      perform parley_complete_job(p->'completeJob');
    end $$`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'create index inbound_events_received_idx on inbound_events (received_at desc)',
    'drop function parley_set_conversation_summary(jsonb)',
    'drop function parley_finish_send(jsonb)',
    'drop function parley_send_message(jsonb)',
    'drop function parley_record_inbound(jsonb)',
    'drop function parley_publish(jsonb, jsonb, text, text, jsonb)',
    'drop function parley_agent_context(jsonb)',
    'drop function parley_insert_jobs(jsonb, jsonb, text)',
    'drop function parley_complete_job(jsonb)',
  ]);
}
