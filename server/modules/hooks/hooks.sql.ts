/**
 * Outbound webhook deliveries' hot paths as database functions (HooksService, through
 * HooksRepository): the fan-out of a batch of events, the start of a delivery job that was not
 * handed its data in memory, and the outcomes of the attempts finishing together — each one round
 * trip instead of five to fifteen statements. The TypeScript side decides (the answer's meaning, the
 * retry time, the tokens of retries); these functions write what it handed them.
 *
 * `p_job` is the deliver job's `{name, maxAttempts, channel}` (deliverWebhookJob, the queue's
 * NOTIFY channel). The functions call `parley_insert_jobs` and `parley_complete_job`
 * (server/jobs/jobs.sql.ts).
 *
 * Order per (subscription, conversation) lane (docs/webhooks.md, "Order"): at most one delivery
 * of a lane holds a job token while an earlier one is unfinished; later ones are `parked` (no
 * token) until the earlier one finishes and wakes the next (`parley_hooks_wake_next`).
 *
 * Lock order, so that these never wait for each other in a circle: delivery rows by (subscription,
 * conversation, seq) — the fan-out locks the lanes' earlier rows in that order, a settle takes its
 * deliveries (and each one's next in the lane) in that order, the run-time check takes a lane's
 * earlier rows by seq and then its own — then subscription rows by id, then the bring-forward,
 * which skips rows locked by anyone else (it is an optimisation: a skipped delivery retries on its
 * own schedule), then job rows.
 *
 * Applied by `migrateToLatest` when this file changes; the rules (only `create or replace`,
 * signature changes need a migration) are in server/db/routines.ts.
 */
import { defineSqlRoutines } from '../../db/routines';

export const hooksRoutines = defineSqlRoutines({
  name: 'hooks',
  statements: [
    // The sink's interest (PublicEventSink.interest): is any subscription active? While none is
    // (and nothing else listens), changes queue no outbox work. The partial index
    // webhook_subscriptions_active_idx answers it.
    // PL/pgSQL: its plan is cached per connection (parley_gate_open calls it on every publication).
    `create or replace function parley_hooks_interest() returns boolean language plpgsql stable as $$
    begin
      return exists (select 1 from webhook_subscriptions where status = 'active');
    end $$`,

    // After a delivery of a lane finished: the lane's earliest unfinished delivery, if it is
    // parked, gets a token and a (queued) job. Returns how many jobs it inserted (0 or 1); the
    // caller sends the NOTIFY. Must run as its own statement AFTER the one that finished the
    // delivery (a new snapshot in READ COMMITTED): a fan-out that was holding the finished row
    // (FOR UPDATE) and parked a new delivery behind it has committed by then, and is seen here.
    `create or replace function parley_hooks_wake_next(p_subscription uuid, p_conversation uuid, p_job jsonb) returns integer language plpgsql as $$
    declare
      v_id uuid;
      v_parked boolean;
      v_token uuid;
    begin
      if p_conversation is null then
        return 0;
      end if;
      select id, parked into v_id, v_parked from webhook_deliveries
      where subscription_id = p_subscription and conversation_id = p_conversation and status in ('pending', 'retrying')
      order by seq limit 1;
      if v_id is null or not v_parked then
        return 0;
      end if;
      v_token := gen_random_uuid();
      update webhook_deliveries set parked = false, job_token = v_token where id = v_id and parked;
      if not found then
        return 0;
      end if;
      insert into jobs (name, payload, max_attempts, run_at)
      values (p_job->>'name', jsonb_build_object('deliveryId', v_id, 'token', v_token), (p_job->>'maxAttempts')::integer, statement_timestamp());
      return 1;
    end $$`,

    // The deliveries of a batch of events (HooksService.sink): [{id, type, clientId,
    // conversationId, seq, body}] in seq order, one delivery per active subscription that takes
    // each event. The first delivery of a lane gets a token and a job — inserted claimed by this
    // instance for up to the slots `p_local` holds (JobQueue.reserve) — unless an earlier
    // delivery of that lane is still pending or retrying: then it, like the batch's later ones of
    // the lane, is inserted parked (no token, no job).
    //
    // Why this is race-free against a settle of that earlier delivery: the earlier unfinished rows
    // are locked FOR UPDATE here, in lane order. If a settle has already updated one (not yet
    // committed), this statement waits for it and, READ COMMITTED, re-checks the row: finished, it
    // no longer counts, and the new delivery gets its token; still retrying, it counts (and its
    // own settle wakes the next later). If this statement locked it first, the settle's UPDATE
    // waits until this transaction committed, and its wake-next (a later statement of the settle,
    // with a new snapshot) sees the parked row and wakes it. Either way nothing stays parked
    // behind a finished delivery. New lane rows are inserted only by fan-outs, which the events
    // module runs one at a time per conversation (in seq order), so no earlier row can appear
    // after this statement looked.
    //
    // Returns {claimed: the jobs inserted claimed ([{id, name, payload, attempts, maxAttempts}]),
    // deliveries: {deliveryId: {subscriptionId, eventId}} of those, subscriptions: {id: {url,
    // signingSecret, status, source, clientId, name}} of those, inserted, parked, probed (lane
    // heads brought forward)}.
    `create or replace function parley_hooks_fan_out(p_events jsonb, p_local jsonb, p_job jsonb) returns jsonb language plpgsql as $$
    declare
      v_rows jsonb;
      v_jobs jsonb;
      v_claimed jsonb;
      v_inserted integer;
      v_parked integer;
      v_deliveries jsonb;
      v_subscriptions jsonb;
      v_probed integer := 0;
    begin
      with ev as (
        select (e->>'id')::uuid as event_id, e->>'type' as event_type, (e->>'clientId')::uuid as client_id,
          (e->>'conversationId')::uuid as conversation_id,
          case when e->>'conversationId' is null then null else (e->>'seq')::bigint end as seq,
          e->>'body' as body, i
        from jsonb_array_elements(p_events) with ordinality as t(e, i)
      ), matched as (
        select s.id as subscription_id, ev.*,
          row_number() over (partition by s.id, ev.conversation_id order by ev.seq, ev.i) as lane_rank
        from ev
        join webhook_subscriptions s on s.status = 'active'
          and (s.events is null or jsonb_exists(s.events, ev.event_type))
          and (s.client_id is null or s.client_id = ev.client_id)
      ), lanes as (
        select subscription_id, conversation_id, min(seq) as first_seq
        from matched where conversation_id is not null
        group by subscription_id, conversation_id
      ), earlier as (
        select d.subscription_id, d.conversation_id
        from webhook_deliveries d
        join lanes l on d.subscription_id = l.subscription_id and d.conversation_id = l.conversation_id and d.seq < l.first_seq
        where d.status in ('pending', 'retrying') and d.conversation_id is not null
        order by d.subscription_id, d.conversation_id, d.seq
        for update of d
      ), blocked as (
        select distinct subscription_id, conversation_id from earlier
      ), decided as (
        select m.*, (m.conversation_id is null or (m.lane_rank = 1 and b.subscription_id is null)) as go
        from matched m
        left join blocked b on b.subscription_id = m.subscription_id and b.conversation_id = m.conversation_id
      ), stored as (
        insert into webhook_deliveries (subscription_id, event_id, event_type, conversation_id, seq, body, job_token, parked)
        select subscription_id, event_id, event_type, conversation_id, seq, body, case when go then gen_random_uuid() end, not go
        from decided
        order by i, subscription_id
        returning id, subscription_id, event_id, job_token
      )
      select coalesce(jsonb_agg(jsonb_build_object('id', st.id, 'subscriptionId', st.subscription_id, 'eventId', st.event_id, 'token', st.job_token, 'i', d.i)
          order by d.i, st.subscription_id), '[]'::jsonb)
      into v_rows
      from stored st join decided d on d.subscription_id = st.subscription_id and d.event_id = st.event_id;

      select coalesce(jsonb_agg(jsonb_build_object('name', p_job->>'name', 'payload', jsonb_build_object('deliveryId', r->>'id', 'token', r->>'token'),
          'maxAttempts', (p_job->>'maxAttempts')::integer) order by i) filter (where r->>'token' is not null), '[]'::jsonb),
        count(*), count(*) filter (where r->>'token' is null)
      into v_jobs, v_inserted, v_parked
      from jsonb_array_elements(v_rows) with ordinality as t(r, i);

      v_claimed := parley_insert_jobs(v_jobs, p_local, p_job->>'channel');

      -- A probe (docs/webhooks.md, "Catch-up"): a new delivery parked behind a lane head that waits
      -- for a distant retry (> 30 s) of a subscription nothing was sent to for 30 s brings that head
      -- forward (one per subscription), so a receiver that is back hears of it with the next event
      -- rather than when the backoff (up to an hour) ends; its success then brings the rest
      -- forward. A receiver still down costs one attempt per subscription per 30 s at most. The
      -- head is one of the earlier rows this statement's fan-out locked above.
      if v_parked > 0 then
        with parked as (
          select distinct d.subscription_id, d.conversation_id
          from jsonb_array_elements(v_rows) r
          join webhook_deliveries d on d.id = (r->>'id')::uuid
          where r->>'token' is null and d.conversation_id is not null
        ), heads as (
          select distinct on (d.subscription_id) d.id
          from webhook_deliveries d
          join parked p on p.subscription_id = d.subscription_id and p.conversation_id = d.conversation_id
          join webhook_subscriptions s on s.id = d.subscription_id
          where d.status = 'retrying' and d.next_attempt_at > statement_timestamp() + interval '30 seconds'
            and s.status = 'active' and (s.last_triggered_at is null or s.last_triggered_at < statement_timestamp() - interval '30 seconds')
          order by d.subscription_id, d.next_attempt_at
        ), moved as (
          update webhook_deliveries d set job_token = gen_random_uuid(), next_attempt_at = statement_timestamp()
          from heads where d.id = heads.id and d.status = 'retrying'
          returning d.id, d.job_token
        ), queued as (
          insert into jobs (name, payload, max_attempts, run_at)
          select p_job->>'name', jsonb_build_object('deliveryId', id, 'token', job_token), (p_job->>'maxAttempts')::integer, statement_timestamp()
          from moved
          returning id
        )
        select count(*) into v_probed from queued;
        if v_probed > 0 then
          perform pg_notify(p_job->>'channel', '{}');
        end if;
      end if;

      select coalesce(jsonb_object_agg(r->>'id', jsonb_build_object('subscriptionId', r->>'subscriptionId', 'eventId', r->>'eventId')), '{}'::jsonb)
      into v_deliveries
      from jsonb_array_elements(v_rows) r
      where exists (select 1 from jsonb_array_elements(v_claimed) c where c->'payload'->>'deliveryId' = r->>'id');

      select coalesce(jsonb_object_agg(s.id, jsonb_build_object('url', s.url, 'signingSecret', s.signing_secret, 'status', s.status,
          'source', s.source, 'clientId', s.client_id, 'name', s.name)), '{}'::jsonb)
      into v_subscriptions
      from webhook_subscriptions s
      where s.id in (select (value->>'subscriptionId')::uuid from jsonb_each(v_deliveries));

      return jsonb_build_object('claimed', v_claimed, 'deliveries', v_deliveries, 'subscriptions', v_subscriptions,
        'inserted', v_inserted, 'parked', v_parked, 'probed', v_probed);
    end $$`,

    // A deliver job run without its data in memory (claimed from the table: a retry, a woken or
    // redelivered delivery, a job of another instance or after a crash): in one round trip, the
    // delivery and its subscription if this job's token still holds it and it may be sent now.
    // Otherwise the job is done here (completed with `p_completion`): superseded or finished;
    // the subscription inactive (the delivery fails, and the lane's next is woken); or an
    // earlier delivery of its lane is still unfinished (it parks: the earlier rows are locked
    // first, in seq order, then its own — see hasEarlierPending's lock order in the file comment).
    `create or replace function parley_hooks_begin(p_delivery uuid, p_token uuid, p_now timestamptz, p_completion jsonb, p_job jsonb) returns jsonb language plpgsql as $$
    declare
      d webhook_deliveries;
      s webhook_subscriptions;
    begin
      select * into d from webhook_deliveries where id = p_delivery;
      if found then
        select * into s from webhook_subscriptions where id = d.subscription_id;
      end if;
      if d.id is null or s.id is null or d.job_token is distinct from p_token or d.status not in ('pending', 'retrying') then
        perform parley_complete_job(p_completion);
        return jsonb_build_object('send', false, 'why', 'superseded');
      end if;
      if s.status <> 'active' then
        update webhook_deliveries
        set status = 'failed', last_error = 'Not sent: the subscription is inactive', finished_at = p_now, job_token = null, parked = false, next_attempt_at = null
        where id = p_delivery and job_token = p_token and status in ('pending', 'retrying');
        if found and parley_hooks_wake_next(d.subscription_id, d.conversation_id, p_job) > 0 then
          perform pg_notify(p_job->>'channel', jsonb_build_object('name', p_job->>'name')::text);
        end if;
        perform parley_complete_job(p_completion);
        return jsonb_build_object('send', false, 'why', 'inactive');
      end if;
      if d.conversation_id is not null then
        perform id from webhook_deliveries
        where subscription_id = d.subscription_id and conversation_id = d.conversation_id and status in ('pending', 'retrying')
          and seq < d.seq and id <> d.id
        order by seq
        for update;
        if found then
          update webhook_deliveries set parked = true, job_token = null where id = p_delivery and job_token = p_token;
          perform parley_complete_job(p_completion);
          return jsonb_build_object('send', false, 'why', 'parked');
        end if;
      end if;
      return jsonb_build_object('send', true,
        'delivery', jsonb_build_object('id', d.id, 'eventId', d.event_id, 'eventType', d.event_type, 'conversationId', d.conversation_id,
          'seq', d.seq::text, 'body', d.body, 'attempts', d.attempts, 'firstAttemptAt', d.first_attempt_at),
        'subscription', jsonb_build_object('id', s.id, 'url', s.url, 'signingSecret', s.signing_secret, 'status', s.status,
          'source', s.source, 'clientId', s.client_id, 'name', s.name));
    end $$`,

    // The outcomes of attempts finished together (HooksService's settle batch), in one
    // transaction: [{deliveryId, token, subscriptionId, conversationId, seq, ok, status,
    // attemptedAt, nextAttemptAt, nextToken, lastStatus, lastError, attempt: {headers, status,
    // excerpt, error, durationMs}, completion}]. For each, in lane order: the delivery (if the
    // token still holds it), its attempt, then its retry job at nextAttemptAt or the wake of its
    // lane's next. Then, by subscription id: the counters and failure run (in attempt order), and
    // for a subscription with a success the bring-forward of its deliveries waiting for a retry
    // (at most 1,000 per call; the next success brings more). Last, every job of the batch is
    // completed. Returns {settled: [deliveryId…], runs: {subscriptionId: {consecutiveFailures,
    // failingSince, status, clientId, name, url}} for the subscriptions with a failure}.
    `create or replace function parley_hooks_settle(p_outcomes jsonb, p_job jsonb) returns jsonb language plpgsql as $$
    declare
      o record;
      v_row record;
      v_agg record;
      v_run record;
      -- The settled attempts (arrays: appending to a PL/pgSQL array is done in place).
      v_settled uuid[] := '{}';
      v_subs uuid[] := '{}';
      v_oks boolean[] := '{}';
      v_ats timestamptz[] := '{}';
      v_runs jsonb := '{}'::jsonb;
      v_queued integer := 0;
      v_moved integer;
      v_delayed timestamptz;
    begin
      for o in
        select (x->>'deliveryId')::uuid as delivery_id, (x->>'token')::uuid as token, (x->>'subscriptionId')::uuid as subscription_id,
          (x->>'conversationId')::uuid as conversation_id, (x->>'seq')::bigint as seq, (x->>'ok')::boolean as ok, x->>'status' as status,
          (x->>'attemptedAt')::timestamptz as attempted_at, (x->>'nextAttemptAt')::timestamptz as next_attempt_at,
          (x->>'nextToken')::uuid as next_token, (x->>'lastStatus')::integer as last_status, x->>'lastError' as last_error,
          x->'attempt' as attempt, i
        from jsonb_array_elements(p_outcomes) with ordinality as t(x, i)
        order by 3, 4, 5, i
      loop
        update webhook_deliveries
        set status = o.status, attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, o.attempted_at),
          next_attempt_at = o.next_attempt_at, last_status = o.last_status, last_error = o.last_error,
          finished_at = case when o.status in ('succeeded', 'failed') then o.attempted_at end,
          job_token = o.next_token, parked = false
        where id = o.delivery_id and job_token = o.token and status in ('pending', 'retrying')
        returning subscription_id, conversation_id into v_row;
        if not found then
          continue;
        end if;
        v_settled := array_append(v_settled, o.delivery_id);
        v_subs := array_append(v_subs, v_row.subscription_id);
        v_oks := array_append(v_oks, o.ok);
        v_ats := array_append(v_ats, o.attempted_at);
        insert into webhook_delivery_attempts (delivery_id, attempted_at, request_headers, response_status, response_excerpt, error, duration_ms)
        values (o.delivery_id, o.attempted_at, coalesce(o.attempt->'headers', '{}'::jsonb), (o.attempt->>'status')::integer,
          o.attempt->>'excerpt', o.attempt->>'error', (o.attempt->>'durationMs')::integer);
        if o.status = 'retrying' and o.next_token is not null then
          insert into jobs (name, payload, max_attempts, run_at)
          values (p_job->>'name', jsonb_build_object('deliveryId', o.delivery_id, 'token', o.next_token), (p_job->>'maxAttempts')::integer,
            coalesce(o.next_attempt_at, statement_timestamp()));
          v_delayed := least(v_delayed, o.next_attempt_at);
        else
          v_queued := v_queued + parley_hooks_wake_next(v_row.subscription_id, v_row.conversation_id, p_job);
        end if;
      end loop;

      -- Per subscription, by id: the run after this batch — with a success in it, the failures
      -- after the last success (in attempt order); without, the old run plus these failures.
      for v_agg in
        select sub, count(*) as n, count(*) filter (where ok) as oks, count(*) filter (where not ok) as fails, max(at) as last_at,
          count(*) filter (where not ok and rn > coalesce(last_ok, 0)) as trailing,
          min(at) filter (where not ok and rn > coalesce(last_ok, 0)) as trailing_since,
          min(at) filter (where not ok) as first_fail_at
        from (
          select sub, ok, at, rn, max(rn) filter (where ok) over (partition by sub) as last_ok
          from (
            select sub, ok, at, row_number() over (partition by sub order by at, k) as rn
            from unnest(v_subs, v_oks, v_ats) with ordinality as u(sub, ok, at, k)
          ) a
        ) b
        group by sub
        order by sub
      loop
        update webhook_subscriptions
        set total_calls = total_calls + v_agg.n, success_count = success_count + v_agg.oks, failure_count = failure_count + v_agg.fails,
          last_triggered_at = v_agg.last_at,
          consecutive_failures = case when v_agg.oks > 0 then v_agg.trailing else consecutive_failures + v_agg.fails end,
          failing_since = case when v_agg.oks > 0 then v_agg.trailing_since else coalesce(failing_since, v_agg.first_fail_at) end
        where id = v_agg.sub
        returning consecutive_failures, failing_since, status, client_id, name, url into v_run;
        if found and v_agg.fails > 0 then
          v_runs := v_runs || jsonb_build_object(v_agg.sub::text, jsonb_build_object('consecutiveFailures', v_run.consecutive_failures,
            'failingSince', v_run.failing_since, 'status', v_run.status, 'clientId', v_run.client_id, 'name', v_run.name, 'url', v_run.url));
        end if;
        -- Catch-up: the receiver answers again, so its deliveries waiting for their backoff go now
        -- (a new token and job; the old job finds its token gone and does nothing). Only those due
        -- more than 2 s from now: a retry job about to run, or running, keeps its token. The
        -- exists is one probe of webhook_deliveries_retrying_idx (migration 0021).
        if v_agg.oks > 0 and exists (
          select 1 from webhook_deliveries
          where subscription_id = v_agg.sub and status = 'retrying' and next_attempt_at > statement_timestamp() + interval '2 seconds'
        ) then
          with due as (
            select id from webhook_deliveries
            where subscription_id = v_agg.sub and status = 'retrying' and next_attempt_at > statement_timestamp() + interval '2 seconds'
            order by next_attempt_at
            limit 1000
            for update skip locked
          ), moved as (
            update webhook_deliveries d set job_token = gen_random_uuid(), next_attempt_at = statement_timestamp()
            from due where d.id = due.id
            returning d.id, d.job_token
          ), queued as (
            insert into jobs (name, payload, max_attempts, run_at)
            select p_job->>'name', jsonb_build_object('deliveryId', id, 'token', job_token), (p_job->>'maxAttempts')::integer, statement_timestamp()
            from moved
            returning id
          )
          select count(*) into v_moved from queued;
          v_queued := v_queued + v_moved;
        end if;
      end loop;

      update jobs j set status = 'completed', completed_at = statement_timestamp(), updated_at = statement_timestamp(),
        locked_by = null, locked_until = null, last_error = null
      from jsonb_array_elements(p_outcomes) x
      where jsonb_typeof(x->'completion') = 'object' and j.id = (x->'completion'->>'id')::bigint and j.locked_by = x->'completion'->>'workerId';

      if v_queued > 0 then
        perform pg_notify(p_job->>'channel', jsonb_build_object('name', p_job->>'name')::text);
      end if;
      if v_delayed is not null then
        perform pg_notify(p_job->>'channel', jsonb_build_object('name', p_job->>'name', 'runAt', v_delayed)::text);
      end if;
      return jsonb_build_object('settled', to_jsonb(v_settled), 'runs', v_runs);
    end $$`,
  ],
});
