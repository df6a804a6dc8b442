/** `error_alerts` (migration 0036): one row per cause and UTC day an error alert went out. */
import type { Db } from '../../db/database';

export class ErrorAlertsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records that `cause` is alerted on `day` (`YYYY-MM-DD`); false when it already was — by an
   * earlier check, or another instance's at the same moment (the primary key decides).
   */
  async claim(alert: { cause: string; day: string; title: string }, trx: Db): Promise<boolean> {
    const row = await trx
      .insertInto('errorAlerts')
      .values(alert)
      .onConflict((oc) => oc.columns(['cause', 'day']).doNothing())
      .returning('cause')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets the days before `day` (they can no longer stop an alert); how many rows went. */
  async pruneBefore(day: string, db: Db = this.db): Promise<number> {
    const result = await db.deleteFrom('errorAlerts').where('day', '<', day).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The causes alerted on `day` (tests, the CLI). */
  async findDay(day: string, db: Db = this.db): Promise<{ cause: string; title: string }[]> {
    return db.selectFrom('errorAlerts').select(['cause', 'title']).where('day', '=', day).orderBy('cause').execute();
  }
}
