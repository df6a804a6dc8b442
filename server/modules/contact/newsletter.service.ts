/**
 * The newsletter with double opt-in (issue 15; docs/contact.md). Subscribing answers the same
 * whatever the address (nothing is disclosed) and leaves the work to a job: a new, pending or
 * unsubscribed address gets a confirmation e-mail (at most one per address every 10 minutes while
 * its link is valid), a subscribed one nothing. The confirmation link (random, 7 days, only its sha256 stored) makes the
 * address subscribed; the unsubscribe link in every newsletter e-mail (and its List-Unsubscribe
 * headers, RFC 8058 one-click) makes it unsubscribed.
 *
 * The unsubscribe token is an HMAC of the subscriber's id under the installation's secret (as the
 * automation callback tokens are), so every e-mail to an address carries the same working link
 * without the token being stored; only its sha256 is, to find the subscriber.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { NewsletterSubscribersResponse } from '../../../common/api/contact';
import type { Db } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { toCsv } from '../../lib/csv';
import { hmacSha256Hex, randomToken, sha256Hex } from '../../lib/crypto';
import { newsletterConfirmEmail, type RenderedEmail } from '../email';
import { newsletterSubscribeJob } from './contact.job';
import type { ContactRepository, SubscriberRow } from './contact.repository';
import type { PublicFormLimits } from './public-form-limits';

export const CONFIRM_LINK_DAYS = 7;
/** A confirmation e-mail goes to an address at most this often. */
export const CONFIRM_RESEND_MS = 10 * 60_000;

export const NEWSLETTER_CSV_HEADER = ['Email', 'Status', 'Signed up', 'Confirmed', 'Unsubscribed'] as const;

export type NewsletterLinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

export interface NewsletterServiceDeps {
  db: Db;
  repository: ContactRepository;
  limits: PublicFormLimits;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** The installation's secret: the unsubscribe tokens are HMACs under it. */
  tokenKey: string;
  /** Stores the e-mail in the outbox and queues its delivery, in `trx`; the outbox id. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<string>;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class NewsletterService {
  constructor(private readonly deps: NewsletterServiceDeps) {}

  /**
   * Subscribe: counted against the IP's limit (429 past it); a honeypot's request is answered
   * like any other and nothing happens; otherwise the subscribe job is queued. The same work and
   * the same answer for every address.
   */
  async requestSubscription(input: { email: string; website?: string | undefined }, meta: { ip: string }): Promise<void> {
    await this.deps.limits.hit('newsletter', meta.ip);
    if (input.website !== undefined && input.website.trim() !== '') {
      this.deps.logger.info({ reason: 'honeypot' }, 'newsletter request dropped as spam');
      return;
    }
    // One pending job per address: a burst of requests for it sends one e-mail.
    await this.deps.queue.enqueue(newsletterSubscribeJob, { email: input.email }, { singletonKey: `newsletter:${sha256Hex(input.email)}` });
  }

  /** The job: a confirmation e-mail unless the address is subscribed or was sent one recently. */
  async runSubscribe(email: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const id = randomUUID();
      await this.deps.repository.insertSubscriberIfNew({ id, email, unsubscribeTokenHash: sha256Hex(this.#unsubscribeToken(id)), createdAt: now }, trx);
      const subscriber = await this.deps.repository.lockSubscriberByEmail(email, trx);
      if (!subscriber || subscriber.status === 'subscribed') return;
      // A link sent in the last 10 minutes still works: no second e-mail. (Unsubscribing voids the
      // link, so someone who left and asks again gets one at once.)
      const recent = subscriber.confirmSentAt !== null && now.getTime() - subscriber.confirmSentAt.getTime() < CONFIRM_RESEND_MS;
      if (recent && subscriber.confirmTokenHash !== null) return;
      const token = randomToken();
      await this.deps.repository.setConfirmToken(
        subscriber.id,
        { hash: sha256Hex(token), expiresAt: new Date(now.getTime() + CONFIRM_LINK_DAYS * 24 * 60 * 60_000), sentAt: now },
        trx,
      );
      const confirmUrl = this.#link('/newsletter/confirm', token);
      await this.deps.email(email, newsletterConfirmEmail({ confirmUrl, unsubscribeUrl: this.unsubscribeUrl(subscriber.id), expiresInDays: CONFIRM_LINK_DAYS }), trx);
    });
  }

  /** The confirmation link: subscribed, or invalid (unknown, expired, voided by unsubscribing or a newer link). */
  async confirm(token: string | undefined): Promise<NewsletterLinkOutcome> {
    if (!token) return 'invalid';
    return (await this.deps.repository.confirmByTokenHash(sha256Hex(token), this.deps.clock.now())) ? 'confirmed' : 'invalid';
  }

  /** The unsubscribe link (and one-click POST): unsubscribed, or invalid. */
  async unsubscribe(token: string | undefined): Promise<NewsletterLinkOutcome> {
    if (!token) return 'invalid';
    return (await this.deps.repository.unsubscribeByTokenHash(sha256Hex(token), this.deps.clock.now())) ? 'unsubscribed' : 'invalid';
  }

  /** The link every newsletter e-mail to this subscriber carries (body and List-Unsubscribe). */
  unsubscribeUrl(subscriberId: string): string {
    return this.#link('/newsletter/unsubscribe', this.#unsubscribeToken(subscriberId));
  }

  async findSubscribers(): Promise<NewsletterSubscribersResponse> {
    const [rows, counts] = await Promise.all([this.deps.repository.findSubscribers(), this.deps.repository.countSubscribersByStatus()]);
    return { subscribers: rows.map(toSubscriber), counts };
  }

  /** Every subscriber as CSV (server/lib/csv.ts: RFC 4180, formula cells defused). */
  async exportCsv(): Promise<{ filename: string; csv: string }> {
    const rows = await this.deps.repository.findSubscribers();
    const csv = toCsv([NEWSLETTER_CSV_HEADER, ...rows.map((r) => [r.email, r.status, r.createdAt.toISOString(), iso(r.confirmedAt), iso(r.unsubscribedAt)])]);
    return { filename: `newsletter-subscribers-${this.deps.clock.now().toISOString().slice(0, 10)}.csv`, csv };
  }

  #unsubscribeToken(subscriberId: string): string {
    return hmacSha256Hex(this.deps.tokenKey, `newsletter-unsubscribe:${subscriberId}`);
  }

  #link(path: string, token: string): string {
    const url = new URL(path, this.deps.publicUrl);
    url.searchParams.set('token', token);
    return url.toString();
  }
}

function toSubscriber(row: SubscriberRow) {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: iso(row.confirmedAt),
    unsubscribedAt: iso(row.unsubscribedAt),
  };
}
