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
}
