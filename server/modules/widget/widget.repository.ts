/** The widget module's own SQL: the demo widget's creation lock. */
import { sql } from 'kysely';
import type { Db } from '../../db/database';

const DEMO_WIDGET_LOCK = sql`hashtext('parley:demo-widget')`;

export class WidgetRepository {
  /**
   * Serialises the demo widget's creation across instances: a transaction-scoped advisory lock,
   * held until `trx` ends.
   */
  async lockDemoWidget(trx: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(${DEMO_WIDGET_LOCK})`.execute(trx);
  }
}
