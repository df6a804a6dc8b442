/**
 * Inbox defects of issue 10:
 *  - the reopen rule in `parley_record_inbound` (replaced whole; 0005 has the original): a
 *    resolved conversation the customer writes to again goes back to the AI when the client's
 *    agent is on for the channel, else stays with people and publishes `conversation.reopened`
 *    (their notification); it counts as unread either way;
 *  - a new Messenger or Instagram contact (no name in the webhook) gets a profile job, inserted by
 *    the same statement that created it;
 *  - full-text search over messages: a GIN index on `to_tsvector('english', content)` (an
 *    expression index: no column to keep in step, and the conversations search states the same
 *    expression — `MESSAGE_SEARCH_VECTOR` in conversations.repository.ts).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create index messages_content_search_idx on messages using gin (to_tsvector('english'::regconfig, content))`,

    // Customers' messages on one channel, in order (MessagingService.recordInboundBatch): as in
    // 0005, plus the reopen rule and the profile jobs of new contacts (p.profileJob: {name,
    // maxAttempts}, or null where the channel's webhooks carry the name).
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
      v_profile_jobs jsonb := '[]'::jsonb;
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
        returning id, xmax = 0 into v_contact, v_contact_created;
        -- A new contact whose platform sends no name (Messenger, Instagram): its profile is
        -- fetched from the Graph API by a job (p.profileJob, set by the caller for those channels).
        if v_contact_created and v_item->>'contactName' is null and jsonb_typeof(p->'profileJob') = 'object' then
          v_profile_jobs := v_profile_jobs || jsonb_build_object('name', p->'profileJob'->>'name',
            'payload', jsonb_build_object('contactId', v_contact), 'maxAttempts', (p->'profileJob'->>'maxAttempts')::integer);
        end if;
        if v_contact is null then
          select c.id into v_contact from contacts c where c.channel_id = v_channel and c.external_id = v_item->>'contactExternalId';
        end if;

        insert into conversations (client_id, channel_id, contact_id, title)
        values (v_client, v_channel, v_contact, v_item->>'contactName')
        on conflict (contact_id) do nothing
        returning id into v_conv;
        v_conv_created := v_conv is not null;
        v_last := null;
        v_previous := 'active';
        if not v_conv_created then
          -- Locked now (the update below would lock it anyway): the status read here is the one
          -- the update changes, so exactly one message reopens a resolved conversation.
          select c.id, c.last_message_at, c.status into v_conv, v_last, v_previous
          from conversations c where c.contact_id = v_contact for update;
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

        -- The reopen rule (docs/DECISIONS.md): a resolved conversation the customer writes to again
        -- is active again and follows the client's agent — back to the AI when the agent is on for
        -- this channel (it then answers this message), otherwise still with people, who are
        -- notified (conversation.reopened → the notification job). Unread counts it either way.
        v_to_ai := v_previous = 'resolved' and exists (
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
          ai_summary = v_item->>'aiSummary',
          -- the mood moves with each message, recent ones weighing more
          sentiment = case
            when v_item->>'sentiment' is null then c.sentiment
            when c.sentiment is null then (v_item->>'sentiment')::real
            else round((c.sentiment * 0.6 + (v_item->>'sentiment')::real * 0.4)::numeric, 3)::real end,
          updated_at = v_now
        where c.id = v_conv
        returning c.status, c.handled_by into v_status, v_handled_by;

        v_events := v_events
          || jsonb_build_object('name', 'message.created', 'at', p->>'at', 'performedBy', p->'performedBy',
               'payload', jsonb_build_object('messageId', v_msg, 'conversationId', v_conv, 'clientId', v_client,
                 'channelId', v_channel, 'direction', 'inbound', 'senderType', 'customer'))
          || case when v_conv_created
               then jsonb_build_object('name', 'conversation.created', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client))
               else jsonb_build_object('name', 'conversation.updated', 'at', p->>'at', 'performedBy', p->'performedBy',
                 'payload', jsonb_build_object('conversationId', v_conv, 'clientId', v_client, 'status', v_status)) end;
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
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop index messages_content_search_idx', RECORD_INBOUND_0005]);
}

/** `parley_record_inbound` as 0005 created it (without the reopen rule and the profile jobs). */
const RECORD_INBOUND_0005 = `create or replace function parley_record_inbound(p jsonb) returns jsonb language plpgsql as $$
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
    end $$`;
