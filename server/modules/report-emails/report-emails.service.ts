/**
 * Reports by e-mail (issue 16 §5; docs/insights.md, "Reports by e-mail"): the daily report to the
 * administrators who turned Daily Reports on, the weekly report to everyone who turned Weekly
 * Reports on — a client user's covers their own client only, staff's every client.
 *
 * Each is a recurring job (server/jobs/schedule.ts: one run per period across instances). A run
 * goes through the recipients one by one; each report is recorded in `report_deliveries` (unique
 * per kind, period and person) in the transaction that queues its e-mail in the outbox, so however
 * many runs or instances reach the same recipient — concurrently, or again after a crash — one
 * commits the record and the e-mail together and the others find the record and skip: never two
 * e-mails, never none. The outbox's delivery job retries SMTP failures on the one stored e-mail.
 */
import type { Logger } from 'pino';
import type { InsightsQuery, InsightsView } from '../../../common/api/insights';
import type { Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import type { Scope } from '../../http/scope';
import { type Period, periodAt, periodOf, type Scheduler } from '../../jobs/schedule';
import type { RenderedEmail } from '../email';
import { reportContent } from './report-content';
import { dailyReportJob, weeklyReportJob } from './report-emails.jobs';
import { ReportEmailsRepository, type ReportKind } from './report-emails.repository';

/** Someone who asked for a report (the users module's `findReportRecipients`). */
export interface ReportRecipient {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  clientId: string | null;
}

/** What the module needs from others, filled in by app.ts. */
export interface ReportEmailsPorts {
  /** The enabled accounts with the kind's preference on (daily: administrators only). */
  recipients(kind: ReportKind): Promise<ReportRecipient[]>;
  /** The insights of a period within a scope (InsightsService.overview). */
  insights(scope: Scope, query: InsightsQuery): Promise<InsightsView>;
  /** Stores an e-mail in the outbox and queues its delivery in the caller's transaction; its id. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<string>;
}

export interface ReportEmailsDeps {
  db: Db;
  logger: Logger;
  publicUrl: string;
  ports: ReportEmailsPorts;
}

/** What a run did: reports queued now, recipients who already had theirs, those left out (a client user without a client). */
export interface ReportRun {
  sent: number;
  alreadySent: number;
  skipped: number;
}

const CADENCE = { daily: 'day', weekly: 'week' } as const;

/** The period a run reports on: the day (or ISO week) before the one it runs in. */
export function reportedPeriod(kind: ReportKind, runPeriod: Period | string): Period {
  const every = CADENCE[kind];
  const run = typeof runPeriod === 'string' ? periodOf(every, runPeriod) : runPeriod;
  return periodAt(every, new Date(run.start.getTime() - 1));
}

export class ReportEmailsService {
  readonly #repository: ReportEmailsRepository;
  readonly #logger: Logger;

  constructor(private readonly deps: ReportEmailsDeps) {
    this.#repository = new ReportEmailsRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'report-emails' });
  }

  /** The daily and weekly runs, each reporting on the period before the one it runs in. */
  register(scheduler: Scheduler): void {
    scheduler.register(dailyReportJob, async (run, ctx) => {
      await this.sendReports('daily', reportedPeriod('daily', run), ctx.signal);
    });
    scheduler.register(weeklyReportJob, async (run, ctx) => {
      await this.sendReports('weekly', reportedPeriod('weekly', run), ctx.signal);
    });
  }

  /**
   * Sends the `kind` report of `period` to every recipient who has not had it. A recipient whose
   * report fails is left for the job's retry (the others go on); the run then fails with the first error.
   */
  async sendReports(kind: ReportKind, period: Period, signal?: AbortSignal): Promise<ReportRun> {
    const recipients = await this.deps.ports.recipients(kind);
    const delivered = await this.#repository.deliveredTo(kind, period.key);
    const figures = new Map<string, Promise<{ current: InsightsView; previous: InsightsView }>>();
    const run: ReportRun = { sent: 0, alreadySent: 0, skipped: 0 };
    const failures: unknown[] = [];
    for (const recipient of recipients) {
      signal?.throwIfAborted();
      if (delivered.has(recipient.id)) {
        run.alreadySent += 1;
        continue;
      }
      // Tenant scope: a client user's report reads their own client only; staff's every client.
      const scope: Scope = { clientId: recipient.role === 'client' ? recipient.clientId : null };
      if (recipient.role === 'client' && recipient.clientId === null) {
        run.skipped += 1;
        continue;
      }
      try {
        const key = scope.clientId ?? '*';
        let read = figures.get(key);
        if (!read) {
          read = this.#figures(scope, period);
          figures.set(key, read);
        }
        const { current, previous } = await read;
        const clientName = scope.clientId === null ? null : (current.clients.find((c) => c.clientId === scope.clientId)?.name ?? 'your business');
        const email = reportContent({ kind, period, name: recipient.fullName, clientName, current, previous, publicUrl: this.deps.publicUrl });
        const sent = await this.deps.db.transaction().execute(async (trx) => {
          const delivery = { kind, period: period.key, userId: recipient.id };
          // Another run (another instance, or this one before a crash) recorded it: nothing to send.
          if (!(await this.#repository.claim(trx, delivery, scope.clientId))) return false;
          await this.#repository.setEmail(trx, delivery, await this.deps.ports.email(recipient.email, email, trx));
          return true;
        });
        if (sent) run.sent += 1;
        else run.alreadySent += 1;
      } catch (error) {
        failures.push(error);
        this.#logger.warn({ err: error, kind, period: period.key, userId: recipient.id }, 'report e-mail not queued');
      }
    }
    this.#logger.info({ kind, period: period.key, ...run, failed: failures.length }, 'reports queued');
    if (failures.length > 0) throw new Error(`${failures.length} ${kind} report(s) of ${period.key} could not be queued`, { cause: failures[0] });
    return run;
  }

  /** The reports recorded for a period (tests, operators). */
  async findDeliveries(kind: ReportKind, period: string) {
    return this.#repository.findDeliveries(kind, period);
  }

  /** The period's insights and the period before's, within the scope. */
  async #figures(scope: Scope, period: Period): Promise<{ current: InsightsView; previous: InsightsView }> {
    const length = period.end.getTime() - period.start.getTime();
    const before = new Date(period.start.getTime() - length);
    const [current, previous] = await Promise.all([
      this.deps.ports.insights(scope, { period: 'custom', from: period.start.toISOString(), to: period.end.toISOString() }),
      this.deps.ports.insights(scope, { period: 'custom', from: before.toISOString(), to: period.start.toISOString() }),
    ]);
    return { current, previous };
  }
}
