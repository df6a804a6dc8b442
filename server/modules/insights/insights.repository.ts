/**
 * The insights module's SQL: its own tables (`conversation_service_levels`,
 * `service_level_events`, `service_level_daily`) and, read only, the facts a conversation's
 * service levels are made of — `conversations`, `messages` (messaging), `channels` (its kind) and
 * `agents` (the client's business hours) — docs/ARCHITECTURE.md, One owner per table.
 *
 * Every write runs in the caller's transaction, under the advisory locks it took first: the
 * conversations' (`lockConversations`), then the days' (`lockDays`), each set in key order, so two
 * transactions never wait for each other in a circle.
 */
import { type Selectable, sql } from 'kysely';
import type { OpeningHours } from '../../../common/business-time';
import type { Db } from '../../db/database';
import type { ChannelKind, ConversationServiceLevelsTable, ConversationStatus, HandledBy, ServiceLevelEventKind } from '../../db/schema';
import type { JobCompletion } from '../../jobs/define-job';
import type { CountedMark, DayShare, ServiceLevel, ServiceLevelFacts } from './service-level';
import type { UnmatchedQuestion } from './unmatched-topics';

/** A (client, UTC day) whose rollup is recomputed. */
export interface DayKey {
  clientId: string;
  /** YYYY-MM-DD */
  day: string;
}

/** A conversation's row as the read functions return it. */
export interface ServiceLevelRow extends ServiceLevel {
  updatedAt: Date;
}

/** One client's rollup of one UTC day: the sums of its conversations' shares (`dayShare`). */
export type DailyRollup = DayShare;

/** Medians over a period's conversations (null when none has the figure). */
export interface ServiceLevelMedians {
  conversations: number;
  firstResponseSeconds: number | null;
  firstResponseBusinessSeconds: number | null;
  resolutionSeconds: number | null;
  resolutionBusinessSeconds: number | null;
}

/** Which conversations a read covers: [from, until) on their creation time, one client or all. */
export interface PeriodFilter {
  from: Date;
  until: Date;
  clientId: string | null;
}

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));

interface FactsRow {
  conversationId: string;
  clientId: string;
  channelKind: ChannelKind;
  createdAt: Date;
  updatedAt: Date;
  status: ConversationStatus;
  handledBy: HandledBy;
  escalated: boolean;
  businessHours: OpeningHours | null;
  firstInboundAt: Date | null;
  firstResponseAt: Date | null;
  firstResponseSender: 'ai' | 'agent' | null;
  aiReplies: number | string;
  personReplies: number | string;
  customerMessages: number | string;
  ratings: number | string;
  ratingSum: number | string | null;
  satisfied: number | string;
  assignedAgentId: string | null;
  firstPersonId: string | null;
  handoffs: number | string | null;
  reopenings: number | string | null;
  lastResolutionAt: Date | null;
}

/** A conversation marked for a recompute (`service_level_marks`), with its mark's version (a bigint, as text). */
export interface ServiceLevelMark {
  conversationId: string;
  version: string;
}

export class InsightsRepository {
  constructor(private readonly db: Db) {}

  /**
   * A read without parallel workers. PostgreSQL plans the grouped reads of a large period (per
   * agent, per client) with parallel workers; on a server with few cores their start-up and
   * gathering cost more than they save — measured on 1M messages: 130–145 ms with them, 18–26 ms
   * without (docs/insights.md, "Speed"). The setting lasts for the transaction only.
   */
  async #serial<T>(read: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
      return read(trx);
    });
  }

  /** Holds each conversation's advisory lock until `trx` ends (taken in key order). */
  async lockConversations(trx: Db, conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    await sql`select pg_advisory_xact_lock(k.key) from (
        select distinct hashtextextended('parley.insights.conversation:' || id::text, 0) as key
        from unnest(${[...conversationIds]}::uuid[]) as id order by key) k`.execute(trx);
  }

  /** Up to `limit` marked conversations after `after` (by id). */
  async marks(trx: Db, after: string | null, limit: number): Promise<string[]> {
    const { rows } = await sql<{ conversationId: string }>`
      select conversation_id from service_level_marks
      ${after === null ? sql`` : sql`where conversation_id > ${after}::uuid`}
      order by conversation_id limit ${limit}`.execute(trx);
    return rows.map((row) => row.conversationId);
  }

  /** The marks of these conversations, each with its version (read before their facts, under their locks). */
  async markVersions(trx: Db, conversationIds: readonly string[]): Promise<ServiceLevelMark[]> {
    if (conversationIds.length === 0) return [];
    const { rows } = await sql<{ conversationId: string; version: string | number }>`
      select conversation_id, version from service_level_marks where conversation_id = any(${[...conversationIds]}::uuid[])`.execute(trx);
    return rows.map((row) => ({ conversationId: row.conversationId, version: String(row.version) }));
  }

  /**
   * After a recompute from the facts: clears these marks where they still have the version read.
   * A mark that moved on meanwhile stays, asking for a recompute: the facts just read may or may
   * not have had its newer messages, so its counts cannot simply be added.
   */
  async settleMarks(trx: Db, marks: readonly ServiceLevelMark[]): Promise<void> {
    if (marks.length === 0) return;
    const ids = marks.map((m) => m.conversationId);
    await sql`delete from service_level_marks m
      using unnest(${ids}::uuid[], ${marks.map((m) => m.version)}::bigint[]) as t(conversation_id, version)
      where m.conversation_id = t.conversation_id and m.version = t.version`.execute(trx);
    await sql`update service_level_marks set recompute = true where conversation_id = any(${ids}::uuid[]) and not recompute`.execute(trx);
  }

  /**
   * The marks of these conversations that only count plain messages, where the conversation's row
   * already holds everything such messages could change — its customer's first message (for a
   * customer's), its first answer (for the AI's), and no resolution (a resolved conversation's
   * messages are recomputed) — deleted, and their counts added to the rows, in one statement.
   * A message marking one meanwhile is waited for, and then its counts are the ones deleted and
   * added (or, once this commits, it marks the conversation anew). Resolves with what was added;
   * the day rollups are the caller's (`addToDays`).
   */
  async addCounts(trx: Db, conversationIds: readonly string[]): Promise<CountedMark[]> {
    if (conversationIds.length === 0) return [];
    const { rows } = await sql<{ conversationId: string; clientId: string; createdAt: Date | string; customerMessages: number; aiReplies: number }>`
      with taken as (
        delete from service_level_marks m using conversation_service_levels s
        where m.conversation_id = any(${[...conversationIds]}::uuid[]) and s.conversation_id = m.conversation_id
          and not m.recompute and s.resolved_at is null
          and (m.customer_messages = 0 or s.first_inbound_at is not null)
          and (m.ai_replies = 0 or s.first_response_at is not null)
        returning m.conversation_id, s.client_id, s.created_at, m.customer_messages, m.ai_replies
      ), added as (
        update conversation_service_levels s set customer_messages = s.customer_messages + t.customer_messages,
          ai_replies = s.ai_replies + t.ai_replies, updated_at = statement_timestamp()
        from taken t where s.conversation_id = t.conversation_id and (t.customer_messages > 0 or t.ai_replies > 0)
      )
      select * from taken`.execute(trx);
    return rows.map((row) => ({
      conversationId: row.conversationId,
      clientId: row.clientId,
      createdAt: date(row.createdAt),
      customerMessages: num(row.customerMessages),
      aiReplies: num(row.aiReplies),
    }));
  }

  /** Holds each (client, day)'s advisory lock until `trx` ends (taken in key order, after the conversations'). */
  async lockDays(trx: Db, days: readonly DayKey[]): Promise<void> {
    if (days.length === 0) return;
    await sql`select pg_advisory_xact_lock(k.key) from (
        select distinct hashtextextended('parley.insights.day:' || d.client_id::text || ':' || d.day::text, 0) as key
        from unnest(${days.map((d) => d.clientId)}::uuid[], ${days.map((d) => d.day)}::date[]) as d(client_id, day) order by key) k`.execute(trx);
  }

  /** Hand-offs, reopenings and resolutions, once per job (a job run twice records nothing more); of conversations that exist. */
  async recordEvents(trx: Db, events: readonly { jobId: number; conversationId: string; kind: ServiceLevelEventKind; at: Date }[]): Promise<void> {
    if (events.length === 0) return;
    await sql`insert into service_level_events (job_id, conversation_id, kind, at)
      select e.job_id, c.id, e.kind, e.at
      from unnest(${events.map((e) => e.jobId)}::bigint[], ${events.map((e) => e.conversationId)}::uuid[],
        ${events.map((e) => e.kind)}::text[], ${events.map((e) => e.at.toISOString())}::timestamptz[]) as e(job_id, conversation_id, kind, at)
      join conversations c on c.id = e.conversation_id
      on conflict (job_id) do nothing`.execute(trx);
  }

  /**
   * What the service levels of these conversations are made of, one query: the conversation, its
   * channel's kind, the client's agent's business hours, its messages (the customer's first, the
   * first AI or person message after it, the replies by each) and its recorded events. Conversations
   * that no longer exist are left out.
   */
  async facts(trx: Db, conversationIds: readonly string[]): Promise<ServiceLevelFacts[]> {
    if (conversationIds.length === 0) return [];
    const { rows } = await sql<FactsRow>`
      select c.id as conversation_id, c.client_id, ch.kind as channel_kind, c.created_at, c.updated_at, c.status, c.handled_by,
        c.escalation_reason is not null as escalated, a.business_hours,
        m.first_inbound_at, m.first_response_at, m.first_response_sender,
        m.ai_replies, m.person_replies, m.customer_messages, c.assigned_agent_id, m.first_person_id, e.handoffs, e.reopenings, e.last_resolution_at,
        sv.ratings, sv.rating_sum, sv.satisfied
      from conversations c
      join channels ch on ch.id = c.channel_id
      left join agents a on a.client_id = c.client_id
      -- One pass over the conversation's messages (asked: the time of the customer's first message).
      cross join lateral (
        select min(y.created_at) filter (where y.direction = 'inbound') as first_inbound_at,
          count(*) filter (where y.direction = 'outbound' and y.sender_type = 'ai') as ai_replies,
          count(*) filter (where y.direction = 'outbound' and y.sender_type = 'agent') as person_replies,
          count(*) filter (where y.direction = 'inbound') as customer_messages,
          (array_agg(y.sender_id order by y.created_at, y.id)
            filter (where y.direction = 'outbound' and y.sender_type = 'agent' and y.sender_id is not null))[1] as first_person_id,
          (array_agg(y.created_at order by y.created_at, y.id)
            filter (where y.direction = 'outbound' and y.sender_type in ('ai', 'agent') and y.created_at > y.asked))[1] as first_response_at,
          (array_agg(y.sender_type order by y.created_at, y.id)
            filter (where y.direction = 'outbound' and y.sender_type in ('ai', 'agent') and y.created_at > y.asked))[1] as first_response_sender
        from (
          select x.id, x.created_at, x.direction, x.sender_type, x.sender_id,
            min(x.created_at) filter (where x.direction = 'inbound') over () as asked
          from messages x where x.conversation_id = c.id) y) m
      cross join lateral (
        select count(*) filter (where z.kind = 'handoff') as handoffs,
          count(*) filter (where z.kind = 'reopening') as reopenings,
          max(z.at) filter (where z.kind = 'resolution') as last_resolution_at
        from service_level_events z where z.conversation_id = c.id) e
      cross join lateral (
        select count(*) as ratings, coalesce(sum(v.rating), 0) as rating_sum, count(*) filter (where v.rating >= 4) as satisfied
        from satisfaction_surveys v where v.conversation_id = c.id and v.status = 'answered') sv
      where c.id = any(${[...conversationIds]}::uuid[])`.execute(trx);
    return rows.map((row) => ({
      conversationId: row.conversationId,
      clientId: row.clientId,
      channelKind: row.channelKind,
      createdAt: date(row.createdAt),
      updatedAt: date(row.updatedAt),
      status: row.status,
      handledBy: row.handledBy,
      escalated: row.escalated,
      businessHours: row.businessHours,
      firstInboundAt: dateOrNull(row.firstInboundAt),
      firstResponseAt: dateOrNull(row.firstResponseAt),
      firstResponseSender: row.firstResponseSender,
      aiReplies: num(row.aiReplies),
      personReplies: num(row.personReplies),
      customerMessages: num(row.customerMessages),
      ratings: num(row.ratings),
      ratingSum: num(row.ratingSum),
      satisfied: num(row.satisfied),
      assignedAgentId: row.assignedAgentId,
      firstPersonId: row.firstPersonId,
      handoffs: num(row.handoffs),
      reopenings: num(row.reopenings),
      lastResolutionAt: dateOrNull(row.lastResolutionAt),
    }));
  }

  /**
   * Stores the rows; a row equal to the stored one is left alone. Resolves with the rows inserted
   * or changed, each with the row it replaced (undefined: new) — what their days' rollups move by.
   * One statement with the rows as one JSON parameter: a hundred rows' 2,200 bound values cost more
   * to build and bind than the statement does to run.
   */
  async upsertLevels(trx: Db, levels: readonly ServiceLevel[]): Promise<{ after: ServiceLevel; before: ServiceLevelRow | undefined }[]> {
    if (levels.length === 0) return [];
    const columns = sql.raw(LEVEL_COLUMNS.map(([column]) => column).join(', '));
    const excluded = sql.raw(LEVEL_COLUMNS.map(([column]) => `excluded.${column}`).join(', '));
    const target = sql.raw(LEVEL_COLUMNS.map(([column]) => `conversation_service_levels.${column}`).join(', '));
    const { rows } = await sql<Record<string, unknown>>`
      with new as (
        select * from jsonb_to_recordset(${JSON.stringify(levels.map(levelRecord))}::jsonb)
          as x(${sql.raw(LEVEL_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', '))})
      ), old as (
        select s.* from conversation_service_levels s join new n on n.conversation_id = s.conversation_id
      ), up as (
        insert into conversation_service_levels (${columns}, updated_at)
        select ${columns}, statement_timestamp() from new
        on conflict (conversation_id) do update set
          ${sql.raw(LEVEL_COLUMNS.filter(([column]) => column !== 'conversation_id').map(([column]) => `${column} = excluded.${column}`).join(', '))},
          updated_at = statement_timestamp()
        where (${target}) is distinct from (${excluded})
        returning conversation_id
      )
      select up.conversation_id as changed_id, o.* from up left join old o on o.conversation_id = up.conversation_id`.execute(trx);
    const byId = new Map(levels.map((level) => [level.conversationId, level]));
    return rows.map((row) => ({
      after: byId.get(String(row.changedId))!,
      before: row.conversationId === null || row.conversationId === undefined ? undefined : levelOf(row as unknown as Selectable<ConversationServiceLevelsTable>),
    }));
  }

  /**
   * Adds these changes to the days' rollups (a missing day starts at zero), in (client, day)
   * order. Each is what one transaction's changed rows moved: their new figures minus their old.
   */
  async addToDays(trx: Db, changes: readonly DailyRollup[]): Promise<void> {
    if (changes.length === 0) return;
    const sorted = [...changes].sort((a, b) => a.clientId.localeCompare(b.clientId) || a.day.localeCompare(b.day));
    const column = <K extends keyof DailyRollup>(key: K) => sorted.map((c) => c[key]);
    // Existing days are updated in place; only a day without a row is inserted — its change is a
    // new row's share, never negative (the table's checks apply to an insert's row before any
    // conflict is seen).
    await sql`
      with d as (
        select * from unnest(${column('clientId')}::uuid[], ${column('day')}::date[], ${column('conversations')}::int[], ${column('answered')}::int[],
          ${column('firstResponseSecondsSum')}::float8[], ${column('firstResponseBusinessSecondsSum')}::float8[], ${column('resolved')}::int[],
          ${column('resolutionSecondsSum')}::float8[], ${column('resolutionBusinessSecondsSum')}::float8[], ${column('automated')}::int[],
          ${column('handedOff')}::int[], ${column('handoffs')}::int[], ${column('reopenings')}::int[], ${column('messages')}::int[],
          ${column('ratings')}::int[], ${column('ratingSum')}::int[], ${column('satisfied')}::int[])
          as d(client_id, day, conversations, answered, frs, frbs, resolved, rs, rbs, automated, handed_off, handoffs, reopenings, messages,
            ratings, rating_sum, satisfied)
      ), updated as (
        update service_level_daily t set
          conversations = t.conversations + d.conversations,
          answered = t.answered + d.answered,
          first_response_seconds_sum = t.first_response_seconds_sum + d.frs,
          first_response_business_seconds_sum = t.first_response_business_seconds_sum + d.frbs,
          resolved = t.resolved + d.resolved,
          resolution_seconds_sum = t.resolution_seconds_sum + d.rs,
          resolution_business_seconds_sum = t.resolution_business_seconds_sum + d.rbs,
          automated = t.automated + d.automated,
          handed_off = t.handed_off + d.handed_off,
          handoffs = t.handoffs + d.handoffs,
          reopenings = t.reopenings + d.reopenings,
          messages = t.messages + d.messages,
          ratings = t.ratings + d.ratings,
          rating_sum = t.rating_sum + d.rating_sum,
          satisfied = t.satisfied + d.satisfied,
          updated_at = statement_timestamp()
        from d where t.client_id = d.client_id and t.day = d.day
        returning t.client_id, t.day
      )
      insert into service_level_daily (client_id, day, conversations, answered, first_response_seconds_sum, first_response_business_seconds_sum,
        resolved, resolution_seconds_sum, resolution_business_seconds_sum, automated, handed_off, handoffs, reopenings, messages,
        ratings, rating_sum, satisfied, updated_at)
      select d.client_id, d.day, d.conversations, d.answered, d.frs, d.frbs, d.resolved, d.rs, d.rbs, d.automated, d.handed_off, d.handoffs,
        d.reopenings, d.messages, d.ratings, d.rating_sum, d.satisfied, statement_timestamp()
      from d where not exists (select 1 from updated u where u.client_id = d.client_id and u.day = d.day)`.execute(trx);
  }

  /** The rollups of these (client, day)s, summed again from their conversations' rows. */
  async recomputeDays(trx: Db, days: readonly DayKey[]): Promise<void> {
    if (days.length === 0) return;
    await sql`
      insert into service_level_daily (client_id, day, conversations, answered, first_response_seconds_sum, first_response_business_seconds_sum,
        resolved, resolution_seconds_sum, resolution_business_seconds_sum, automated, handed_off, handoffs, reopenings, messages,
        ratings, rating_sum, satisfied, updated_at)
      select k.client_id, k.day,
        count(s.conversation_id)::int,
        count(s.first_response_at)::int,
        coalesce(sum(s.first_response_seconds), 0),
        coalesce(sum(s.first_response_business_seconds), 0),
        count(s.resolved_at)::int,
        coalesce(sum(s.resolution_seconds), 0),
        coalesce(sum(s.resolution_business_seconds), 0),
        (count(*) filter (where s.automated))::int,
        (count(*) filter (where s.handoffs > 0))::int,
        coalesce(sum(s.handoffs), 0)::int,
        coalesce(sum(s.reopenings), 0)::int,
        coalesce(sum(s.customer_messages + s.ai_replies + s.person_replies), 0)::int,
        coalesce(sum(s.ratings), 0)::int,
        coalesce(sum(s.rating_sum), 0)::int,
        coalesce(sum(s.satisfied), 0)::int,
        statement_timestamp()
      from unnest(${days.map((d) => d.clientId)}::uuid[], ${days.map((d) => d.day)}::date[]) as k(client_id, day)
      left join conversation_service_levels s on s.client_id = k.client_id
        and s.created_at >= (k.day::timestamp at time zone 'UTC') and s.created_at < ((k.day + 1)::timestamp at time zone 'UTC')
      group by k.client_id, k.day
      on conflict (client_id, day) do update set
        conversations = excluded.conversations,
        answered = excluded.answered,
        first_response_seconds_sum = excluded.first_response_seconds_sum,
        first_response_business_seconds_sum = excluded.first_response_business_seconds_sum,
        resolved = excluded.resolved,
        resolution_seconds_sum = excluded.resolution_seconds_sum,
        resolution_business_seconds_sum = excluded.resolution_business_seconds_sum,
        automated = excluded.automated,
        handed_off = excluded.handed_off,
        handoffs = excluded.handoffs,
        reopenings = excluded.reopenings,
        messages = excluded.messages,
        ratings = excluded.ratings,
        rating_sum = excluded.rating_sum,
        satisfied = excluded.satisfied,
        updated_at = excluded.updated_at`.execute(trx);
  }

  /** A job finished by the caller's statement (`parley_complete_job`, server/jobs/jobs.sql.ts). */
  async completeJob(trx: Db, completion: JobCompletion): Promise<void> {
    await sql`select parley_complete_job(${JSON.stringify(completion)}::jsonb)`.execute(trx);
  }

  /**
   * The backfill's next batch: up to `limit` conversations after `after` by id (`last`: the cursor
   * for the one after), and which of them have no row yet.
   */
  async backfillBatch(trx: Db, after: string | null, limit: number): Promise<{ last: string | null; size: number; missing: string[] }> {
    const { rows } = await sql<{ id: string; missing: boolean }>`
      select c.id, not exists (select 1 from conversation_service_levels s where s.conversation_id = c.id) as missing
      from conversations c
      ${after === null ? sql`` : sql`where c.id > ${after}::uuid`}
      order by c.id limit ${limit}`.execute(trx);
    return { last: rows.at(-1)?.id ?? null, size: rows.length, missing: rows.filter((r) => r.missing).map((r) => r.id) };
  }

  /** Reads: one conversation's row, only within `clientId` when given. */
  async findLevel(conversationId: string, clientId: string | null): Promise<ServiceLevelRow | undefined> {
    let query = this.db.selectFrom('conversationServiceLevels').selectAll().where('conversationId', '=', conversationId);
    if (clientId !== null) query = query.where('clientId', '=', clientId);
    const row = await query.executeTakeFirst();
    return row ? levelOf(row) : undefined;
  }

  /** Reads: the rollups of the days in [from, to] (YYYY-MM-DD), one client's or every client's, by day then client. */
  async daily(from: string, to: string, clientId: string | null): Promise<DailyRollup[]> {
    const { rows } = await sql<Record<string, unknown>>`
      select client_id, day::text as day, conversations, answered, first_response_seconds_sum, first_response_business_seconds_sum,
        resolved, resolution_seconds_sum, resolution_business_seconds_sum, automated, handed_off, handoffs, reopenings, messages,
        ratings, rating_sum, satisfied
      from service_level_daily
      where day >= ${from}::date and day <= ${to}::date ${clientId === null ? sql`` : sql`and client_id = ${clientId}::uuid`}
      order by day, client_id`.execute(this.db);
    return rows.map((row) => ({
      clientId: String(row.clientId),
      day: String(row.day),
      conversations: num(row.conversations),
      answered: num(row.answered),
      firstResponseSecondsSum: num(row.firstResponseSecondsSum),
      firstResponseBusinessSecondsSum: num(row.firstResponseBusinessSecondsSum),
      resolved: num(row.resolved),
      resolutionSecondsSum: num(row.resolutionSecondsSum),
      resolutionBusinessSecondsSum: num(row.resolutionBusinessSecondsSum),
      automated: num(row.automated),
      handedOff: num(row.handedOff),
      handoffs: num(row.handoffs),
      reopenings: num(row.reopenings),
      messages: num(row.messages),
      ratings: num(row.ratings),
      ratingSum: num(row.ratingSum),
      satisfied: num(row.satisfied),
    }));
  }

  /**
   * Reads: medians over the conversations created in the period (sums add up across days, medians
   * do not: they are computed from the rows, by the (client_id, created_at) or (created_at) index).
   */
  async medians(period: PeriodFilter): Promise<ServiceLevelMedians> {
    const { rows } = await sql<Record<string, unknown>>`
      select count(*) as conversations,
        percentile_cont(0.5) within group (order by first_response_seconds) as first_response_seconds,
        percentile_cont(0.5) within group (order by first_response_business_seconds) as first_response_business_seconds,
        percentile_cont(0.5) within group (order by resolution_seconds) as resolution_seconds,
        percentile_cont(0.5) within group (order by resolution_business_seconds) as resolution_business_seconds
      from conversation_service_levels
      where created_at >= ${period.from} and created_at < ${period.until}
        ${period.clientId === null ? sql`` : sql`and client_id = ${period.clientId}::uuid`}`.execute(this.db);
    const row = rows[0] ?? {};
    return {
      conversations: num(row.conversations),
      firstResponseSeconds: numOrNull(row.firstResponseSeconds),
      firstResponseBusinessSeconds: numOrNull(row.firstResponseBusinessSeconds),
      resolutionSeconds: numOrNull(row.resolutionSeconds),
      resolutionBusinessSeconds: numOrNull(row.resolutionBusinessSeconds),
    };
  }

  /** Reads: totals and medians of the conversations started in the period. */
  async periodSummary(period: PeriodFilter, medians: readonly Median[] = ALL_MEDIANS): Promise<PeriodSummary> {
    const { rows } = await sql<Record<string, unknown>>`
      select ${summaryColumns(medians)}
      from conversation_service_levels s
      where s.created_at >= ${period.from} and s.created_at < ${period.until} ${clientFilter(period)}`.execute(this.db);
    return summaryOf(rows[0] ?? {});
  }

  /**
   * Reads, in one scan of the period's rows (GROUPING SETS): the period's totals and medians (all
   * four); per client — every client (or the one filtered), those without a conversation in the
   * period too — with its name and status; per agent — each client's AI agent over the
   * conversations it answered first, each person over the conversations counted for them
   * (`agent_id`); and per channel kind (counts). Clients and agents come most conversations first,
   * channels too. Each grouping's rows once scanned cost a sort each, not a scan each (measured on
   * 100,000 conversations: 27–31 ms against 37–39 ms for the four reads it replaced, docs/insights.md).
   */
  async periodBreakdown(period: PeriodFilter): Promise<PeriodBreakdown> {
    const counts = SUMMARY_COUNTS.map((column) => sql.raw(`coalesce(g.${column}, 0) as ${column}`));
    const medians = ALL_MEDIANS.map((median) => sql.raw(`g.${MEDIAN_COLUMNS[median]}`));
    const figures = sql.join([...counts, ...medians]);
    const { rows } = await this.#serial((db) => sql<Record<string, unknown>>`
      with g as (
        select grouping(s.client_id, s.first_responder, s.agent_id, s.channel_kind) as grouping_set, s.client_id, s.first_responder, s.agent_id, s.channel_kind,
          ${summaryColumns(ALL_MEDIANS)}
        from conversation_service_levels s
        where s.created_at >= ${period.from} and s.created_at < ${period.until} ${clientFilter(period)}
        group by grouping sets ((), (s.client_id), (s.client_id, s.first_responder), (s.agent_id), (s.channel_kind))
      )
      select 'period' as part, null as kind, null as id, null as name, null as client_name, null as status, ${figures}
      from g where g.grouping_set = ${sql.lit(SET.period)}
      union all
      select 'client', null, c.id::text, c.company_name, null, c.status, ${figures}
      from clients c left join g on g.grouping_set = ${sql.lit(SET.client)} and g.client_id = c.id
      ${period.clientId === null ? sql`` : sql`where c.id = ${period.clientId}::uuid`}
      union all
      select 'agent', 'ai', g.client_id::text, coalesce(a.name, 'AI agent'), c.company_name, null, ${figures}
      from g join clients c on c.id = g.client_id left join agents a on a.client_id = g.client_id
      where g.grouping_set = ${sql.lit(SET.aiAgent)} and g.first_responder = 'ai'
      union all
      select 'agent', 'person', g.agent_id::text, u.full_name, null, null, ${figures}
      from g join users u on u.id = g.agent_id
      where g.grouping_set = ${sql.lit(SET.person)}
      union all
      select 'channel', null, g.channel_kind::text, g.channel_kind::text, null, null, ${figures}
      from g where g.grouping_set = ${sql.lit(SET.channel)}
      order by part, conversations desc, name, id`.execute(db));
    const breakdown: PeriodBreakdown = { summary: summaryOf({}), clients: [], agents: [], channels: [] };
    for (const row of rows) {
      const summary = summaryOf(row);
      if (row.part === 'period') breakdown.summary = summary;
      else if (row.part === 'client') breakdown.clients.push({ clientId: String(row.id), name: String(row.name), status: String(row.status), ...summary });
      else if (row.part === 'agent') {
        breakdown.agents.push({
          kind: row.kind === 'ai' ? 'ai' : 'person',
          id: String(row.id),
          name: String(row.name),
          clientName: typeof row.clientName === 'string' ? row.clientName : null,
          ...summary,
        });
      } else breakdown.channels.push({ kind: row.id as ChannelKind, count: summary.conversations });
    }
    return breakdown;
  }

  /** Reads: clients by status (every client, or the one named). */
  async clientsByStatus(clientId: string | null): Promise<{ status: string; count: number }[]> {
    const { rows } = await sql<{ status: string; count: string | number }>`
      select status, count(*) as count from clients ${clientId === null ? sql`` : sql`where id = ${clientId}::uuid`}
      group by status order by count(*) desc, status`.execute(this.db);
    return rows.map((row) => ({ status: row.status, count: num(row.count) }));
  }

  /** Reads: the daily rollups summed per month (YYYY-MM, UTC) over the days [from, to]; months without a row are absent. */
  async months(
    from: string,
    to: string,
    clientId: string | null,
  ): Promise<{ month: string; conversations: number; messages: number; automated: number; ratings: number; ratingSum: number }[]> {
    const { rows } = await sql<Record<string, unknown>>`
      select to_char(day, 'YYYY-MM') as month, sum(conversations) as conversations, sum(messages) as messages, sum(automated) as automated,
        sum(ratings) as ratings, sum(rating_sum) as rating_sum
      from service_level_daily
      where day >= ${from}::date and day <= ${to}::date ${clientId === null ? sql`` : sql`and client_id = ${clientId}::uuid`}
      group by 1 order by 1`.execute(this.db);
    return rows.map((row) => ({
      month: String(row.month),
      conversations: num(row.conversations),
      messages: num(row.messages),
      automated: num(row.automated),
      ratings: num(row.ratings),
      ratingSum: num(row.ratingSum),
    }));
  }

  /**
   * Reads (the AI Summary's topics): the AI agent's replies to customers' questions in
   * [previousFrom, until), grouped by the knowledge-base entry it matched first (`ai.sources[0]`)
   * when its confidence reached `matchFloor`, else as `unmatched`; counts of the period and of the
   * one before, the period's answers, hand-offs and confidence. Greetings and away texts are no
   * questions and are left out.
   */
  async topics(period: PeriodFilter, previousFrom: Date, matchFloor: number): Promise<TopicRow[]> {
    const { rows } = await sql<Record<string, unknown>>`
      with replies as (
        select m.created_at >= ${period.from} as current, m.ai_confidence as confidence, m.ai->>'decision' as decision,
          case when jsonb_typeof(m.ai->'sources'->0) = 'object' and coalesce(m.ai_confidence, 0) >= ${matchFloor}
            then (m.ai->'sources'->0->>'kind') || ':' || (m.ai->'sources'->0->>'id') else 'unmatched' end as key,
          m.ai->'sources'->0->>'title' as title
        from messages m
        where ${AI_REPLY_TO_QUESTION}
          and m.created_at >= ${previousFrom} and m.created_at < ${period.until}
          ${messageClientFilter(period)}
      )
      select key, max(title) filter (where key <> 'unmatched') as title,
        count(*) filter (where current) as count,
        count(*) filter (where not current) as previous,
        coalesce(sum(confidence) filter (where current and confidence is not null), 0) as confidence_sum,
        count(confidence) filter (where current) as confidence_count,
        count(*) filter (where current and decision = 'answer') as answered,
        count(*) filter (where current and decision = 'handoff') as handed_off
      from replies group by key
      order by count(*) filter (where current) desc, key`.execute(this.db);
    return rows.map((row) => ({
      key: String(row.key),
      title: typeof row.title === 'string' ? row.title : null,
      count: num(row.count),
      previous: num(row.previous),
      confidenceSum: num(row.confidenceSum),
      confidenceCount: num(row.confidenceCount),
      answered: num(row.answered),
      handedOff: num(row.handedOff),
    }));
  }

  /**
   * Reads (the AI Summary's topics of unanswered questions): the AI replies to questions that
   * matched no entry (as `topics` counts them), the newest `limit` of the period and the newest
   * `limit` of the period before, each with the customer's message it answered (the latest one
   * with text at or before it, cut to 500 characters: an FAQ question's limit). Newest first.
   */
  async unmatchedQuestions(period: PeriodFilter, previousFrom: Date, matchFloor: number, limit: number): Promise<UnmatchedQuestion[]> {
    const unmatched = sql`${AI_REPLY_TO_QUESTION}
      and not (jsonb_typeof(m.ai->'sources'->0) = 'object' and coalesce(m.ai_confidence, 0) >= ${matchFloor})
      ${messageClientFilter(period)}`;
    const { rows } = await sql<Record<string, unknown>>`
      with replies as (
        (select m.id, m.client_id, m.conversation_id, m.created_at, m.ai_confidence, m.ai->>'decision' as decision, true as current
          from messages m
          where ${unmatched} and m.created_at >= ${period.from} and m.created_at < ${period.until}
          order by m.created_at desc, m.id desc limit ${limit})
        union all
        (select m.id, m.client_id, m.conversation_id, m.created_at, m.ai_confidence, m.ai->>'decision' as decision, false as current
          from messages m
          where ${unmatched} and m.created_at >= ${previousFrom} and m.created_at < ${period.from}
          order by m.created_at desc, m.id desc limit ${limit})
      )
      select r.id as reply_id, r.client_id, r.current, r.ai_confidence as confidence, r.decision, left(q.content, 500) as text
      from replies r
      cross join lateral (
        select i.content from messages i
        where i.conversation_id = r.conversation_id and i.direction = 'inbound' and i.created_at <= r.created_at and i.content <> ''
        order by i.created_at desc limit 1) q
      order by r.current desc, r.created_at desc, r.id desc`.execute(this.db);
    return rows.map((row) => ({
      replyId: String(row.replyId),
      clientId: String(row.clientId),
      current: row.current === true,
      text: String(row.text),
      confidence: numOrNull(row.confidence),
      decision: String(row.decision),
    }));
  }

  /**
   * Reads (the AI Summary's performance): per UTC hour of the period, conversations started and
   * the AI replies' confidence (sum and count); per channel kind, the same.
   */
  async activity(period: PeriodFilter): Promise<{ hours: (ActivityRow & { hour: Date })[]; channels: (ActivityRow & { kind: ChannelKind })[] }> {
    const { rows: hours } = await sql<Record<string, unknown>>`
      with conversations as (
        select date_trunc('hour', s.created_at) as hour, count(*) as n from conversation_service_levels s
        where s.created_at >= ${period.from} and s.created_at < ${period.until} ${clientFilter(period)}
        group by 1
      ), replies as (
        select date_trunc('hour', m.created_at) as hour, sum(m.ai_confidence) as confidence_sum, count(m.ai_confidence) as confidence_count
        from messages m
        where ${AI_REPLY_TO_QUESTION}
          and m.created_at >= ${period.from} and m.created_at < ${period.until}
          ${messageClientFilter(period)}
        group by 1
      )
      select coalesce(c.hour, r.hour) as hour, coalesce(c.n, 0) as conversations, coalesce(r.confidence_sum, 0) as confidence_sum,
        coalesce(r.confidence_count, 0) as confidence_count
      from conversations c full join replies r on r.hour = c.hour`.execute(this.db);
    const { rows: channels } = await sql<Record<string, unknown>>`
      with conversations as (
        select s.channel_kind as kind, count(*) as n from conversation_service_levels s
        where s.created_at >= ${period.from} and s.created_at < ${period.until} ${clientFilter(period)}
        group by 1
      ), replies as (
        select ch.kind, sum(m.ai_confidence) as confidence_sum, count(m.ai_confidence) as confidence_count
        from messages m join channels ch on ch.id = m.channel_id
        where ${AI_REPLY_TO_QUESTION}
          and m.created_at >= ${period.from} and m.created_at < ${period.until}
          ${messageClientFilter(period)}
        group by 1
      )
      select coalesce(c.kind, r.kind) as kind, coalesce(c.n, 0) as conversations, coalesce(r.confidence_sum, 0) as confidence_sum,
        coalesce(r.confidence_count, 0) as confidence_count
      from conversations c full join replies r on r.kind = c.kind
      order by 2 desc, 1`.execute(this.db);
    const activity = (row: Record<string, unknown>): ActivityRow => ({
      conversations: num(row.conversations),
      confidenceSum: num(row.confidenceSum),
      confidenceCount: num(row.confidenceCount),
    });
    return {
      hours: hours.map((row) => ({ ...activity(row), hour: date(row.hour) })),
      channels: channels.map((row) => ({ ...activity(row), kind: row.kind as ChannelKind })),
    };
  }

  /** Reads: the mean first response (seconds) of the period's answered conversations. */
  async meanFirstResponse(period: PeriodFilter): Promise<number | null> {
    const { rows } = await sql<{ mean: unknown }>`
      select avg(s.first_response_seconds) as mean from conversation_service_levels s
      where s.created_at >= ${period.from} and s.created_at < ${period.until} ${clientFilter(period)}`.execute(this.db);
    return numOrNull(rows[0]?.mean);
  }
}

/** Totals and medians of a set of conversations' rows (a period, a client, an agent). */
export interface PeriodSummary {
  conversations: number;
  messages: number;
  answered: number;
  resolved: number;
  automated: number;
  handedOff: number;
  reopened: number;
  firstResponseSeconds: number | null;
  firstResponseBusinessSeconds: number | null;
  resolutionSeconds: number | null;
  resolutionBusinessSeconds: number | null;
  /** Answered satisfaction surveys, the sum of their ratings and how many were 4 or 5. */
  ratings: number;
  ratingSum: number;
  satisfied: number;
}

/** A period's figures in every grouping the insights page shows (`periodBreakdown`). */
export interface PeriodBreakdown {
  summary: PeriodSummary;
  clients: (PeriodSummary & { clientId: string; name: string; status: string })[];
  agents: AgentRow[];
  channels: { kind: ChannelKind; count: number }[];
}

export interface AgentRow extends PeriodSummary {
  kind: 'ai' | 'person';
  /** The client's id for its AI agent, the user's for a person. */
  id: string;
  name: string;
  clientName: string | null;
}

/** The medians a read can compute; each is a sort of the group's rows, so a read asks only for those it shows. */
export type Median = 'firstResponse' | 'firstResponseBusiness' | 'resolution' | 'resolutionBusiness';
export const ALL_MEDIANS: readonly Median[] = ['firstResponse', 'firstResponseBusiness', 'resolution', 'resolutionBusiness'];
/** Each median's column, also its alias in the result. */
const MEDIAN_COLUMNS: Record<Median, string> = {
  firstResponse: 'first_response_seconds',
  firstResponseBusiness: 'first_response_business_seconds',
  resolution: 'resolution_seconds',
  resolutionBusiness: 'resolution_business_seconds',
};

/**
 * `periodBreakdown`'s grouping sets by what `grouping(client_id, first_responder, agent_id,
 * channel_kind)` says of them: a bit set for each column a set leaves out.
 */
const SET = { period: 0b1111, client: 0b0111, aiAgent: 0b0011, person: 0b1101, channel: 0b1110 } as const;

/** The count and sum columns of `summaryColumns`, by their aliases. */
const SUMMARY_COUNTS = ['conversations', 'messages', 'answered', 'resolved', 'automated', 'handed_off', 'reopened', 'ratings', 'rating_sum', 'satisfied'] as const;

/**
 * The aggregate columns of `PeriodSummary` over rows aliased `s` (a left join's missing rows count
 * nothing); the medians not asked for are null.
 */
function summaryColumns(medians: readonly Median[] = ALL_MEDIANS) {
  const mediansSql = ALL_MEDIANS.map((median) => {
    const column = MEDIAN_COLUMNS[median];
    return sql.raw(medians.includes(median) ? `percentile_cont(0.5) within group (order by s.${column}) as ${column}` : `null::float8 as ${column}`);
  });
  return sql`count(s.conversation_id) as conversations,
    coalesce(sum(s.customer_messages + s.ai_replies + s.person_replies), 0) as messages,
    count(s.first_response_at) as answered,
    count(s.resolved_at) as resolved,
    count(*) filter (where s.automated) as automated,
    count(*) filter (where s.handoffs > 0) as handed_off,
    count(*) filter (where s.reopenings > 0) as reopened,
    coalesce(sum(s.ratings), 0) as ratings,
    coalesce(sum(s.rating_sum), 0) as rating_sum,
    coalesce(sum(s.satisfied), 0) as satisfied,
    ${sql.join(mediansSql)}`;
}

function summaryOf(row: Record<string, unknown>): PeriodSummary {
  return {
    conversations: num(row.conversations),
    messages: num(row.messages),
    answered: num(row.answered),
    resolved: num(row.resolved),
    automated: num(row.automated),
    handedOff: num(row.handedOff),
    reopened: num(row.reopened),
    ratings: num(row.ratings),
    ratingSum: num(row.ratingSum),
    satisfied: num(row.satisfied),
    firstResponseSeconds: numOrNull(row.firstResponseSeconds),
    firstResponseBusinessSeconds: numOrNull(row.firstResponseBusinessSeconds),
    resolutionSeconds: numOrNull(row.resolutionSeconds),
    resolutionBusinessSeconds: numOrNull(row.resolutionBusinessSeconds),
  };
}

/**
 * The AI's replies to customers' questions (`messages` aliased `m`): answers, hand-offs and
 * "please rephrase" texts — greetings and away texts answer no question.
 */
const AI_REPLY_TO_QUESTION = sql`m.sender_type = 'ai' and m.direction = 'outbound' and m.ai->>'decision' in ('answer', 'handoff', 'fallback')`;

function messageClientFilter(period: PeriodFilter) {
  return period.clientId === null ? sql`` : sql`and m.client_id = ${period.clientId}::uuid`;
}

function clientFilter(period: PeriodFilter) {
  return period.clientId === null ? sql`` : sql`and s.client_id = ${period.clientId}::uuid`;
}

/** The columns `upsertLevels` writes: name, SQL type, and the `ServiceLevel` field it holds. */
const LEVEL_COLUMNS: readonly (readonly [string, string, keyof ServiceLevel])[] = [
  ['conversation_id', 'uuid', 'conversationId'],
  ['client_id', 'uuid', 'clientId'],
  ['channel_kind', 'text', 'channelKind'],
  ['created_at', 'timestamptz', 'createdAt'],
  ['first_inbound_at', 'timestamptz', 'firstInboundAt'],
  ['first_response_at', 'timestamptz', 'firstResponseAt'],
  ['first_responder', 'text', 'firstResponder'],
  ['first_response_seconds', 'float8', 'firstResponseSeconds'],
  ['first_response_business_seconds', 'float8', 'firstResponseBusinessSeconds'],
  ['resolved_at', 'timestamptz', 'resolvedAt'],
  ['resolution_seconds', 'float8', 'resolutionSeconds'],
  ['resolution_business_seconds', 'float8', 'resolutionBusinessSeconds'],
  ['automated', 'boolean', 'automated'],
  ['handoffs', 'integer', 'handoffs'],
  ['reopenings', 'integer', 'reopenings'],
  ['person_replies', 'integer', 'personReplies'],
  ['ai_replies', 'integer', 'aiReplies'],
  ['customer_messages', 'integer', 'customerMessages'],
  ['ratings', 'integer', 'ratings'],
  ['rating_sum', 'integer', 'ratingSum'],
  ['satisfied', 'integer', 'satisfied'],
  ['agent_id', 'uuid', 'agentId'],
];

/** A row's values under its columns' names (`jsonb_to_recordset`). */
function levelRecord(level: ServiceLevel): Record<string, unknown> {
  return Object.fromEntries(LEVEL_COLUMNS.map(([column, , field]) => [column, level[field]]));
}

/** A stored row as the module's types have it. */
function levelOf(row: Selectable<ConversationServiceLevelsTable>): ServiceLevelRow {
  return {
    conversationId: row.conversationId,
    clientId: row.clientId,
    channelKind: row.channelKind,
    createdAt: date(row.createdAt),
    firstInboundAt: dateOrNull(row.firstInboundAt),
    firstResponseAt: dateOrNull(row.firstResponseAt),
    firstResponder: row.firstResponder,
    firstResponseSeconds: numOrNull(row.firstResponseSeconds),
    firstResponseBusinessSeconds: numOrNull(row.firstResponseBusinessSeconds),
    resolvedAt: dateOrNull(row.resolvedAt),
    resolutionSeconds: numOrNull(row.resolutionSeconds),
    resolutionBusinessSeconds: numOrNull(row.resolutionBusinessSeconds),
    automated: row.automated,
    handoffs: num(row.handoffs),
    reopenings: num(row.reopenings),
    personReplies: num(row.personReplies),
    aiReplies: num(row.aiReplies),
    customerMessages: num(row.customerMessages),
    ratings: num(row.ratings),
    ratingSum: num(row.ratingSum),
    satisfied: num(row.satisfied),
    agentId: row.agentId,
    updatedAt: date(row.updatedAt),
  };
}

/** The AI's replies to customers' questions about one topic (an entry, or `unmatched`). */
export interface TopicRow {
  key: string;
  title: string | null;
  count: number;
  previous: number;
  confidenceSum: number;
  confidenceCount: number;
  answered: number;
  handedOff: number;
}

/** Conversations started and the AI replies' confidence, in one bucket (an hour, a channel). */
export interface ActivityRow {
  conversations: number;
  confidenceSum: number;
  confidenceCount: number;
}
