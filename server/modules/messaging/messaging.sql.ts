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
 * (MessagingService or OutboundService), which documents the JSON it passes. They call
 * `parley_publish` (server/events/events.sql.ts), `parley_insert_jobs` and `parley_complete_job`
 * (server/jobs/jobs.sql.ts).
 *
 * Applied by `migrateToLatest` when this file changes; the rules (only `create or replace`,
 * signature changes need a migration) are in server/db/routines.ts. First created by migrations
 * 0005, 0007 (parley_begin_send, parley_finish_send) and 0009 (parley_record_inbound).
 */
import { defineSqlRoutines } from '../../db/routines';

/** Errors the functions raise: the TypeScript caller maps them to AppError codes. */
export const HOT_PATH_ERRORS = {
  notFound: 'PA404',
  conflict: 'PA409',
} as const;

export const messagingRoutines = defineSqlRoutines({
  name: 'messaging',
  statements: [
    // Customers' messages on one channel, in order (MessagingService.recordInboundBatch):
    // the contact (created, or renamed when the platform sends a new name), its conversation
    // (created, or reopened when resolved: back to the AI when the client's agent is on for the
    // channel, else it stays with people and `conversation.reopened` is published — their
    // notification; unread either way), the message once per external id (a redelivery stores
    // nothing: the unique index decides) with its priority's reason (item.priorityReason), the
    // conversation's state (its priority's reason: the message's that raised it), the events and their
    // subscribers' jobs, the profile jobs of new contacts (p.profileJob: {name, maxAttempts}, or
    // null where the channel's webhooks carry the name); then, optionally, the raw deliveries
    // marked processed and the job done.
    // Returns {results: [{created, messageId, conversationId}], claimed: [jobs claimed for p.local]}.
    `create or replace function parley_record_inbound(p jsonb) returns jsonb language plpgsql as $$
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
      v_previous text;
      v_to_ai boolean;
      v_handled_by text;
      v_contact_created boolean;
      v_was_lead boolean;
      v_paused boolean;
      v_leads boolean;
      v_survey uuid;
      v_profile_jobs jsonb := '[]'::jsonb;
      v_events jsonb := '[]'::jsonb;
      v_results jsonb := '[]'::jsonb;
      v_claimed jsonb;
    begin
      -- The client's switches (docs/client-dashboard.md): its automation paused (a reopened
      -- conversation stays with people) and whether its conversations can become leads.
      select cl.automation_paused_at is not null, cl.lead_qualification into v_paused, v_leads
      from clients cl where cl.id = v_client;
      for v_item in select value from jsonb_array_elements(p->'items') loop
        insert into contacts (client_id, channel_id, external_id, name, avatar_url)
        values (v_client, v_channel, v_item->>'contactExternalId', v_item->>'contactName', v_item->>'contactAvatarUrl')
        on conflict (channel_id, external_id) do update set
          name = coalesce(excluded.name, contacts.name),
          avatar_url = coalesce(excluded.avatar_url, contacts.avatar_url),
          updated_at = v_now
        where (excluded.name is not null and excluded.name is distinct from contacts.name)
          or (excluded.avatar_url is not null and excluded.avatar_url is distinct from contacts.avatar_url)
        returning id, xmax = 0 into v_contact, v_contact_created;
        -- A new contact whose platform sends no name (Messenger, Instagram): its profile is
        -- fetched from the Graph API by a job (p.profileJob, set by the caller for those channels).
        if v_contact_created and v_item->>'contactName' is null and jsonb_typeof(p->'profileJob') = 'object' then
          v_profile_jobs := v_profile_jobs || jsonb_build_object('name', p->'profileJob'->>'name',
            'payload', jsonb_build_object('contactId', v_contact), 'maxAttempts', (p->'profileJob'->>'maxAttempts')::integer);
        end if;
        if v_contact is null then
          select c.id into v_contact from contacts c where c.channel_id = v_channel and c.external_id = v_item->>'contactExternalId';
        elsif v_contact_created then
          v_events := v_events || jsonb_build_object('name', 'contact.created', 'at', p->>'at', 'performedBy', p->'performedBy',
            'payload', jsonb_build_object('contactId', v_contact, 'clientId', v_client, 'channelId', v_channel));
        end if;

        insert into conversations (client_id, channel_id, contact_id, title)
        values (v_client, v_channel, v_contact, v_item->>'contactName')
        on conflict (contact_id) do nothing
        returning id into v_conv;
        v_conv_created := v_conv is not null;
        v_last := null;
        v_previous := 'active';
        v_was_lead := false;
        if not v_conv_created then
          -- Locked now (the update below would lock it anyway): the status read here is the one
          -- the update changes, so exactly one message reopens a resolved conversation (and one
          -- makes it a lead).
          select c.id, c.last_message_at, c.status, c.is_lead into v_conv, v_last, v_previous, v_was_lead
          from conversations c where c.contact_id = v_contact for update;
        end if;
        -- A conversation's messages have strictly increasing times, also within one batch.
        v_at := greatest(v_now, v_last + interval '1 microsecond');
        -- A rating (item.rating: {rating, comment, surveyId?}, read from the text or given by the
        -- widget or the API) answers the resolved conversation's pending satisfaction survey (the
        -- one named, if any): locked here, so it is answered once.
        -- A rating that names its survey (the widget's stars) answers it even if the customer wrote
        -- in between, and is not stored at all when the survey is no longer pending.
        v_survey := null;
        if jsonb_typeof(v_item->'rating') = 'object' and (v_previous = 'resolved' or v_item->'rating'->>'surveyId' is not null) then
          select s.id into v_survey from satisfaction_surveys s
          where s.conversation_id = v_conv and s.status = 'pending' and s.expires_at > v_now
            and (v_item->'rating'->>'surveyId' is null or s.id = (v_item->'rating'->>'surveyId')::uuid)
          for update;
          if v_survey is null and v_item->'rating'->>'surveyId' is not null then
            v_results := v_results || jsonb_build_object('created', false, 'messageId', null, 'conversationId', v_conv);
            continue;
          end if;
        end if;

        insert into messages (conversation_id, client_id, channel_id, direction, sender_type, content, message_type, media,
          status, external_message_id, priority, priority_reason, ai_summary, sentiment, survey_id, created_at)
        values (v_conv, v_client, v_channel, 'inbound', 'customer', v_item->>'text', v_item->>'type',
          case when jsonb_typeof(v_item->'media') = 'object' then v_item->'media' end,
          'received', v_item->>'externalId', v_item->>'priority', v_item->>'priorityReason', v_item->>'aiSummary',
          (v_item->>'sentiment')::real, v_survey, v_at)
        on conflict (channel_id, external_message_id) where external_message_id is not null do nothing
        returning id into v_msg;
        if v_msg is null then
          select m.id into v_msg from messages m where m.channel_id = v_channel and m.external_message_id = v_item->>'externalId';
          v_results := v_results || jsonb_build_object('created', false, 'messageId', v_msg, 'conversationId', v_conv);
          continue;
        end if;

        -- The survey's answer leaves the conversation resolved: not unread, nobody's to answer, no
        -- reopening; the thread shows it (the message carries the survey) and the rating is stored.
        if v_survey is not null then
          update satisfaction_surveys set status = 'answered', rating = (v_item->'rating'->>'rating')::smallint,
            comment = nullif(v_item->'rating'->>'comment', ''), answered_at = v_at
          where id = v_survey;
          update conversations c set last_message_at = v_at, last_message_preview = v_item->>'preview', last_inbound_at = v_at, updated_at = v_now
          where c.id = v_conv
          returning c.status into v_status;
          v_events := v_events
            || jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'status', v_status))
            || jsonb_build_object('name', 'message.created', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('messageId', v_msg, 'conversationId', v_conv, 'clientId', v_client,
                   'channelId', v_channel, 'direction', 'inbound', 'senderType', 'customer'))
            || jsonb_build_object('name', 'satisfaction.rated', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('surveyId', v_survey, 'conversationId', v_conv, 'clientId', v_client,
                   'rating', (v_item->'rating'->>'rating')::integer));
          v_results := v_results || jsonb_build_object('created', true, 'messageId', v_msg, 'conversationId', v_conv, 'surveyId', v_survey);
          continue;
        end if;

        -- The reopen rule (docs/DECISIONS.md): a resolved conversation the customer writes to again
        -- is active again and follows the client's agent — back to the AI when the agent is on for
        -- this channel (it then answers this message), otherwise still with people, who are
        -- notified (conversation.reopened → the notification job). Unread counts it either way.
        -- While the client's automation is paused the agent is not on.
        v_to_ai := v_previous = 'resolved' and not coalesce(v_paused, false) and exists (
          select 1 from agents a join channels ch on ch.id = v_channel
          where a.client_id = v_client and a.enabled and ch.status = 'active'
            and not (a.disabled_channel_ids ? v_channel::text));
        update conversations c set
          status = case when c.status = 'resolved' then 'active' else c.status end,
          handled_by = case when v_to_ai then 'ai' else c.handled_by end,
          unread_count = c.unread_count + 1,
          last_message_at = v_at,
          last_message_preview = v_item->>'preview',
          last_inbound_at = v_at,
          awaiting_since = coalesce(c.awaiting_since, v_at),
          priority = case
            when v_item->>'priority' = 'high' or c.priority = 'high' then 'high'
            when v_item->>'priority' = 'medium' or c.priority = 'medium' then 'medium'
            else 'low' end,
          -- why it has that priority: the reason of the message that raised it to this level (the
          -- first one that did; a message at the same level with a reason fills a missing one)
          priority_reason = case
            when (case v_item->>'priority' when 'high' then 2 when 'medium' then 1 else 0 end)
                 > (case c.priority when 'high' then 2 when 'medium' then 1 else 0 end)
              then v_item->>'priorityReason'
            when v_item->>'priority' = c.priority and c.priority_reason is null then v_item->>'priorityReason'
            else c.priority_reason end,
          ai_summary = v_item->>'aiSummary',
          -- the mood moves with each message, recent ones weighing more
          sentiment = case
            when v_item->>'sentiment' is null then c.sentiment
            when c.sentiment is null then (v_item->>'sentiment')::real
            else round((c.sentiment * 0.6 + (v_item->>'sentiment')::real * 0.4)::numeric, 3)::real end,
          updated_at = v_now
        where c.id = v_conv
        returning c.status, c.handled_by into v_status, v_handled_by;

        -- The conversation's event first: a new conversation is announced before its first message.
        v_events := v_events
          || case when v_conv_created
               then jsonb_build_object('name', 'conversation.created', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client))
               else jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'status', v_status)) end
          || jsonb_build_object('name', 'message.created', 'at', p->>'at', 'performedBy', p->'performedBy',
               'payload', jsonb_build_object('messageId', v_msg, 'conversationId', v_conv, 'clientId', v_client,
                 'channelId', v_channel, 'direction', 'inbound', 'senderType', 'customer'));
        -- A lead (item.lead: the signals of messaging/lead-signals.ts): flagged the first time, with
        -- lead.qualified; later messages fill a missing e-mail or phone and add their signals.
        -- Not while the client has lead qualification off.
        if jsonb_typeof(v_item->'lead') = 'object' and coalesce(v_leads, true) then
          update conversations c set
            is_lead = true,
            lead_email = coalesce(c.lead_email, v_item->'lead'->>'email'),
            lead_phone = coalesce(c.lead_phone, v_item->'lead'->>'phone'),
            lead_signals = (select coalesce(jsonb_agg(distinct s.value order by s.value), '[]'::jsonb)
              from jsonb_array_elements_text(c.lead_signals || (v_item->'lead'->'signals')) s),
            lead_at = coalesce(c.lead_at, v_at)
          where c.id = v_conv;
          if not v_was_lead then
            v_events := v_events || jsonb_build_object('name', 'lead.qualified', 'at', p->>'at', 'performedBy', p->'performedBy',
              'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'messageId', v_msg));
          end if;
        end if;
        if v_previous = 'resolved' then
          v_events := v_events || jsonb_build_object('name', 'conversation.reopened', 'at', p->>'at', 'performedBy', p->'performedBy',
            'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'messageId', v_msg, 'handledBy', v_handled_by));
        end if;
        v_results := v_results || jsonb_build_object('created', true, 'messageId', v_msg, 'conversationId', v_conv);
      end loop;

      v_claimed := parley_publish(v_events, p->'subscriptions', p->>'eventChannel', p->>'jobChannel', p->'local');
      perform parley_insert_jobs(v_profile_jobs, null, p->>'jobChannel');
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
    `create or replace function parley_send_message(p jsonb) returns jsonb language plpgsql as $$
    declare
      v_now timestamptz := (p->>'now')::timestamptz;
      v_at timestamptz;
      v_conv record;
      v_message messages;
      v_status text;
      v_sender text := p->>'senderType';
      v_survey uuid;
      v_events jsonb;
      v_claimed jsonb;
    begin
      select c.id, c.client_id, c.channel_id, c.status, c.last_inbound_at, c.last_message_at, c.handled_by, ch.kind, ch.status as channel_status,
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
      -- A satisfaction survey (p.survey: {resolvedAt, question, expiresAt}): asked once per
      -- resolution and only while the conversation is still resolved; it replaces a pending one.
      if jsonb_typeof(p->'survey') = 'object' then
        if v_conv.status <> 'resolved' then
          perform parley_complete_job(p->'completeJob');
          return jsonb_build_object('skipped', true);
        end if;
        update satisfaction_surveys set status = 'expired'
        where conversation_id = v_conv.id and status = 'pending';
        insert into satisfaction_surveys (client_id, conversation_id, channel_id, resolved_at, question, expires_at)
        values (v_conv.client_id, v_conv.id, v_conv.channel_id, (p->'survey'->>'resolvedAt')::timestamptz,
          p->'survey'->>'question', (p->'survey'->>'expiresAt')::timestamptz)
        on conflict (conversation_id, resolved_at) do nothing
        returning id into v_survey;
        if v_survey is null then
          perform parley_complete_job(p->'completeJob');
          return jsonb_build_object('skipped', true);
        end if;
      end if;
      -- A conversation's messages have strictly increasing times.
      v_at := greatest(v_now, v_conv.last_message_at + interval '1 microsecond');

      insert into messages (conversation_id, client_id, channel_id, direction, sender_type, sender_id, content, message_type,
        status, ai_confidence, ai, survey_id, created_at)
      values (v_conv.id, v_conv.client_id, v_conv.channel_id, 'outbound', v_sender, (p->>'senderId')::uuid, p->>'text', 'text',
        'queued', (p->>'aiConfidence')::real, case when jsonb_typeof(p->'ai') = 'object' then p->'ai' end, v_survey, v_at)
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
      -- A person replying to a conversation the AI handled takes it over: handed to a person.
      if v_sender = 'agent' and v_conv.handled_by = 'ai' then
        v_events := v_events || jsonb_build_object('name', 'conversation.escalated', 'at', p->>'at', 'performedBy', p->'performedBy',
          'payload', jsonb_build_object('conversationId', v_conv.id, 'clientId', v_conv.client_id, 'reason', 'A person took over by replying'));
      end if;
      v_claimed := v_claimed || parley_publish(v_events, p->'subscriptions', p->>'eventChannel', p->>'jobChannel', p->'local');
      perform parley_complete_job(p->'completeJob');
      return jsonb_build_object('message', to_jsonb(v_message), 'claimed', v_claimed, 'channel', v_conv.channel, 'recipient', v_conv.recipient);
    end $$`,

    // The send job, right before it calls the platform (OutboundService.deliver): one round trip.
    // p: {messageId, attempt, resendKinds: channel kinds whose sends may be repeated (the receiver
    // deduplicates), load: also return the message, channel and recipient (a job claimed from the
    // table has no hint), asyncCommit: commit without waiting for the WAL flush (PostgreSQL server
    // only — on PGlite the database dies with the process)}. Returns {state}:
    //   'send'    — the attempt is recorded (send_started_at, attempts): go ahead;
    //   'settled' — the message is no longer queued (sent, failed, resent…): nothing to do;
    //   'unknown' — an earlier attempt started and recorded no result, on a channel that cannot
    //               deduplicate: do not send (MessagingService.markOutcomeUnknown);
    //   'missing' — no such message.
    `create or replace function parley_begin_send(p jsonb) returns jsonb language plpgsql as $$
    declare
      v record;
    begin
      select m.id, m.status, m.send_started_at, ch.kind, m.conversation_id
      into v
      from messages m join channels ch on ch.id = m.channel_id
      where m.id = (p->>'messageId')::uuid and m.direction = 'outbound'
      for update of m;
      if not found then
        return jsonb_build_object('state', 'missing');
      end if;
      if v.status <> 'queued' then
        return jsonb_build_object('state', 'settled', 'status', v.status);
      end if;
      if v.send_started_at is not null and not coalesce((p->'resendKinds') ? v.kind, false) then
        return jsonb_build_object('state', 'unknown', 'startedAt', v.send_started_at);
      end if;
      -- On a PostgreSQL server (p.asyncCommit) the record need not wait for its WAL flush: a crash
      -- of Parley cannot lose it (the server has it), and the result's commit flushes it anyway.
      if coalesce((p->>'asyncCommit')::boolean, false) then
        perform set_config('synchronous_commit', 'off', true);
      end if;
      update messages set send_started_at = statement_timestamp(), attempts = (p->>'attempt')::integer where id = v.id;
      if not coalesce((p->>'load')::boolean, false) then
        return jsonb_build_object('state', 'send', 'resent', v.send_started_at is not null);
      end if;
      return (
        select jsonb_build_object('state', 'send', 'resent', v.send_started_at is not null,
          'message', to_jsonb(m), 'channel', to_jsonb(ch), 'recipient', ct.external_id)
        from messages m
        join channels ch on ch.id = m.channel_id
        join conversations c on c.id = m.conversation_id
        join contacts ct on ct.id = c.contact_id
        where m.id = v.id);
    end $$`,

    // The send job's outcome (MessagingService.markSent / markFailed): a queued message changes —
    // and a message whose outcome was unknown becomes sent when its result comes after all; the
    // attempt is over (send_started_at cleared); the event; optionally the job done. Returns
    // {changed, claimed: [the event subscribers' jobs claimed for p.local]} (migration 0020).
    `create or replace function parley_finish_send(p jsonb) returns jsonb language plpgsql as $$
    declare
      v_message record;
      v_changed boolean;
      v_claimed jsonb := '[]'::jsonb;
    begin
      update messages m set
        status = p->>'status',
        external_message_id = coalesce(m.external_message_id, p->>'externalMessageId'),
        sent_at = coalesce((p->>'sentAt')::timestamptz, m.sent_at),
        attempts = (p->>'attempts')::integer,
        error_code = p->>'errorCode',
        error_message = p->>'errorMessage',
        send_started_at = null
      where m.id = (p->>'messageId')::uuid
        and (m.status = 'queued' or (m.status = 'unknown' and p->>'status' = 'sent'))
      returning m.id, m.conversation_id, m.client_id, m.status into v_message;
      v_changed := found;
      if v_changed then
        v_claimed := parley_publish(
          jsonb_build_array(jsonb_build_object('name', 'message.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
            'payload', jsonb_build_object('messageId', v_message.id, 'conversationId', v_message.conversation_id,
              'clientId', v_message.client_id, 'status', v_message.status))),
          p->'subscriptions', p->>'eventChannel', p->>'jobChannel', p->'local');
      end if;
      perform parley_complete_job(p->'completeJob');
      return jsonb_build_object('changed', v_changed, 'claimed', v_claimed);
    end $$`,

    // A conversation's summary (the AI agent's) with its event; optionally the job done.
    `create or replace function parley_set_conversation_summary(p jsonb) returns void language plpgsql as $$
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
  ],
});
