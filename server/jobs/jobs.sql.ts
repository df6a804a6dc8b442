/**
 * The job queue's database functions (JobQueue, server/jobs/queue.ts, and the hot paths that
 * insert and finish jobs in the same statement as their work). Applied by `migrateToLatest` when
 * this file changes; the rules (only `create or replace`, signature changes need a migration) are
 * in server/db/routines.ts. First created by migration 0005.
 */
import { defineSqlRoutines } from '../db/routines';

export const jobsRoutines = defineSqlRoutines({
  name: 'jobs',
  statements: [
    // A finished job, when the worker that holds it is the one finishing it (as JobQueue does).
    // (PL/pgSQL rather than SQL functions throughout: its plans are cached per connection, a SQL
    // function called from another one is planned again at every call.)
    `create or replace function parley_complete_job(p_job jsonb) returns void language plpgsql as $$
    begin
      if jsonb_typeof(p_job) = 'object' then
        update jobs set status = 'completed', completed_at = statement_timestamp(), updated_at = statement_timestamp(),
          locked_by = null, locked_until = null, last_error = null
        where id = (p_job->>'id')::bigint and locked_by = p_job->>'workerId';
      end if;
    end $$`,

    // When a job delayed by p_delay_ms (> 0) and inserted by this statement falls due: the first
    // multiple of the delay since the Unix epoch at least that long after the statement's start.
    `create or replace function parley_job_due(p_delay_ms bigint) returns timestamptz language sql stable as $$
      select to_timestamp(ceil((extract(epoch from statement_timestamp()) * 1000 + p_delay_ms) / p_delay_ms) * p_delay_ms / 1000.0)
    $$`,

    // Jobs, in order: [{name, payload, maxAttempts, delayMs?, coalesceKey?}]; a job with a delay
    // runs at the first multiple of it (since the Unix epoch) at least that long after this
    // statement — so the delayed jobs of one such window fall due together, and one claim (one
    // batch) takes them all — and is never claimed here; a job with a coalesce key is never
    // claimed here either, and not inserted while a queued one has the same name and key
    // (migration 0026), nor twice here: this transaction then holds the queued one (below). Up to the slots `p_local` holds per job name
    // ({workerId, slots: {name: {n, leaseMs, hint?}}}, JobQueue.reserve) are inserted already
    // claimed by that worker, which runs them once this transaction committed; those are returned,
    // each with its `hint` — what the job's hint function (a function of the payload, named by the
    // job's definition) reads in this same transaction — so the handler need not read it again.
    // The rest are queued, with one wake-up for the workers.
    `create or replace function parley_insert_jobs(p_jobs jsonb, p_local jsonb, p_job_channel text) returns jsonb language plpgsql as $$
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
        select j, i, row_number() over (partition by j->>'name' order by i) as rank,
          coalesce((j->>'delayMs')::bigint, 0) as delay_ms
        from jsonb_array_elements(p_jobs) with ordinality as t(j, i)
      ), placed as (
        select j, i, delay_ms,
          delay_ms = 0 and j->>'coalesceKey' is null and rank <= coalesce((p_local->'slots'->(j->>'name')->>'n')::integer, 0) as claimed,
          coalesce((p_local->'slots'->(j->>'name')->>'leaseMs')::bigint, 0) as lease_ms
        from wanted
      ), inserted as (
        insert into jobs (name, payload, max_attempts, run_at, status, attempts, locked_by, locked_until, coalesce_key)
        select j->>'name', j->'payload', (j->>'maxAttempts')::integer,
          case when delay_ms > 0 then parley_job_due(delay_ms) else statement_timestamp() end,
          case when claimed then 'running' else 'queued' end,
          case when claimed then 1 else 0 end,
          case when claimed then p_local->>'workerId' end,
          case when claimed then statement_timestamp() + lease_ms * interval '1 millisecond' end,
          j->>'coalesceKey'
        from placed order by i
        on conflict (name, coalesce_key) where coalesce_key is not null and status = 'queued' do nothing
        returning id, name, payload, attempts, max_attempts, status, run_at
      )
      select
        coalesce(jsonb_agg(jsonb_build_object('id', id, 'name', name, 'payload', payload, 'attempts', attempts, 'maxAttempts', max_attempts) order by id)
          filter (where status = 'running'), '[]'::jsonb),
        -- Delayed jobs wake nobody now: the workers' poll finds them when they are due.
        count(*) filter (where status = 'queued' and run_at <= statement_timestamp())
      into v_claimed, v_queued
      from inserted;
      -- A coalesced job that found one queued holds it (FOR KEY SHARE, which many transactions
      -- hold at once) until this transaction ends, so that no worker claims it (claims are
      -- 'for update skip locked') before what this transaction did for it is committed; if a
      -- worker claimed it between the two statements, another is queued. (The one inserted here
      -- is invisible to workers until this commits.)
      for v_row in
        select distinct on (j->>'name', j->>'coalesceKey') j
        from jsonb_array_elements(p_jobs) as t(j) where j->>'coalesceKey' is not null
      loop
        loop
          perform 1 from jobs
          where name = v_row->>'name' and coalesce_key = v_row->>'coalesceKey' and status = 'queued'
          for key share;
          exit when found;
          insert into jobs (name, payload, max_attempts, run_at, coalesce_key)
          values (v_row->>'name', v_row->'payload', (v_row->>'maxAttempts')::integer,
            case when coalesce((v_row->>'delayMs')::bigint, 0) > 0 then parley_job_due((v_row->>'delayMs')::bigint) else statement_timestamp() end,
            v_row->>'coalesceKey')
          on conflict (name, coalesce_key) where coalesce_key is not null and status = 'queued' do nothing;
          if found then
            if coalesce((v_row->>'delayMs')::bigint, 0) = 0 then
              v_queued := v_queued + 1;
            end if;
            exit;
          end if;
        end loop;
      end loop;
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
  ],
});
