import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { Email } from '../../db/schema';
import { PermanentJobError } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import { notFound } from '../../lib/errors';
import { deliverEmailJob } from './email.job';
import { type EmailDeliveryCounts, EmailRepository } from './email.repository';
import type { RenderedEmail } from './email.templates';
import type { EmailTransport } from './email.transport';

/** What stays of a message body once SMTP has delivered it (links in it are credentials). */
export const DELIVERED_BODY_PLACEHOLDER = '[Delivered by SMTP. The body is not kept because it may contain a sign-in link.]';

export interface EmailServiceDeps {
  db: Db;
  queue: JobQueue;
  transport: EmailTransport;
  logger: Logger;
}

export class EmailService {
  readonly #emails: EmailRepository;

  constructor(private readonly deps: EmailServiceDeps) {
    this.#emails = new EmailRepository(deps.db);
  }

  /**
   * Stores the message and enqueues its delivery in one transaction (or in the caller's, when
   * `db` is a transaction), so a message is either fully recorded and queued or not at all.
   */
  async send(to: string, email: RenderedEmail, options: { db?: Db } = {}): Promise<string> {
    const run = async (trx: Db) => {
      const id = await this.#emails.insertEmail(to, email, trx);
      await this.deps.queue.enqueue(deliverEmailJob, { emailId: id }, { db: trx });
      return id;
    };
    return options.db ? run(options.db) : this.deps.db.transaction().execute(run);
  }

  /** The job handler: hands the message to the transport and records the outcome. */
  async deliver(emailId: string, attempt: number, maxAttempts: number): Promise<void> {
    const email = await this.#emails.findEmail(emailId);
    if (!email) throw new PermanentJobError(`E-mail ${emailId} no longer exists`);
    if (email.status === 'sent' || email.status === 'stored') return;
    const { transport } = this.deps;
    try {
      const { messageId } = await transport.send({
        to: email.toAddress,
        subject: email.subject,
        text: email.textBody,
        html: email.htmlBody,
        headers: email.headers,
      });
      const delivered = transport.kind === 'smtp';
      await this.#emails.updateEmail(emailId, {
        status: delivered ? 'sent' : 'stored',
        transport: transport.kind,
        attempts: attempt,
        lastError: null,
        providerMessageId: messageId,
        sentAt: new Date(),
        // The headers go too: a List-Unsubscribe link is a credential like the body's links.
        ...(delivered ? { textBody: DELIVERED_BODY_PLACEHOLDER, htmlBody: null, headers: null } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.#emails.updateEmail(emailId, { attempts: attempt, lastError: message, ...(attempt >= maxAttempts ? { status: 'failed' as const } : {}) });
      throw error;
    }
  }

  /** The e-mails created since `since` by outcome; `late`: queued for longer than `lateAfterMs`. */
  async deliveryCounts(since: Date, lateAfterMs: number, now: Date = new Date()): Promise<EmailDeliveryCounts> {
    return this.#emails.countDeliveries(since, new Date(now.getTime() - lateAfterMs));
  }

  /** One e-mail, or undefined when there is none with this id. */
  async findEmail(id: string): Promise<Email | undefined> {
    return this.#emails.findEmail(id);
  }

  async findEmails(limit = 100): Promise<Email[]> {
    return this.#emails.findEmails(limit);
  }

  async getEmail(id: string): Promise<Email> {
    const email = await this.#emails.findEmail(id);
    if (!email) throw notFound('E-mail');
    return email;
  }
}
