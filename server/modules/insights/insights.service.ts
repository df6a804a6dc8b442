/**
 * Service levels (issue 16 §1, docs/insights.md): one row per conversation in
 * `conversation_service_levels` and per client and day in `service_level_daily`, kept current by
 * the domain events.
 *
 * Every event that can change a conversation's figures — created, a message, a hand-off, a
 * reopening, a resolution — queues an `insights.service-level` job in the transaction of the
 * change (EventBus subscriptions). The job records what the messaging tables do not keep (the
 * hand-off, reopening or resolution and its time, keyed by the job's id), recomputes the row from
 * the stored facts (computeServiceLevel) and, when it changed, the rollup of its client and day —
 * all in one transaction that also completes the job, under the conversation's and then the day's
 * advisory locks. So a job run twice, or jobs run in any order, leave the same rows.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { ServiceLevelEventKind } from '../../db/schema';
import type { EventBus } from '../../events/event-bus';
import type { Scope } from '../../http/scope';
import type { JobCompletion, JobPayload } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import {
  type InsightsPeriodKind,
  type InsightsQuery,
  type InsightsView,
  insightsQuery,
  TREND_MONTHS,
} from '../../../common/api/insights';
import { OTHER_UNMATCHED_TOPIC, type SummaryQuery, type SummaryTopic, type SummaryView, summaryQuery } from '../../../common/api/summary';
import { CHANNEL_KIND_LABEL } from '../../../common/messaging/channel-label';
import { type Clock, systemClock } from '../../lib/clock';
import { type CsvValue, toCsv } from '../../lib/csv';
import { AppError } from '../../lib/errors';
import { backfillJob, recomputeJob, serviceLevelJob } from './insights.jobs';
import {
  type DailyRollup,
  InsightsRepository,
  type Median,
  type PeriodFilter,
  type PeriodSummary,
  type ServiceLevelMedians,
  type ServiceLevelRow,
  type TopicRow,
} from './insights.repository';
import { computeServiceLevel, countedShare, dayChanges } from './service-level';
import type { TextFeatures } from './topic-clusters';
import { MISSING_MIN_QUESTIONS, UNMATCHED_QUESTION_CAP, type UnmatchedQuestion, UnmatchedTopicFinder } from './unmatched-topics';

export interface InsightsServiceDeps {
  db: Db;
  events: EventBus;
  queue: JobQueue;
  logger: Logger;
  clock?: Clock;
  /**
   * How long after its event a service-level job waits (default BATCH_DELAY_MS), so that the
   * events of a burst are taken in one transaction; tests that read the rows at once pass 0.
   */
  batchDelayMs?: number;
  /**
   * The AI agent's text features (the agents module's EmbeddedTextFeatures): the AI Summary groups
   * the questions no knowledge-base entry matched by them. Without, those questions are one group.
   */
  textFeatures?: TextFeatures;
}

/** How long a service-level job waits after its event by default: the figures are at most this (and a poll) behind. */
export const BATCH_DELAY_MS = 1_000;
/** Most `insights.service-level` jobs one handler takes with its own (one transaction). */
export const BATCH_LIMIT = 500;
/**
 * The medians the insights page shows of the period before (its change against the current one):
 * each is a sort of the period's rows, so the others are not computed.
 */
export const PREVIOUS_PERIOD_MEDIANS: readonly Median[] = ['firstResponse'];
/** Conversations per backfill job (one transaction each). */
export const BACKFILL_BATCH = 500;
const BACKFILL_KEY = 'backfill';

/** The event each recorded kind comes from. */
const RECORDED: Partial<Record<NonNullable<JobPayload<typeof serviceLevelJob>['event']>, ServiceLevelEventKind>> = {
  'conversation.escalated': 'handoff',
  'conversation.reopened': 'reopening',
  'conversation.resolved': 'resolution',
};

/** A hand-off, reopening or resolution of a conversation, recorded once per job (`jobId`). */
export interface RecordedEvent {
  jobId: number;
  conversationId: string;
  kind: ServiceLevelEventKind;
  at: Date;
}

/** A period of UTC days, both included (YYYY-MM-DD), and optionally one client (staff only). */
export interface InsightsPeriod {
  from: string;
  to: string;
  clientId?: string | null | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/u;
/** Longest period a read covers (a year and a bit: the Trends tab's six months fit). */
const MAX_PERIOD_DAYS = 400;

export class InsightsService {
  readonly #repository: InsightsRepository;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #unmatchedTopics: UnmatchedTopicFinder | null;

  constructor(private readonly deps: InsightsServiceDeps) {
    this.#repository = new InsightsRepository(deps.db);
    this.#unmatchedTopics = deps.textFeatures ? new UnmatchedTopicFinder(deps.textFeatures) : null;
    this.#clock = deps.clock ?? systemClock;
    this.#logger = deps.logger.child({ component: 'insights' });
  }

  /**
   * The subscriptions that keep the rows current, and the jobs' handlers. With `upkeep: false`
   * (INSIGHTS_UPKEEP=off, for measuring what the upkeep costs) no event marks or queues anything; jobs
   * already queued, and a backfill, still run.
   */
  register(options: { upkeep?: boolean } = {}): void {
    const { events, queue } = this.deps;
    const job = serviceLevelJob;
    const delayMs = this.deps.batchDelayMs ?? BATCH_DELAY_MS;
    if (options.upkeep ?? true) {
      // Creation, messages and satisfaction answers mark the conversation, and one queued
      // recompute job takes every mark (a mark is one small row; a job per message was three
      // writes to `jobs` and its indexes).
      const collect = 'parley_insights_mark';
      events.subscribe({ event: 'conversation.created', job: recomputeJob, keys: ['conversationId'], collect, delayMs });
      // A message's direction and sender say whether it only counts (parley_insights_mark); a
      // satisfaction answer changes the ratings, so it asks for a recompute.
      events.subscribe({ event: 'message.created', job: recomputeJob, keys: ['conversationId', 'direction', 'senderType'], collect, delayMs });
      events.subscribe({ event: 'satisfaction.rated', job: recomputeJob, keys: ['conversationId'], collect, delayMs });
      events.subscribe({ event: 'conversation.escalated', job, keys: ['conversationId'], withEvent: true, delayMs });
      events.subscribe({ event: 'conversation.reopened', job, keys: ['conversationId'], withEvent: true, delayMs });
      events.subscribe({ event: 'conversation.resolved', job, keys: ['conversationId'], withEvent: true, delayMs });
    }
    queue.register(job, async (payload, ctx) => {
      // This job and the others queued behind it: one transaction for the burst.
      const taken = await queue.takeQueued(job, BATCH_LIMIT);
      await this.deps.db.transaction().execute(async (trx) => {
        await this.#refreshAfter(trx, [{ id: ctx.jobId, payload }, ...taken]);
        await queue.completeTaken(trx, taken.map((t) => t.id));
        await this.#repository.completeJob(trx, ctx.completion);
      });
      ctx.completedInline();
    });
    queue.register(recomputeJob, async () => {
      await this.recomputeMarked();
    });
    queue.register(backfillJob, async ({ after }, ctx) => {
      await this.backfill(after, ctx.completion);
      ctx.completedInline();
    });
  }

  /**
   * What a batch of `insights.service-level` jobs asks for: their hand-offs, reopenings and
   * resolutions recorded (once per job id), and their conversations' rows recomputed.
   */
  async #refreshAfter(trx: Db, jobs: readonly { id: number; payload: JobPayload<typeof serviceLevelJob> }[]): Promise<void> {
    const recorded: RecordedEvent[] = [];
    for (const { id, payload } of jobs) {
      const kind = payload.event ? RECORDED[payload.event] : undefined;
      if (kind && payload.at) recorded.push({ jobId: id, conversationId: payload.conversationId, kind, at: new Date(payload.at) });
    }
    await this.#refreshIn(trx, [...new Set(jobs.map((j) => j.payload.conversationId))], recorded);
  }

  /**
   * One pass over the marked conversations (`recomputeJob`): in id order, BATCH_LIMIT at a time,
   * each batch one transaction. A mark that only counts plain messages, of a conversation whose row
   * already holds what they could change, has its counts added to the row and its day; the others
   * are recomputed from their facts. Either way the mark read is cleared (a mark moved on meanwhile
   * stays, for the next pass). Resolves with how many conversations it took, and how many of them
   * by their counts alone.
   */
  async recomputeMarked(): Promise<{ conversations: number; counted: number }> {
    let after: string | null = null;
    let conversations = 0;
    let counted = 0;
    for (;;) {
      const batch: { ids: string[]; counted: number } = await this.deps.db.transaction().execute(async (trx) => {
        const ids = await this.#repository.marks(trx, after, BATCH_LIMIT);
        return { ids, counted: await this.#refreshIn(trx, ids, [], { counts: true }) };
      });
      conversations += batch.ids.length;
      counted += batch.counted;
      const last = batch.ids.at(-1);
      if (batch.ids.length < BATCH_LIMIT || !last) return { conversations, counted };
      after = last;
    }
  }

  /**
   * Recomputes these conversations' rows and, where they changed, their days' rollups, in one
   * transaction; `recorded` first stores hand-offs, reopenings or resolutions of them (once per job id).
   */
  async refresh(conversationIds: readonly string[], options: { recorded?: readonly RecordedEvent[] } = {}): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => this.#refreshIn(trx, conversationIds, options.recorded));
  }

  /**
   * The rows of these conversations made current, and their days' rollups moved by what changed;
   * their marks cleared. With `counts`, a mark that only counts plain messages is added to its row
   * (InsightsRepository.addCounts) instead of a recompute. Resolves with how many were counted.
   */
  async #refreshIn(trx: Db, conversationIds: readonly string[], recorded: readonly RecordedEvent[] = [], options: { counts?: boolean } = {}): Promise<number> {
    if (conversationIds.length === 0) return 0;
    await this.#repository.lockConversations(trx, conversationIds);
    if (recorded.length > 0) await this.#repository.recordEvents(trx, recorded);
    const counted = options.counts ? await this.#repository.addCounts(trx, conversationIds) : [];
    const countedIds = new Set(counted.map((c) => c.conversationId));
    const rest = countedIds.size === 0 ? conversationIds : conversationIds.filter((id) => !countedIds.has(id));
    // The marks are read before the facts: a mark that moves on after this may hold messages the facts miss.
    const marks = await this.#repository.markVersions(trx, rest);
    const levels = (await this.#repository.facts(trx, rest)).map(computeServiceLevel);
    // The rollups move by what the changed rows moved: new figures minus old, never a re-sum of a day.
    const days = dayChanges(await this.#repository.upsertLevels(trx, levels), counted.map(countedShare));
    if (days.length > 0) {
      await this.#repository.lockDays(trx, days);
      await this.#repository.addToDays(trx, days);
    }
    await this.#repository.settleMarks(trx, marks);
    return counted.length;
  }

  /**
   * One batch of the backfill: the conversations after `after` (by id) that have no row get one,
   * and the next batch is queued in the same transaction (which also completes this job, so the
   * next may take the singleton key). Resolves with the cursor for the next batch, or null at the end.
   */
  async backfill(after: string | null, completion?: JobCompletion): Promise<string | null> {
    return this.deps.db.transaction().execute(async (trx) => {
      const batch = await this.#repository.backfillBatch(trx, after, BACKFILL_BATCH);
      await this.#refreshIn(trx, batch.missing);
      if (completion) await this.#repository.completeJob(trx, completion);
      const next = batch.size === BACKFILL_BATCH ? batch.last : null;
      if (next !== null) await this.deps.queue.enqueue(backfillJob, { after: next }, { db: trx, singletonKey: BACKFILL_KEY });
      else this.#logger.info({ after }, 'service levels backfilled');
      return next;
    });
  }

  /** Queues the backfill from the start, unless it is already queued or running (migration 0027 queues it once). */
  async startBackfill(): Promise<boolean> {
    return (await this.deps.queue.enqueue(backfillJob, { after: null }, { singletonKey: BACKFILL_KEY })) !== null;
  }

  // Reads, for the insights pages (issue 16 §2). Every one is scoped: a client user's scope reads
  // only its own client, whatever client the query names.

  /** One conversation's service levels, or undefined (also for a conversation of another client). */
  async findServiceLevel(scope: Scope, conversationId: string): Promise<ServiceLevelRow | undefined> {
    return this.#repository.findLevel(conversationId, scope.clientId);
  }

  /** The daily rollups of a period: at most one row per client and day. */
  async dailyRollups(scope: Scope, period: InsightsPeriod): Promise<DailyRollup[]> {
    const { from, to } = checkedPeriod(period);
    return this.#repository.daily(from, to, clientOf(scope, period));
  }

  /** Medians of the period's conversations (by creation day, UTC). */
  async medians(scope: Scope, period: InsightsPeriod): Promise<ServiceLevelMedians> {
    const { from, to } = checkedPeriod(period);
    const until = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
    return this.#repository.medians({ from: new Date(`${from}T00:00:00Z`), until, clientId: clientOf(scope, period) });
  }

  /**
   * The insights page (issue 16 §2): the period's figures against the period before, per agent
   * and per client, the distributions and six months of trends. A client user's scope reads only
   * its own client, whatever the query names.
   */
  async overview(scope: Scope, input: InsightsQuery): Promise<InsightsView> {
    const query = insightsQuery.parse(input);
    const now = this.#clock.now();
    const { from, until } = periodOf(query, now);
    const clientId = scope.clientId ?? query.clientId ?? null;
    const current: PeriodFilter = { from, until, clientId };
    const previous: PeriodFilter = { from: new Date(from.getTime() - (until.getTime() - from.getTime())), until: from, clientId };
    const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (TREND_MONTHS - 1), 1));
    const [{ summary, agents, clients, channels: byChannel }, before, byStatus, months] = await Promise.all([
      this.#repository.periodBreakdown(current),
      this.#repository.periodSummary(previous, PREVIOUS_PERIOD_MEDIANS),
      this.#repository.clientsByStatus(clientId),
      this.#repository.months(dayOf(firstMonth), dayOf(now), clientId),
    ]);
    const monthly = new Map(months.map((m) => [m.month, m]));
    return {
      period: { kind: query.period, from: from.toISOString(), to: until.toISOString() },
      previous: { from: previous.from.toISOString(), to: previous.until.toISOString() },
      clientId,
      metrics: {
        conversations: { value: summary.conversations, previous: before.conversations },
        medianFirstResponseSeconds: { value: summary.firstResponseSeconds, previous: before.firstResponseSeconds },
        automatedResolutionRate: { value: rate(summary.automated, summary.conversations), previous: rate(before.automated, before.conversations) },
        satisfaction: { value: mean(summary.ratingSum, summary.ratings), previous: mean(before.ratingSum, before.ratings) },
      },
      totals: totalsOf(summary),
      medians: {
        firstResponseSeconds: summary.firstResponseSeconds,
        firstResponseBusinessSeconds: summary.firstResponseBusinessSeconds,
        resolutionSeconds: summary.resolutionSeconds,
        resolutionBusinessSeconds: summary.resolutionBusinessSeconds,
      },
      ratingsCollected: true,
      agents: agents.map((agent) => ({
        id: agent.kind === 'ai' ? `ai:${agent.id}` : agent.id,
        kind: agent.kind,
        name: agent.name,
        clientName: agent.clientName,
        conversations: agent.conversations,
        resolved: agent.resolved,
        resolutionRate: rate(agent.resolved, agent.conversations),
        medianFirstResponseSeconds: agent.firstResponseSeconds,
        satisfaction: mean(agent.ratingSum, agent.ratings),
        ratings: agent.ratings,
      })),
      clients: clients.map((client) => ({
        clientId: client.clientId,
        name: client.name,
        status: client.status,
        totals: totalsOf(client),
        medianFirstResponseSeconds: client.firstResponseSeconds,
        medianResolutionSeconds: client.resolutionSeconds,
        automatedResolutionRate: rate(client.automated, client.conversations),
        handoffRate: rate(client.handedOff, client.conversations),
        satisfaction: mean(client.ratingSum, client.ratings),
      })),
      distribution: {
        clientsByStatus: byStatus.map(({ status, count }) => ({ key: status, label: STATUS_LABELS[status] ?? status, count })),
        conversationsByChannel: byChannel.map(({ kind, count }) => ({ key: kind, label: CHANNEL_KIND_LABEL[kind], count })),
      },
      trends: Array.from({ length: TREND_MONTHS }, (_, i) => {
        const month = new Date(Date.UTC(firstMonth.getUTCFullYear(), firstMonth.getUTCMonth() + i, 1)).toISOString().slice(0, 7);
        const row = monthly.get(month);
        return {
          month,
          conversations: row?.conversations ?? 0,
          messages: row?.messages ?? 0,
          automatedResolutionRate: row ? rate(row.automated, row.conversations) : null,
          satisfaction: row ? mean(row.ratingSum, row.ratings) : null,
        };
      }),
      generatedAt: now.toISOString(),
    };
  }

  /** The figures of `overview` as CSV (Export Data): one section per table, each with its own header row. */
  async exportCsv(scope: Scope, input: InsightsQuery): Promise<{ filename: string; csv: string }> {
    const view = await this.overview(scope, input);
    const pct = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);
    const secs = (value: number | null) => (value === null ? null : Math.round(value));
    const rows: CsvValue[][] = [
      ['Insights', `${view.period.from} to ${view.period.to}`, 'previous period', `${view.previous.from} to ${view.previous.to}`],
      [],
      ['Metric', 'Value', 'Previous period'],
      ['Total conversations', view.metrics.conversations.value, view.metrics.conversations.previous],
      ['Median first response (s)', secs(view.metrics.medianFirstResponseSeconds.value), secs(view.metrics.medianFirstResponseSeconds.previous)],
      ['Automated resolution (%)', pct(view.metrics.automatedResolutionRate.value), pct(view.metrics.automatedResolutionRate.previous)],
      ['Customer satisfaction (of 5)', view.metrics.satisfaction.value, view.metrics.satisfaction.previous],
      ['Ratings', view.totals.ratings, null],
      ['Rated 4 or 5', view.totals.satisfied, null],
      ['Messages', view.totals.messages, null],
      ['Answered', view.totals.answered, null],
      ['Resolved', view.totals.resolved, null],
      ['Resolved by the AI alone', view.totals.automated, null],
      ['Handed to a person', view.totals.handedOff, null],
      ['Reopened', view.totals.reopened, null],
      ['Median first response in business hours (s)', secs(view.medians.firstResponseBusinessSeconds), null],
      ['Median resolution (s)', secs(view.medians.resolutionSeconds), null],
      ['Median resolution in business hours (s)', secs(view.medians.resolutionBusinessSeconds), null],
      [],
      ['Agent', 'Kind', 'Client', 'Conversations', 'Resolved', 'Resolution rate (%)', 'Median first response (s)', 'Satisfaction (of 5)', 'Ratings'],
      ...view.agents.map((a) => [
        a.name,
        a.kind === 'ai' ? 'AI' : 'Person',
        a.clientName,
        a.conversations,
        a.resolved,
        pct(a.resolutionRate),
        secs(a.medianFirstResponseSeconds),
        a.satisfaction,
        a.ratings,
      ]),
      [],
      [
        'Client',
        'Status',
        'Conversations',
        'Messages',
        'Resolved',
        'Automated resolution (%)',
        'Hand-off rate (%)',
        'Median first response (s)',
        'Median resolution (s)',
        'Satisfaction (of 5)',
        'Ratings',
      ],
      ...view.clients.map((c) => [
        c.name,
        c.status,
        c.totals.conversations,
        c.totals.messages,
        c.totals.resolved,
        pct(c.automatedResolutionRate),
        pct(c.handoffRate),
        secs(c.medianFirstResponseSeconds),
        secs(c.medianResolutionSeconds),
        c.satisfaction,
        c.totals.ratings,
      ]),
      [],
      ['Month', 'Conversations', 'Messages', 'Automated resolution (%)', 'Satisfaction (of 5)'],
      ...view.trends.map((t) => [t.month, t.conversations, t.messages, pct(t.automatedResolutionRate), t.satisfaction]),
    ];
    return { filename: `insights-${view.period.from.slice(0, 10)}-${view.period.to.slice(0, 10)}.csv`, csv: toCsv(rows) };
  }

  /**
   * The AI Summary page (issue 16 §3): the period's overview, the topics customers raised (by the
   * knowledge-base entry the agent matched; the questions it matched to none grouped by their
   * words, docs/insights.md "Topics of unanswered questions") and activity by time of day and channel.
   */
  async summary(scope: Scope, input: SummaryQuery): Promise<SummaryView> {
    const query = summaryQuery.parse(input);
    const now = this.#clock.now();
    const { from, until } = periodOf(query, now);
    const clientId = scope.clientId ?? query.clientId ?? null;
    const period: PeriodFilter = { from, until, clientId };
    const previousFrom = new Date(from.getTime() - (until.getTime() - from.getTime()));
    const [totals, meanFirstResponse, topics, unmatched, activity] = await Promise.all([
      this.#repository.periodSummary(period, []),
      this.#repository.meanFirstResponse(period),
      this.#repository.topics(period, previousFrom, TOPIC_MATCH_FLOOR),
      this.#repository.unmatchedQuestions(period, previousFrom, TOPIC_MATCH_FLOOR, UNMATCHED_QUESTION_CAP),
      this.#repository.activity(period),
    ]);
    const confidence = (sum: number, count: number) => (count > 0 ? sum / count : null);
    const replies = topics.reduce((acc, t) => ({ sum: acc.sum + t.confidenceSum, count: acc.count + t.confidenceCount }), { sum: 0, count: 0 });
    const hours = Array.from({ length: 24 }, (_, hour) => ({ conversations: 0, confidenceSum: 0, confidenceCount: 0, hour }));
    const hourIn = new Intl.DateTimeFormat('en-GB', { timeZone: query.timeZone, hour: '2-digit', hourCycle: 'h23' });
    for (const row of activity.hours) {
      const bucket = hours[Number(hourIn.format(row.hour)) % 24]!;
      bucket.conversations += row.conversations;
      bucket.confidenceSum += row.confidenceSum;
      bucket.confidenceCount += row.confidenceCount;
    }
    return {
      period: { kind: query.period, from: from.toISOString(), to: until.toISOString() },
      clientId,
      timeZone: query.timeZone,
      overview: {
        totalConversations: totals.conversations,
        averageResponseTime: meanFirstResponse,
        aiConfidence: confidence(replies.sum, replies.count),
        escalationRate: rate(totals.handedOff, totals.conversations),
        customerSatisfaction: mean(totals.ratingSum, totals.ratings),
      },
      ratingsCollected: true,
      insights: this.#topics(topics, unmatched, clientId),
      performance: {
        byTimeOfDay: hours.map((h) => ({
          key: String(h.hour),
          label: `${String(h.hour).padStart(2, '0')}:00`,
          conversations: h.conversations,
          confidence: confidence(h.confidenceSum, h.confidenceCount),
        })),
        byChannel: activity.channels.map((c) => ({
          key: c.kind,
          label: CHANNEL_KIND_LABEL[c.kind],
          conversations: c.conversations,
          confidence: confidence(c.confidenceSum, c.confidenceCount),
        })),
      },
      generatedAt: now.toISOString(),
    };
  }

  /**
   * The summary's topics, most questions first: each matched entry's, then the groups of alike
   * questions no entry matched (the newest UNMATCHED_QUESTION_CAP of each period, grouped per
   * client), then the rest of those questions — the unmatched row less what the groups took.
   */
  #topics(rows: readonly TopicRow[], questions: readonly UnmatchedQuestion[], clientId: string | null): SummaryTopic[] {
    const entries = rows.filter((row) => row.key !== OTHER_UNMATCHED_TOPIC && row.count > 0).map((row) => topicOf(row, { clientId }));
    const unmatched = rows.find((row) => row.key === OTHER_UNMATCHED_TOPIC);
    if (!unmatched) return entries;
    if (!this.#unmatchedTopics) {
      const newest = [...new Set(questions.filter((q) => q.current).map((q) => q.text.trim()))];
      const all = topicOf(unmatched, { title: UNMATCHED_TITLE, examples: newest.slice(0, UNMATCHED_EXAMPLES), missingFromKnowledgeBase: true, clientId });
      return [...entries, ...(unmatched.count > 0 ? [all] : [])].sort((a, b) => b.count - a.count);
    }
    const found = this.#unmatchedTopics.find(questions);
    const groups = found.topics.map((group) =>
      topicOf(
        { key: `${OTHER_UNMATCHED_TOPIC}:${group.replyId}`, title: group.texts[0]!, ...group },
        {
          examples: group.texts.slice(1, 1 + GROUP_EXAMPLES),
          missingFromKnowledgeBase: group.count >= MISSING_MIN_QUESTIONS,
          clientId: group.clientId,
          suggestedQuestion: group.texts[0]!,
          variants: group.texts.slice(1),
        },
      ),
    );
    const taken = (field: 'count' | 'previous' | 'confidenceSum' | 'confidenceCount' | 'answered' | 'handedOff') => found.topics.reduce((sum, g) => sum + g[field], 0);
    const rest: TopicRow = {
      key: OTHER_UNMATCHED_TOPIC,
      title: null,
      count: unmatched.count - taken('count'),
      previous: Math.max(0, unmatched.previous - taken('previous')),
      confidenceSum: Math.max(0, unmatched.confidenceSum - taken('confidenceSum')),
      confidenceCount: unmatched.confidenceCount - taken('confidenceCount'),
      answered: unmatched.answered - taken('answered'),
      handedOff: unmatched.handedOff - taken('handedOff'),
    };
    const others =
      rest.count > 0
        ? [topicOf(rest, { title: groups.length > 0 ? OTHER_UNMATCHED_TITLE : UNMATCHED_TITLE, examples: found.leftover.slice(0, UNMATCHED_EXAMPLES), clientId })]
        : [];
    // Sorted by count, stable: among equals entries first, then groups, the rest last.
    return [...entries, ...groups, ...others].sort((a, b) => b.count - a.count);
  }
}

/** The client a read covers: the scope's own for a client user; staff may name one, or read all. */
function clientOf(scope: Scope, period: InsightsPeriod): string | null {
  return scope.clientId ?? period.clientId ?? null;
}

function checkedPeriod(period: InsightsPeriod): { from: string; to: string } {
  const valid = (day: string) => DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
  if (!valid(period.from) || !valid(period.to)) {
    throw new AppError('VALIDATION_ERROR', 'Enter the period as two dates (YYYY-MM-DD)', { fields: { period: 'Enter the period as two dates (YYYY-MM-DD)' } });
  }
  const days = (Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / 86_400_000;
  if (days < 0 || days >= MAX_PERIOD_DAYS) {
    throw new AppError('VALIDATION_ERROR', `The period must end after it starts and cover at most ${MAX_PERIOD_DAYS} days`, {
      fields: { period: `The period must end after it starts and cover at most ${MAX_PERIOD_DAYS} days` },
    });
  }
  return { from: period.from, to: period.to };
}

const HOUR_MS = 3_600_000;
const PERIOD_MS: Record<'24h' | '7d' | '30d', number> = { '24h': 24 * HOUR_MS, '7d': 7 * 24 * HOUR_MS, '30d': 30 * 24 * HOUR_MS };

/** The period's [from, until): the last 24 hours, 7 or 30 days up to now, or the custom range. */
function periodOf(query: { period: InsightsPeriodKind; from?: string | undefined; to?: string | undefined }, now: Date): { from: Date; until: Date } {
  if (query.period === 'custom') return { from: new Date(query.from!), until: new Date(query.to!) };
  return { from: new Date(now.getTime() - PERIOD_MS[query.period]), until: now };
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
/** A mean rating out of 5, to two decimals; null without ratings. */
const mean = (sum: number, count: number): number | null => (count > 0 ? Math.round((sum / count) * 100) / 100 : null);

function totalsOf(summary: PeriodSummary) {
  const { conversations, messages, answered, resolved, automated, handedOff, reopened, ratings, satisfied } = summary;
  return { conversations, messages, answered, resolved, automated, handedOff, reopened, ratings, satisfied };
}

const STATUS_LABELS: Record<string, string> = { active: 'Active', inactive: 'Inactive' };

/**
 * A question belongs to the entry the agent matched first only when its confidence reached this;
 * below, the best candidate is too weak to name the topic and the question counts as unmatched.
 */
export const TOPIC_MATCH_FLOOR = 0.5;
/** A topic is "trending" when it has at least this many questions and grew by half against the period before. */
const TRENDING_MIN = 3;

const UNMATCHED_TITLE = 'Questions the knowledge base does not answer';
const OTHER_UNMATCHED_TITLE = 'Other questions the knowledge base does not answer';
/** Customers' words shown for the rest of the unmatched questions (newest first), and for a group beside its title. */
const UNMATCHED_EXAMPLES = 5;
const GROUP_EXAMPLES = 3;

/** A topic from its figures; an entry's unless `extra` says otherwise. */
function topicOf(row: TopicRow, extra: Partial<Pick<SummaryTopic, 'title' | 'examples' | 'missingFromKnowledgeBase' | 'clientId' | 'suggestedQuestion' | 'variants'>> = {}): SummaryTopic {
  const trend = row.previous > 0 ? (row.count - row.previous) / row.previous : null;
  const notAnswered = row.count - row.answered;
  const type: SummaryTopic['type'] =
    row.count > 0 && notAnswered / row.count > 0.5 ? 'escalation' : row.count >= TRENDING_MIN && (trend === null ? row.previous === 0 : trend >= 0.5) ? 'trending' : 'common';
  const questions = `${row.count} question${row.count === 1 ? '' : 's'}`;
  const answeredPart = `the AI answered ${row.answered}`;
  const handedPart = row.handedOff > 0 ? `, handed ${row.handedOff} to a person` : '';
  const trendPart = trend === null ? (row.previous === 0 ? ', none the period before' : '') : `, ${trend >= 0 ? '+' : ''}${Math.round(trend * 100)} % on the period before`;
  return {
    id: row.key,
    title: row.title ?? 'Untitled entry',
    type,
    count: row.count,
    trend,
    confidence: row.confidenceCount > 0 ? row.confidenceSum / row.confidenceCount : null,
    answered: row.answered,
    handedOff: row.handedOff,
    summary: `${questions}: ${answeredPart}${handedPart}${trendPart}.`,
    missingFromKnowledgeBase: false,
    examples: [],
    clientId: null,
    suggestedQuestion: null,
    variants: [],
    ...extra,
  };
}
