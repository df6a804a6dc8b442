/** The e-mail module's table: queued, delivered and stored messages (the outbox). */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/database';
import { json } from '../../db/sql';
import type { DB, Email } from '../../db/schema';
import type { RenderedEmail } from './email.templates';

export class EmailRepository {
  constructor(private readonly db: Db) {}

  /** Stores a message to send; its id. */
  async insertEmail(to: string, email: RenderedEmail, db: Db = this.db): Promise<string> {
    const row = await db
      .insertInto('emails')
      .values({
        kind: email.kind,
        toAddress: to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html,
        headers: email.headers ? json(email.headers) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async findEmail(id: string, db: Db = this.db): Promise<Email | undefined> {
    return db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The newest messages first. */
  async findEmails(limit: number, db: Db = this.db): Promise<Email[]> {
    return db.selectFrom('emails').selectAll().orderBy('createdAt', 'desc').limit(limit).execute();
  }

  async updateEmail(id: string, changes: Updateable<DB['emails']>, db: Db = this.db): Promise<void> {
    await db.updateTable('emails').set(changes).where('id', '=', id).execute();
  }

  /**
   * The e-mails created since `since`, counted by outcome: delivered over SMTP (`sent`), kept in
   * the outbox (`stored`), failed for good, still queued, and queued since before `lateBefore`;
   * with the newest error of a failed or retrying one.
   */
  async countDeliveries(since: Date, lateBefore: Date, db: Db = this.db): Promise<EmailDeliveryCounts> {
    const counts = await db
      .selectFrom('emails')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'sent').as('sent'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'stored').as('stored'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'failed').as('failed'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'queued').as('queued'),
        eb.fn.count<number>('id').filterWhere((w) => w.and([w('status', '=', 'queued'), w('createdAt', '<', lateBefore)])).as('late'),
      ])
      .where('createdAt', '>=', since)
      .executeTakeFirstOrThrow();
    const error = await db
      .selectFrom('emails')
      .select('lastError')
      .where('createdAt', '>=', since)
      .where('status', 'in', ['failed', 'queued'])
      .where('lastError', 'is not', null)
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      total: Number(counts.total),
      sent: Number(counts.sent),
      stored: Number(counts.stored),
      failed: Number(counts.failed),
      queued: Number(counts.queued),
      late: Number(counts.late),
      lastError: error?.lastError ?? null,
    };
  }
}

/** E-mails of a period by outcome (EmailRepository.countDeliveries). */
export interface EmailDeliveryCounts {
  total: number;
  sent: number;
  stored: number;
  failed: number;
  queued: number;
  /** Queued since before the lateness bound. */
  late: number;
  lastError: string | null;
}
