/**
 * The readiness module's tables (migration 0030): the runs with their scores, the last result of
 * each item, the test e-mails sent from the page — and PostgreSQL's WAL archiver statistics (a
 * system view) for the backup check on a PostgreSQL server.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { json } from '../../db/sql';
import type { ReadinessChange, ReadinessStatus } from '../../db/schema';

/** Every run takes this transaction-scoped advisory lock ('prdy'): the run before is read and the new one stored one at a time. */
const RUN_LOCK = 0x70726479;

export interface RunRow {
  id: number;
  checkedAt: Date;
  score: number;
  worsened: ReadinessChange[];
  notifiedAt: Date | null;
}

export interface ItemRow {
  key: string;
  status: ReadinessStatus;
  statusSince: Date;
}

export interface StoredItem {
  key: string;
  category: string;
  status: ReadinessStatus;
  reason: string;
}

export interface WalArchiver {
  archiveMode: string;
  archivedCount: number;
  lastArchivedAt: Date | null;
  failedCount: number;
  lastFailedAt: Date | null;
}

export class ReadinessRepository {
  constructor(private readonly db: Db) {}

  async lockRuns(trx: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(${RUN_LOCK})`.execute(trx);
  }

  /** The newest run, or undefined before the first. */
  async findLatestRun(db: Db = this.db): Promise<RunRow | undefined> {
    return db
      .selectFrom('readinessRuns')
      .select(['id', 'checkedAt', 'score', 'worsened', 'notifiedAt'])
      .orderBy('checkedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The runs since `since` that told the admins about a drop (newest first). */
  async findNotifiedRuns(since: Date, db: Db = this.db): Promise<RunRow[]> {
    return db
      .selectFrom('readinessRuns')
      .select(['id', 'checkedAt', 'score', 'worsened', 'notifiedAt'])
      .where('checkedAt', '>=', since)
      .where('notifiedAt', 'is not', null)
      .orderBy('checkedAt', 'desc')
      .execute();
  }

  async insertRun(
    run: { checkedAt: Date; trigger: 'page' | 'daily'; score: number; complete: number; attention: number; critical: number; worsened: readonly ReadinessChange[] },
    trx: Db,
  ): Promise<number> {
    const row = await trx
      .insertInto('readinessRuns')
      .values({ ...run, worsened: json(run.worsened) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async markNotified(runId: number, at: Date, trx: Db): Promise<void> {
    await trx.updateTable('readinessRuns').set({ notifiedAt: at }).where('id', '=', runId).execute();
  }

  async findItems(db: Db = this.db): Promise<ItemRow[]> {
    return db.selectFrom('readinessItems').select(['key', 'status', 'statusSince']).execute();
  }

  /**
   * Stores each item's result; `statusSince` moves only when its status changed. Items no longer
   * in the list (a newer Parley renamed one) go. Returns every item's `statusSince`.
   */
  async storeItems(items: readonly StoredItem[], checkedAt: Date, trx: Db): Promise<Map<string, Date>> {
    const rows = await trx
      .insertInto('readinessItems')
      .values(items.map((item) => ({ ...item, checkedAt, statusSince: checkedAt })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          category: eb.ref('excluded.category'),
          status: eb.ref('excluded.status'),
          reason: eb.ref('excluded.reason'),
          checkedAt: eb.ref('excluded.checkedAt'),
          statusSince: sql<Date>`case when readiness_items.status = excluded.status then readiness_items.status_since else excluded.status_since end`,
        })),
      )
      .returning(['key', 'statusSince'])
      .execute();
    await trx
      .deleteFrom('readinessItems')
      .where(
        'key',
        'not in',
        items.map((item) => item.key),
      )
      .execute();
    return new Map(rows.map((row) => [row.key, row.statusSince]));
  }

  /** Runs checked before `before` go (the daily job keeps 90 days). */
  async pruneRuns(before: Date, db: Db = this.db): Promise<number> {
    const result = await db.deleteFrom('readinessRuns').where('checkedAt', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async insertTestEmail(row: { emailId: string; smtpFingerprint: string; sentTo: string; requestedBy: string | null; createdAt: Date }, trx: Db): Promise<void> {
    await trx.insertInto('readinessTestEmails').values(row).execute();
  }

  /** The newest test e-mail sent under this SMTP configuration. */
  async findLatestTestEmail(smtpFingerprint: string, db: Db = this.db): Promise<{ emailId: string; sentTo: string; createdAt: Date } | undefined> {
    return db
      .selectFrom('readinessTestEmails')
      .select(['emailId', 'sentTo', 'createdAt'])
      .where('smtpFingerprint', '=', smtpFingerprint)
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** PostgreSQL's WAL archiving: whether it is on and how it went (pg_stat_archiver). */
  async findWalArchiver(db: Db = this.db): Promise<WalArchiver | undefined> {
    // Raw rows come back camelCased too (ParleyCamelCasePlugin).
    const { rows } = await sql<{
      archiveMode: string;
      archivedCount: string | number;
      lastArchivedTime: Date | null;
      failedCount: string | number;
      lastFailedTime: Date | null;
    }>`select current_setting('archive_mode') as archive_mode, archived_count, last_archived_time, failed_count, last_failed_time from pg_stat_archiver`.execute(db);
    const row = rows[0];
    if (!row) return undefined;
    return {
      archiveMode: row.archiveMode,
      archivedCount: Number(row.archivedCount),
      lastArchivedAt: row.lastArchivedTime,
      failedCount: Number(row.failedCount),
      lastFailedAt: row.lastFailedTime,
    };
  }
}
