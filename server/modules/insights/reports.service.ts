/**
 * The insights pages' report files and the AI Summary's share links (issue 16 §2–3;
 * docs/insights.md "Reports" and "Share links"). Every figure comes from `InsightsService`'s
 * scoped reads (`overview`, `summary`): a client user's scope reads only its own client, so a
 * report or a link never holds another client's data.
 *
 * A share link is a random token (32 bytes, base64url) shown once in its URL; only its sha256 is
 * stored. A relative period is frozen when the link is made (docs/DECISIONS.md): the link keeps
 * the instants it covered, while its figures are computed when it is opened.
 */
import type { Scope } from '../../http/scope';
import type { SessionUser } from '../../http/access';
import type { Db } from '../../db/database';
import { type InsightsPeriodKind, TREND_MONTHS, type TrendMonth } from '../../../common/api/insights';
import { type InsightsReportQuery, insightsReportQuery } from '../../../common/api/reports';
import { type SummaryQuery, summaryQuery } from '../../../common/api/summary';
import {
  type CreatedSummaryShare,
  type CreateSummaryShareInput,
  createSummaryShareInput,
  SHARE_GONE_MESSAGE,
  type SharedSummaryQuery,
  type SharedSummaryView,
  sharedSummaryPath,
  sharedSummaryQuery,
  type SummaryShare,
} from '../../../common/api/summary-shares';
import { type Clock, systemClock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { type CsvValue, toCsv } from '../../lib/csv';
import { AppError } from '../../lib/errors';
import { InsightsRepository } from './insights.repository';
import type { InsightsService } from './insights.service';
import { describeReportPeriod, drawInsightsReport, drawSummaryReport } from './report-pdf';
import { ReportsRepository, type ShareRow } from './reports.repository';

export interface ReportsServiceDeps {
  db: Db;
  insights: InsightsService;
  /** The app's public address: share links are `<publicUrl>/shared/summary/<token>`. */
  publicUrl: string;
  clock?: Clock;
}

/** A file to download: its name and its bytes or text. */
export interface ReportFile<T extends Buffer | string> {
  filename: string;
  body: T;
}

/** Most share links a list answers (newest first). */
export const SHARE_LIST_LIMIT = 100;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const PERIOD_MS: Record<Exclude<InsightsPeriodKind, 'custom'>, number> = { '24h': 24 * HOUR_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

export class ReportsService {
  readonly #repository: ReportsRepository;
  readonly #insightsRepository: InsightsRepository;
  readonly #clock: Clock;
  readonly #publicUrl: string;

  constructor(private readonly deps: ReportsServiceDeps) {
    this.#repository = new ReportsRepository(deps.db);
    this.#insightsRepository = new InsightsRepository(deps.db);
    this.#clock = deps.clock ?? systemClock;
    this.#publicUrl = deps.publicUrl.replace(/\/+$/u, '');
  }

  /** The Analytics & Insights period report as PDF (the page's query, dates printed in `timeZone`). */
  async insightsPdf(scope: Scope, input: InsightsReportQuery): Promise<ReportFile<Buffer>> {
    const { timeZone, ...query } = insightsReportQuery.parse(input);
    const view = await this.deps.insights.overview(scope, query);
    const clientName = view.clientId === null ? null : (view.clients.find((c) => c.clientId === view.clientId)?.name ?? (await this.#clientName(view.clientId)));
    return {
      filename: fileName('insights-report', clientName, view.period, timeZone, 'pdf'),
      body: await drawInsightsReport(view, { clientName, timeZone }),
    };
  }

  /** The AI Summary as PDF: overview, topics, performance by time of day and channel. */
  async summaryPdf(scope: Scope, input: SummaryQuery): Promise<ReportFile<Buffer>> {
    const view = await this.deps.insights.summary(scope, summaryQuery.parse(input));
    const clientName = view.clientId === null ? null : await this.#clientName(view.clientId);
    return { filename: fileName('ai-summary', clientName, view.period, view.timeZone, 'pdf'), body: await drawSummaryReport(view, { clientName }) };
  }

  /** The AI Summary as CSV: one section per table (overview, topics, hours, channels), each with its header row. */
  async summaryCsv(scope: Scope, input: SummaryQuery): Promise<ReportFile<string>> {
    const view = await this.deps.insights.summary(scope, summaryQuery.parse(input));
    const clientName = view.clientId === null ? null : await this.#clientName(view.clientId);
    const pct = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);
    const secs = (value: number | null) => (value === null ? null : Math.round(value));
    const rows: CsvValue[][] = [
      ['AI Summary', describeReportPeriod(view.period, view.timeZone), `${view.period.from} to ${view.period.to}`],
      ['Client', clientName ?? 'All clients'],
      ['Time zone', view.timeZone],
      ['Generated at', view.generatedAt],
      [],
      ['Metric', 'Value'],
      ['Total conversations', view.overview.totalConversations],
      ['Average response time (s)', secs(view.overview.averageResponseTime)],
      ['AI confidence (%)', pct(view.overview.aiConfidence)],
      ['Escalation rate (%)', pct(view.overview.escalationRate)],
      ['Customer satisfaction (of 5)', view.overview.customerSatisfaction],
      [],
      [
        'Topic',
        'Type',
        'Questions',
        'Change on the period before (%)',
        'AI confidence (%)',
        'Answered by the AI',
        'Handed to a person',
        'Missing from the knowledge base',
        'Summary',
        'Customers’ words',
      ],
      ...view.insights.map((t) => [
        t.title,
        t.type,
        t.count,
        pct(t.trend),
        pct(t.confidence),
        t.answered,
        t.handedOff,
        t.missingFromKnowledgeBase ? 'yes' : 'no',
        t.summary,
        t.examples.join(' | '),
      ]),
      [],
      [`Hour (${view.timeZone})`, 'Conversations', 'AI confidence (%)'],
      ...view.performance.byTimeOfDay.map((h) => [h.label, h.conversations, pct(h.confidence)]),
      [],
      ['Channel', 'Conversations', 'AI confidence (%)'],
      ...view.performance.byChannel.map((c) => [c.label, c.conversations, pct(c.confidence)]),
    ];
    return { filename: fileName('ai-summary', clientName, view.period, view.timeZone, 'csv'), body: toCsv(rows) };
  }

  /**
   * A new share link for the summary of a period (frozen now) and client. A client user shares
   * only their own client (naming another is refused); staff one client or every client.
   */
  async createShare(user: SessionUser, input: CreateSummaryShareInput): Promise<CreatedSummaryShare> {
    const request = createSummaryShareInput.parse(input);
    let clientId: string | null;
    if (user.role === 'client') {
      if (!user.clientId) throw new AppError('FORBIDDEN', 'Your account is not linked to a business yet, so there is no summary to share.');
      if (request.clientId !== undefined && request.clientId !== user.clientId) throw new AppError('FORBIDDEN', 'You can only share your own business’s summary.');
      clientId = user.clientId;
    } else {
      clientId = request.clientId ?? null;
      if (clientId !== null && (await this.#repository.clientName(clientId)) === undefined) {
        throw new AppError('VALIDATION_ERROR', 'Choose a client', { fields: { clientId: 'Choose a client' } });
      }
    }
    const now = this.#clock.now();
    const { from, until } = frozenPeriod(request, now);
    const token = randomToken();
    const row = await this.#repository.insertShare({
      tokenHash: sha256Hex(token),
      createdBy: user.id,
      clientId,
      periodKind: request.period,
      periodFrom: from,
      periodTo: until,
      createdAt: now,
      expiresAt: new Date(now.getTime() + request.expiresInDays * DAY_MS),
    });
    return { share: shareView(row, now), token, url: `${this.#publicUrl}${sharedSummaryPath(token)}` };
  }

  /** The caller's share links, newest first; an administrator sees everyone's. */
  async listShares(user: SessionUser): Promise<SummaryShare[]> {
    const now = this.#clock.now();
    const rows = await this.#repository.listShares(user.role === 'admin' ? null : user.id, SHARE_LIST_LIMIT);
    return rows.map((row) => shareView(row, now));
  }

  /** Revokes a link: its creator's or, for an administrator, anyone's; another's is a 404. Revoking twice changes nothing. */
  async revokeShare(user: SessionUser, id: string): Promise<SummaryShare> {
    const existing = await this.#repository.findShare(id);
    if (!existing || (user.role !== 'admin' && existing.createdBy !== user.id)) throw new AppError('NOT_FOUND', 'Share link not found');
    const now = this.#clock.now();
    const revoked = await this.#repository.revokeShare(id, now);
    if (!revoked) throw new AppError('NOT_FOUND', 'Share link not found');
    return shareView(revoked, now);
  }

  /**
   * What a link shows, without sign-in: the summary of its frozen period and client, read with the
   * link's scope, and the six months up to the period's end. Unknown, expired and revoked links
   * (and those whose creator may no longer read them) get the same 404.
   */
  async sharedSummary(token: string, input: SharedSummaryQuery): Promise<SharedSummaryView> {
    const { timeZone } = sharedSummaryQuery.parse(input);
    const now = this.#clock.now();
    const share = await this.#repository.findOpenShare(sha256Hex(token), now);
    if (!share) throw new AppError('NOT_FOUND', SHARE_GONE_MESSAGE);
    const scope: Scope = { clientId: share.clientId };
    const [summary, trends] = await Promise.all([
      this.deps.insights.summary(scope, {
        period: 'custom',
        from: share.periodFrom.toISOString(),
        to: share.periodTo.toISOString(),
        clientId: share.clientId ?? undefined,
        timeZone,
      }),
      this.#trendsUntil(share.periodTo, share.clientId),
    ]);
    return {
      // The period as it was chosen ("Last 7 days"), with the instants it was frozen to.
      summary: { ...summary, period: { ...summary.period, kind: share.periodKind } },
      trends,
      share: { clientName: share.clientName, createdAt: share.createdAt.toISOString(), expiresAt: share.expiresAt.toISOString() },
    };
  }

  async #clientName(clientId: string): Promise<string | null> {
    return (await this.#repository.clientName(clientId)) ?? null;
  }

  /** The TREND_MONTHS months (UTC) up to the one `until` falls in (`until` excluded), as the insights page's trends. */
  async #trendsUntil(until: Date, clientId: string | null): Promise<TrendMonth[]> {
    const last = new Date(until.getTime() - 1);
    const first = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - (TREND_MONTHS - 1), 1));
    const rows = new Map((await this.#insightsRepository.months(dayOf(first), dayOf(last), clientId)).map((row) => [row.month, row]));
    return Array.from({ length: TREND_MONTHS }, (_, i) => {
      const month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)).toISOString().slice(0, 7);
      const row = rows.get(month);
      return {
        month,
        conversations: row?.conversations ?? 0,
        messages: row?.messages ?? 0,
        automatedResolutionRate: row && row.conversations > 0 ? row.automated / row.conversations : null,
        satisfaction: row && row.ratings > 0 ? Math.round((row.ratingSum / row.ratings) * 100) / 100 : null,
      };
    });
  }
}

/** The instants a share covers: a relative period ends now (frozen), a custom one as chosen. */
function frozenPeriod(query: { period: InsightsPeriodKind; from?: string | undefined; to?: string | undefined }, now: Date): { from: Date; until: Date } {
  if (query.period === 'custom') return { from: new Date(query.from!), until: new Date(query.to!) };
  return { from: new Date(now.getTime() - PERIOD_MS[query.period]), until: now };
}

function shareView(row: ShareRow, now: Date): SummaryShare {
  return {
    id: row.id,
    period: { kind: row.periodKind, from: row.periodFrom.toISOString(), to: row.periodTo.toISOString() },
    clientId: row.clientId,
    clientName: row.clientName,
    createdBy: { id: row.createdBy, name: row.creatorName },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active',
  };
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** YYYY-MM-DD of an instant in a time zone. */
function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** "acme-bikes" from a client's name (ASCII letters and digits only); '' when nothing is left. */
function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, 40)
    .replace(/-+$/u, '');
}

/** "insights-report-acme-bikes-2026-05-03-2026-05-09.pdf": the period's first and last days in `timeZone`. */
function fileName(kind: string, clientName: string | null, period: { from: string; to: string }, timeZone: string, extension: string): string {
  const first = dayIn(new Date(period.from), timeZone);
  const last = dayIn(new Date(Date.parse(period.to) - 1), timeZone);
  const client = clientName === null ? '' : slug(clientName);
  return `${[kind, client, first, last].filter((part) => part !== '').join('-')}.${extension}`;
}
