import type { Db } from '../../db/database';

export type ReportKind = 'daily' | 'weekly';

/** A report sent to one person for one period (`report_deliveries`, owned by this module). */
export interface ReportDeliveryKey {
  kind: ReportKind;
  /** The period the report covers: `2026-11-27`, `2026-W48`. */
  period: string;
  userId: string;
}

export class ReportEmailsRepository {
  constructor(private readonly db: Db) {}

  /** The people who already got the report of this period. */
  async deliveredTo(kind: ReportKind, period: string, db: Db = this.db): Promise<Set<string>> {
    const rows = await db.selectFrom('reportDeliveries').select('userId').where('kind', '=', kind).where('period', '=', period).execute();
    return new Set(rows.map((r) => r.userId));
  }

  /**
   * Claims the report of this period for this person; false when it is already recorded — or being
   * recorded by a transaction that has not ended: the insert waits for it, then does nothing if it
   * committed. Call in the transaction that queues the e-mail.
   */
  async claim(trx: Db, key: ReportDeliveryKey, clientId: string | null): Promise<boolean> {
    const row = await trx
      .insertInto('reportDeliveries')
      .values({ ...key, clientId })
      .onConflict((oc) => oc.columns(['kind', 'period', 'userId']).doNothing())
      .returning('userId')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setEmail(trx: Db, key: ReportDeliveryKey, emailId: string): Promise<void> {
    await trx
      .updateTable('reportDeliveries')
      .set({ emailId })
      .where('kind', '=', key.kind)
      .where('period', '=', key.period)
      .where('userId', '=', key.userId)
      .execute();
  }

  /** The reports recorded for a period, oldest first (tests, operators). */
  async findDeliveries(kind: ReportKind, period: string, db: Db = this.db) {
    return db.selectFrom('reportDeliveries').selectAll().where('kind', '=', kind).where('period', '=', period).orderBy('createdAt').orderBy('userId').execute();
  }
}
