/**
 * Production readiness (issue 16 §4; docs/readiness.md): runs the 24 checks of readiness-checks.ts
 * against this installation — when the page loads (and Re-check) and once a day
 * (readiness.job.ts) — stores each run's score and each item's result, and tells every
 * administrator when a run is worse than the one before: the score dropped (an item stopped being
 * complete) or an item became critical. In the app, and by e-mail to those who take e-mail, like
 * Parley's other admin alerts.
 *
 * Runs are stored one at a time (an advisory lock): each compares itself with the run before, so
 * two admins opening the page together notify once. The same worsening told in the last 24 hours
 * is not told again (an item that flaps between two states).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  READINESS_CATEGORIES,
  READY_THRESHOLD,
  type ReadinessItem,
  type ReadinessStatus,
  type ReadinessView,
  readinessScore,
  type SendTestEmailInput,
  type SentTestEmail,
} from '../../../common/api/readiness';
import { PAGE_ROUTES } from '../../../common/routes';
import type { Db } from '../../db/database';
import { findMigrationState } from '../../db/migrate';
import type { ReadinessChange } from '../../db/schema';
import { type Clock, systemClock } from '../../lib/clock';
import { hmacSha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { HttpRequestError, httpRequest } from '../../lib/http-client';
import { readinessAlertEmail, testEmail } from '../email';
import { type CheckContext, EMAIL_LATE_MS, FIRST_RESPONSE_DAYS, type Outcome, READINESS_CHECKS, type ReadinessCheck, smtpServer } from './readiness-checks';
import { ReadinessRepository } from './readiness.repository';
import type { ReadinessSources } from './readiness-sources';

export interface ReadinessServiceDeps {
  db: Db;
  sources: ReadinessSources;
  logger: Logger;
  clock?: Clock;
  /** The installation's secret: the SMTP configuration's fingerprint is an HMAC under it. */
  hashKey: string;
  /** A GET of an absolute URL from this server (default: server/lib/http-client.ts, 5 s). */
  fetchPublic?: (url: string) => Promise<{ status: number; body: string; ms: number }>;
  /** The checks (default: the 24 of readiness-checks.ts). */
  checks?: readonly ReadinessCheck[];
}

/** How long one check may take before it counts as not measured. */
export const CHECK_TIMEOUT_MS = 15_000;
/** Runs older than this are deleted by the daily job. */
export const RUN_RETENTION_DAYS = 90;
/** The same worsening is told again only after this long. */
export const RENOTIFY_AFTER_MS = 24 * 3600_000;
const DAY_MS = 24 * 3600_000;
const PUBLIC_FETCH_TIMEOUT_MS = 5_000;

const RANK: Record<ReadinessStatus, number> = { complete: 0, 'needs-attention': 1, critical: 2 };
const STATUS_LABEL: Record<ReadinessStatus, string> = { complete: 'complete', 'needs-attention': 'needs attention', critical: 'critical' };

export const PRODUCTION_STATUS_PATH = PAGE_ROUTES.productionStatus.paths[0];

interface Result {
  check: ReadinessCheck;
  outcome: Outcome;
}

/** Loads a fact once per run, however many checks read it. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

async function defaultFetchPublic(url: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await httpRequest(new URL(url), {
      method: 'GET',
      headers: { 'user-agent': 'Parley readiness check', accept: 'text/plain' },
      signal: AbortSignal.timeout(PUBLIC_FETCH_TIMEOUT_MS + 1_000),
      timeoutMs: PUBLIC_FETCH_TIMEOUT_MS,
      maxBodyBytes: 64 * 1024,
    });
    return { status: response.status, body: response.text, ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (error instanceof HttpRequestError) {
      throw new Error(error.kind === 'timeout' ? `no answer within ${PUBLIC_FETCH_TIMEOUT_MS / 1000} s` : error.reason, { cause: error });
    }
    throw error;
  }
}

export class ReadinessService {
  readonly #repository: ReadinessRepository;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #checks: readonly ReadinessCheck[];
  #running: Promise<ReadinessView> | undefined;

  constructor(private readonly deps: ReadinessServiceDeps) {
    this.#repository = new ReadinessRepository(deps.db);
    this.#clock = deps.clock ?? systemClock;
    this.#logger = deps.logger.child({ component: 'readiness' });
    this.#checks = deps.checks ?? READINESS_CHECKS;
  }

  /**
   * Checks the installation now and stores the run (the page: on load and Re-check). Requests
   * arriving while a check runs share it.
   */
  async check(): Promise<ReadinessView> {
    this.#running ??= this.#run('page').finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** The daily job: a run of its own, and runs older than RUN_RETENTION_DAYS deleted. */
  async runDaily(): Promise<ReadinessView> {
    const view = await this.#run('daily');
    const pruned = await this.#repository.pruneRuns(new Date(this.#clock.now().getTime() - RUN_RETENTION_DAYS * DAY_MS));
    this.#logger.info({ score: view.score, ready: view.ready, pruned }, 'daily readiness check');
    return view;
  }

  /**
   * Queues a test e-mail over SMTP to `input.to` or the administrator, and records it under the
   * current SMTP configuration's fingerprint (the e-mail check reads its delivery from the outbox).
   */
  async sendTestEmail(user: { id: string; email: string; name: string }, input: SendTestEmailInput): Promise<SentTestEmail> {
    const { config } = this.deps.sources;
    const fingerprint = this.#smtpFingerprint();
    if (!config.smtpUrl || fingerprint === null) {
      throw new AppError('CONFLICT', 'SMTP is not configured (SMTP_URL is not set): a test e-mail would stay in the outbox. Set SMTP_URL and restart first.');
    }
    const to = input.to ?? user.email;
    const queuedAt = this.#clock.now();
    const email = testEmail(user.name || 'there', { server: smtpServer(config.smtpUrl), url: new URL(PRODUCTION_STATUS_PATH, config.publicUrl).toString() });
    const emailId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.deps.sources.sendEmail(to, email, trx);
      await this.#repository.insertTestEmail({ emailId: id, smtpFingerprint: fingerprint, sentTo: to, requestedBy: user.id, createdAt: queuedAt }, trx);
      return id;
    });
    this.#logger.info({ emailId, requestedBy: user.id }, 'test e-mail queued');
    return { emailId, to, queuedAt: queuedAt.toISOString() };
  }

  #smtpFingerprint(): string | null {
    const { smtpUrl, smtpFrom } = this.deps.sources.config;
    return smtpUrl ? hmacSha256Hex(this.deps.hashKey, `smtp\n${smtpUrl}\n${smtpFrom}`) : null;
  }

  #context(now: Date): CheckContext {
    const { sources, db } = this.deps;
    const dayAgo = new Date(now.getTime() - DAY_MS);
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const fingerprint = this.#smtpFingerprint();
    return {
      now,
      config: sources.config,
      engine: sources.engine,
      admins: once(() => sources.admins()),
      health: once(() => sources.health()),
      jobOutcomes: once(() => sources.jobOutcomes(dayAgo)),
      lastBackup: once(() => sources.lastBackup()),
      walArchiver: once(() => this.#repository.findWalArchiver()),
      migrations: once(() => findMigrationState(db)),
      smtpFingerprint: fingerprint,
      latestTestEmail: once(async () => {
        if (fingerprint === null) return null;
        const test = await this.#repository.findLatestTestEmail(fingerprint);
        if (!test) return null;
        return { sentTo: test.sentTo, createdAt: test.createdAt, email: await sources.findEmail(test.emailId) };
      }),
      emailDeliveries: once(() => sources.emailDeliveries(dayAgo, EMAIL_LATE_MS)),
      sections: once(() => sources.sections()),
      heroStats: once(() => sources.heroStats()),
      posts: once(() => sources.posts()),
      channels: once(() => sources.channels()),
      demoWidgetId: once(() => sources.demoWidgetId()),
      firstResponse: once(() => sources.firstResponse(day(new Date(now.getTime() - (FIRST_RESPONSE_DAYS - 1) * DAY_MS)), day(now))),
      replyOutcomes: once(() => sources.replyOutcomes(dayAgo)),
      site: (sitePath) => sources.site(sitePath),
      fetchPublic: (url) => (this.deps.fetchPublic ?? defaultFetchPublic)(url),
      webAppBuilt: () => fs.existsSync(path.join(sources.config.webDistDir, 'index.html')),
    };
  }

  async #measure(check: ReadinessCheck, ctx: CheckContext): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        check.run(ctx),
        new Promise<Outcome>((resolve) => {
          timer = setTimeout(
            () => resolve({ status: 'needs-attention', reason: `The check did not finish within ${CHECK_TIMEOUT_MS / 1000} s, so nothing was measured.` }),
            CHECK_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      this.#logger.warn({ err: error, check: check.key }, 'readiness check failed');
      return { status: 'needs-attention', reason: `The check could not measure this: ${error instanceof Error ? error.message : String(error)}.` };
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(trigger: 'page' | 'daily'): Promise<ReadinessView> {
    const now = this.#clock.now();
    const ctx = this.#context(now);
    const results: Result[] = await Promise.all(this.#checks.map(async (check) => ({ check, outcome: await this.#measure(check, ctx) })));
    const count = (status: ReadinessStatus) => results.filter((r) => r.outcome.status === status).length;
    const counts = { complete: count('complete'), attention: count('needs-attention'), critical: count('critical'), total: results.length };
    const score = readinessScore(counts.complete, counts.total);
    // The administrators are read before the transaction (PGlite has one connection): who to tell.
    const admins = await ctx.admins();

    const stored = await this.deps.db.transaction().execute(async (trx) => {
      await this.#repository.lockRuns(trx);
      const previous = await this.#repository.findLatestRun(trx);
      const before = new Map((await this.#repository.findItems(trx)).map((item) => [item.key, item.status]));
      const worsened: ReadinessChange[] = [];
      for (const { check, outcome } of results) {
        const from = before.get(check.key);
        if (from !== undefined && RANK[outcome.status] > RANK[from]) worsened.push({ key: check.key, from, to: outcome.status });
      }
      const runId = await this.#repository.insertRun({ checkedAt: now, trigger, score, complete: counts.complete, attention: counts.attention, critical: counts.critical, worsened }, trx);
      const since = await this.#repository.storeItems(
        results.map(({ check, outcome }) => ({ key: check.key, category: check.category, status: outcome.status, reason: outcome.reason.slice(0, 2000) })),
        now,
        trx,
      );
      // Every worsening is a drop: an item stopped being complete (the score fell) or became critical.
      if (previous && worsened.length > 0 && !(await this.#toldRecently(worsened, now, trx))) {
        await this.#notify({ admins, previousScore: previous.score, score, alarming: worsened, results, trx });
        await this.#repository.markNotified(runId, now, trx);
      }
      return { previous, since };
    });

    const items: ReadinessItem[] = results.map(({ check, outcome }) => ({
      key: check.key,
      category: check.category,
      item: check.item,
      status: outcome.status,
      description: check.description,
      reason: outcome.reason,
      action: outcome.status === 'complete' ? null : (outcome.action ?? null),
      statusSince: (stored.since.get(check.key) ?? now).toISOString(),
    }));
    items.sort((a, b) => READINESS_CATEGORIES.indexOf(a.category) - READINESS_CATEGORIES.indexOf(b.category));
    return {
      score,
      ready: score >= READY_THRESHOLD,
      threshold: READY_THRESHOLD,
      counts,
      items,
      checkedAt: now.toISOString(),
      previous: stored.previous ? { score: stored.previous.score, checkedAt: stored.previous.checkedAt.toISOString() } : null,
    };
  }

  /** Whether a run of the last RENOTIFY_AFTER_MS already told exactly these changes. */
  async #toldRecently(alarming: readonly ReadinessChange[], now: Date, trx: Db): Promise<boolean> {
    const key = (changes: readonly ReadinessChange[]) =>
      changes
        .map((c) => `${c.key}:${c.to}`)
        .sort()
        .join(',');
    const wanted = key(alarming);
    const recent = await this.#repository.findNotifiedRuns(new Date(now.getTime() - RENOTIFY_AFTER_MS), trx);
    return recent.some((run) => key(run.worsened) === wanted);
  }

  async #notify(input: {
    admins: Awaited<ReturnType<ReadinessSources['admins']>>;
    previousScore: number;
    score: number;
    alarming: readonly ReadinessChange[];
    results: readonly Result[];
    trx: Db;
  }): Promise<void> {
    const { admins, previousScore, score, alarming, results, trx } = input;
    const title =
      score < previousScore
        ? `Production readiness dropped to ${score}% (from ${previousScore}%)`
        : `Production readiness: ${alarming.length === 1 ? 'an item became' : `${alarming.length} items became`} critical`;
    const lines = alarming.map((change) => {
      const result = results.find((r) => r.check.key === change.key);
      const name = result ? `${result.check.category} · ${result.check.item}` : change.key;
      return `${name}: ${STATUS_LABEL[change.to]} (was ${STATUS_LABEL[change.from]}). ${result?.outcome.reason ?? ''}`.trim();
    });
    const body = lines.join('\n').slice(0, 2000);
    const url = new URL(PRODUCTION_STATUS_PATH, this.deps.sources.config.publicUrl).toString();
    for (const admin of admins) {
      await this.deps.sources.notify(admin.id, { kind: 'readiness.dropped', title: title.slice(0, 200), body, link: PRODUCTION_STATUS_PATH }, trx);
      if (admin.notificationPreferences.emailNotifications) {
        await this.deps.sources.sendEmail(admin.email, readinessAlertEmail(admin.fullName || 'there', { title, lines, url }), trx);
      }
    }
    this.#logger.warn({ score, previousScore, items: alarming.map((c) => c.key), told: admins.length }, 'production readiness dropped');
  }
}
