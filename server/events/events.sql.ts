/**
 * Domain events' database function (EventBus.publish, server/events/event-bus.ts, and the hot
 * paths that publish in the same statement as their work). Applied by `migrateToLatest` when this
 * file changes; the rules (only `create or replace`, signature changes need a migration) are in
 * server/db/routines.ts. First created by migration 0005. Calls `parley_insert_jobs`
 * (server/jobs/jobs.sql.ts).
 */
import { defineSqlRoutines } from '../db/routines';

export const eventsRoutines = defineSqlRoutines({
  name: 'events',
  statements: [
    // Domain events: the subscribers' jobs (one per matching subscription, its payload the keys it
    // names from the event's payload; parley_insert_jobs), and the events themselves as JSON arrays
    // of at most 16 (a NOTIFY carries at most 8000 bytes; events carry ids only).
    // Subscriptions: [{event, where, unlessPerformedBy, job, maxAttempts, keys, withEvent, gate, delayMs, coalesce, collect}]; withEvent:
    // the payload also gets the event's name, performedBy and time (`event`, `performedBy`, `at`);
    // gate (null: none): the subscription counts only while parley_gate_open(gate) — each distinct
    // gate of the subscriptions these events match is evaluated once; delayMs (0: none): the job
    // runs that long after the event; coalesce (null: none): the payload key whose value is the
    // job's coalesce key (parley_insert_jobs); collect (null: none): a function (jsonb → void,
    // defined in a module's routines) that gets the payloads of the matching events instead of
    // one job each — the job is then queued once per window of its delay, payload {}, coalesced on '*:<due time>'.
    // Returns the jobs claimed for `p_local`.
    // Whether one of the functions named in p_fns (a JSON array of names, each a function of no
    // arguments returning boolean) returns true: a subscription's `gate`. One EXECUTE for all of
    // them (each costs a parse and a plan); the functions are best PL/pgSQL, whose own query plans
    // are cached per connection (about 30 µs for two, against 100 µs for two SQL functions).
    `create or replace function parley_gate_open(p_fns jsonb) returns boolean language plpgsql as $$
    declare
      v_open boolean;
    begin
      if p_fns is null or jsonb_array_length(p_fns) = 0 then
        return false;
      end if;
      execute 'select ' || (select string_agg(format('%I()', f), ' or ') from jsonb_array_elements_text(p_fns) as f) into v_open;
      return coalesce(v_open, false);
    end $$`,

    `create or replace function parley_publish(p_events jsonb, p_subscriptions jsonb, p_event_channel text, p_job_channel text, p_local jsonb default null)
    returns jsonb language plpgsql as $$
    declare
      v_jobs jsonb;
      v_collected jsonb;
      v_fn text;
      v_payloads jsonb;
      v_chunk jsonb;
      v_gate jsonb;
      v_closed text[] := '{}';
    begin
      if p_events is null or jsonb_array_length(p_events) = 0 then
        return '[]'::jsonb;
      end if;
      -- The gates of the subscriptions these events match (most publications match none).
      for v_gate in
        select distinct s->'gate'
        from jsonb_array_elements(p_events) as e
        join jsonb_array_elements(coalesce(p_subscriptions, '[]'::jsonb)) as s on s->>'event' = e->>'name'
        where jsonb_typeof(s->'gate') = 'array'
          and (e->'payload') @> coalesce(s->'where', '{}'::jsonb)
          and not coalesce((s->'unlessPerformedBy') ? (e->'performedBy'->>'kind'), false)
      loop
        if not parley_gate_open(v_gate) then
          v_closed := v_closed || (v_gate::text);
        end if;
      end loop;
      with matched as (
        select s, i, jsonb_build_object(
            'name', s->>'job',
            'payload', coalesce((select jsonb_object_agg(k, e->'payload'->k) from jsonb_array_elements_text(s->'keys') as k), '{}'::jsonb)
              || case when (s->>'withEvent')::boolean then jsonb_build_object('event', e->'name', 'performedBy', e->'performedBy', 'at', e->'at') else '{}'::jsonb end,
            'maxAttempts', (s->>'maxAttempts')::integer,
            'delayMs', coalesce((s->>'delayMs')::bigint, 0),
            'coalesceKey', case when jsonb_typeof(s->'coalesce') = 'string' then e->'payload'->>(s->>'coalesce') end) as job,
          coalesce(jsonb_typeof(s->'collect') = 'string', false) as collected
        from jsonb_array_elements(p_events) with ordinality as ev(e, i)
        join jsonb_array_elements(coalesce(p_subscriptions, '[]'::jsonb)) as s on s->>'event' = e->>'name'
        where (e->'payload') @> coalesce(s->'where', '{}'::jsonb)
          and not coalesce((s->'unlessPerformedBy') ? (e->'performedBy'->>'kind'), false)
          and not (jsonb_typeof(s->'gate') = 'array' and (s->'gate')::text = any(v_closed))
      )
      select coalesce(jsonb_agg(job order by i) filter (where not collected), '[]'::jsonb),
        jsonb_agg(jsonb_build_object('fn', s->>'collect', 'job', job) order by i) filter (where collected)
      into v_jobs, v_collected
      from matched;
      -- Collected subscriptions: their function gets the payloads (one call per function and
      -- publication), and their job is queued once with an empty payload, coalesced on '*:' and
      -- the time it falls due (parley_job_due; '*' without a delay): one queued job per window
      -- takes everything collected. Per window, so that the transactions holding it until they
      -- commit (parley_insert_jobs) are only that window's, and it is claimed after them.
      -- The function is a module's: these statements only call it by name (gates are the same).
      if v_collected is not null then
        for v_fn, v_payloads in
          select c->>'fn', jsonb_agg(c->'job'->'payload' order by n) from jsonb_array_elements(v_collected) with ordinality as t(c, n) group by c->>'fn'
        loop
          execute format('select %I($1)', v_fn) using v_payloads;
        end loop;
        v_jobs := v_jobs || (
          select jsonb_agg(job) from (
            select distinct on (c->'job'->>'name') (c->'job') || jsonb_build_object('payload', '{}'::jsonb, 'coalesceKey',
                '*' || case when (c->'job'->>'delayMs')::bigint > 0
                  then ':' || (extract(epoch from parley_job_due((c->'job'->>'delayMs')::bigint)) * 1000)::bigint::text else '' end) as job
            from jsonb_array_elements(v_collected) with ordinality as t(c, n)
            order by c->'job'->>'name', n) as one);
      end if;
      for v_chunk in
        select jsonb_agg(e order by i) from jsonb_array_elements(p_events) with ordinality as ev(e, i)
        group by (i - 1) / 16 order by min(i)
      loop
        perform pg_notify(p_event_channel, v_chunk::text);
      end loop;
      return parley_insert_jobs(v_jobs, p_local, p_job_channel);
    end $$`,
  ],
});
