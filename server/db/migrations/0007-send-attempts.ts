/**
 * Sends that survive a crash without going out twice (issue 10, item 4).
 *
 * - `messages.send_started_at`: set, durably, by the statement just before the platform call
 *   (`parley_begin_send`) and cleared by the statement that records its result
 *   (`parley_finish_send`, a retryable error). A send job that finds it still set was interrupted
 *   between the two — the request may or may not have reached the platform.
 * - Status `unknown` ("not confirmed — check and resend"): such a send on a channel that cannot
 *   deduplicate (WhatsApp, Messenger, Instagram) is not repeated blindly; a person resends it.
 *   It ranks above queued and below sent, so a later sign from the platform that it went out
 *   (an echo, sent, delivered, read) still wins.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'alter table messages add column send_started_at timestamptz',
    'alter table messages drop constraint messages_status_check',
    `alter table messages add constraint messages_status_check
      check (status in ('received', 'queued', 'unknown', 'sent', 'delivered', 'read', 'failed'))`,

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
    `create function parley_begin_send(p jsonb) returns jsonb language plpgsql as $$
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
    // attempt is over (send_started_at cleared); the event; optionally the job done.
    `create or replace function parley_finish_send(p jsonb) returns boolean language plpgsql as $$
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
        error_message = p->>'errorMessage',
        send_started_at = null
      where m.id = (p->>'messageId')::uuid
        and (m.status = 'queued' or (m.status = 'unknown' and p->>'status' = 'sent'))
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
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create or replace function parley_finish_send(p jsonb) returns boolean language plpgsql as $$
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
    'drop function parley_begin_send(jsonb)',
    `update messages set status = 'failed', error_code = coalesce(error_code, 'outcome_unknown') where status = 'unknown'`,
    'alter table messages drop constraint messages_status_check',
    `alter table messages add constraint messages_status_check
      check (status in ('received', 'queued', 'sent', 'delivered', 'read', 'failed'))`,
    'alter table messages drop column send_started_at',
  ]);
}
