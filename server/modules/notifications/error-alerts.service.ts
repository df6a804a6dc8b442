/**
 * Error alerts (Admin Settings → Notifications' `errorAlerts`, docs/admin-settings.md): every five
 * minutes a check looks for things that keep failing and tells each administrator who keeps the
 * switch on — in the app, and by e-mail when they take e-mail notifications:
 *
 * - a kind of background job that failed for good (retries exhausted, or a permanent failure)
 *   JOB_FAILURE_THRESHOLD or more times in the last hour (cause `job:<name>`);
 * - a webhook subscription whose last WEBHOOK_FAILURE_THRESHOLD or more delivery attempts all
 *   failed, while it is still on (cause `webhook:<id>`): an early warning — the hooks module
 *   turns it off, and says so, only after many more failures over a day.
 *
 * At most one alert per cause and UTC day: the `error_alerts` row is inserted in the transaction
 * that writes the notifications and queues the e-mails, so a repeated check, or another
 * instance's, finds it and stays quiet.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { RetentionTimer } from '../../lib/retention';
import { errorAlertEmail, type RenderedEmail } from '../email';
import { ErrorAlertsRepository } from './error-alerts.repository';
import { errorAlertsCheckJob } from './error-alerts.job';
import type { NotificationsService } from './notifications.service';

/** Jobs of one kind that failed for good within JOB_FAILURE_WINDOW_MS before an alert. */
export const JOB_FAILURE_THRESHOLD = 3;
export const JOB_FAILURE_WINDOW_MS = 60 * 60_000;
/** Failed delivery attempts in a row of one subscription before an alert. */
export const WEBHOOK_FAILURE_THRESHOLD = 5;
/** How often each instance queues the check. */
export const CHECK_EVERY_MS = 5 * 60_000;
/** Days of `error_alerts` kept (only today's can stop an alert). */
const KEEP_DAYS = 7;

/** An administrator as the users module gives one (UsersService.findRecipients). */
export interface AlertAdmin {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: { errorAlerts: boolean; emailNotifications: boolean };
}

/** What the check reads and whom it tells, from other modules (wired in app.ts). */
export interface ErrorAlertPorts {
  /** Jobs that failed for good since `since`, by job name (HealthService.jobOutcomes). */
  jobFailures(since: Date): Promise<{ name: string; count: number }[]>;
  /** Active subscriptions with at least `minConsecutive` failed attempts in a row (HooksService). */
  failingWebhooks(minConsecutive: number): Promise<{ id: string; name: string; url: string; consecutiveFailures: number; failingSince: Date | null }[]>;
  /** The enabled administrators, with their notification preferences as they read. */
  admins(trx: Db): Promise<AlertAdmin[]>;
  email(to: string, email: RenderedEmail, trx: Db): Promise<unknown>;
}

export interface ErrorAlertsDeps {
  db: Db;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  notifications: NotificationsService;
  publicUrl: string;
  ports: ErrorAlertPorts;
}

/** One thing that keeps failing. */
interface Cause {
  key: string;
  title: string;
  lines: string[];
  link: string;
  action: string;
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

export class ErrorAlertsService {
  readonly #repository: ErrorAlertsRepository;
  readonly #timer: RetentionTimer;

  constructor(private readonly deps: ErrorAlertsDeps) {
    this.#repository = new ErrorAlertsRepository(deps.db);
    // The timer queues a period at least five minutes ahead: an instance's first check comes 5 to 10
    // minutes after it starts (short-lived processes, tests among them, rarely run one).
    this.#timer = new RetentionTimer(() => this.#queueCheck(CHECK_EVERY_MS), deps.logger, 'queueing the error-alerts check failed', CHECK_EVERY_MS);
  }

  /** Registers the check's job; each run queues the next period's. */
  register(): void {
    this.deps.queue.register(errorAlertsCheckJob, async () => {
      await this.check();
      await this.#queueCheck(0);
    });
  }

  /**
   * Queues the next period's check now and again every five minutes (instances that run jobs), so
   * a chain broken by a failed run, or never started, is picked up again.
   */
  start(): void {
    this.#timer.start();
  }

  stop(): void {
    this.#timer.stop();
  }

  /**
   * Queues the run of the first five-minute period starting at least `aheadMs` from now (system
   * time: the queue starts jobs by the database's clock).
   */
  async #queueCheck(aheadMs: number): Promise<void> {
    const next = new Date(Math.ceil((Date.now() + aheadMs + 1) / CHECK_EVERY_MS) * CHECK_EVERY_MS);
    const period = next.toISOString();
    await this.deps.queue.enqueue(errorAlertsCheckJob, { period }, { runAt: next, singletonKey: period });
  }

  /** Looks for causes and alerts each not yet alerted today; the causes alerted by this run. */
  async check(): Promise<string[]> {
    const now = this.deps.clock.now();
    const day = dayOf(now);
    const causes = [...(await this.#jobCauses(now)), ...(await this.#webhookCauses())];
    const alerted: string[] = [];
    for (const cause of causes) {
      if (await this.#alert(cause, day)) alerted.push(cause.key);
    }
    await this.#repository.pruneBefore(dayOf(new Date(now.getTime() - KEEP_DAYS * 86_400_000)));
    if (alerted.length > 0) this.deps.logger.warn({ causes: alerted }, 'error alerts sent');
    return alerted;
  }

  /** The causes alerted on `day` (`YYYY-MM-DD`). */
  async alertedOn(day: string): Promise<{ cause: string; title: string }[]> {
    return this.#repository.findDay(day);
  }

  async #jobCauses(now: Date): Promise<Cause[]> {
    const failures = await this.deps.ports.jobFailures(new Date(now.getTime() - JOB_FAILURE_WINDOW_MS));
    return failures
      .filter((f) => f.count >= JOB_FAILURE_THRESHOLD)
      .map((f) => ({
        key: `job:${f.name}`.slice(0, 200),
        title: `Background jobs failing: ${f.name}`,
        lines: [
          `${f.count} "${f.name}" jobs failed for good in the last hour (their retries ran out, or they could not succeed).`,
          'The Production Readiness page shows the jobs of the last 24 hours; the server log has each failure with its error.',
        ],
        link: '/admin/production-status',
        action: 'Open Production Readiness',
      }));
  }

  async #webhookCauses(): Promise<Cause[]> {
    const failing = await this.deps.ports.failingWebhooks(WEBHOOK_FAILURE_THRESHOLD);
    return failing.map((s) => ({
      key: `webhook:${s.id}`,
      title: `Webhook failing: ${s.name}`,
      lines: [
        `The last ${s.consecutiveFailures} delivery attempts to the webhook subscription “${s.name}” (${s.url}) all failed${s.failingSince ? `, since ${s.failingSince.toISOString()}` : ''}.`,
        'Parley keeps retrying, and turns the subscription off if its endpoint keeps failing for a day. Its delivery log on the Webhooks page shows each attempt and the endpoint’s answer.',
      ],
      link: '/admin/webhooks',
      action: 'Open the Webhooks page',
    }));
  }

  /** The cause's alert, unless it went out today already; whether it went out now. */
  async #alert(cause: Cause, day: string): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.#repository.claim({ cause: cause.key, day, title: cause.title.slice(0, 200) }, trx))) return false;
      const admins = await this.deps.ports.admins(trx);
      for (const admin of admins) {
        const prefs = admin.notificationPreferences;
        if (!prefs.errorAlerts) continue;
        await this.deps.notifications.notify(admin.id, { kind: 'system.error_alert', title: cause.title.slice(0, 200), body: cause.lines[0] ?? null, link: cause.link }, trx);
        if (prefs.emailNotifications) {
          const url = new URL(cause.link, this.deps.publicUrl).toString();
          await this.deps.ports.email(admin.email, errorAlertEmail(admin.fullName || 'there', { title: cause.title, lines: cause.lines, action: { label: cause.action, url } }), trx);
        }
      }
      return true;
    });
  }
}
