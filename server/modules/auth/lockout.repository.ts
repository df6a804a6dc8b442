import type { Db } from '../../db/database';
import { EMPTY_LOCKOUT, type FailureOutcome, type LockoutState, registerFailure } from './lockout';

/**
 * The lockout ledger lives in the database, so it survives restarts and holds across instances.
 * Failures for one e-mail are serialised by a row lock, so concurrent wrong passwords each count.
 */
export class LockoutRepository {
  constructor(private readonly db: Db) {}

  async getState(email: string): Promise<LockoutState> {
    const row = await this.db
      .selectFrom('loginAttempts')
      .select(['failedCount', 'windowStartedAt', 'lastFailedAt', 'lockedUntil', 'severity'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row ?? EMPTY_LOCKOUT;
  }

  async recordFailure(email: string, now: Date, flagged: boolean): Promise<FailureOutcome> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('loginAttempts')
        .values({ email, failedCount: 0, severity: 0, updatedAt: now })
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
      const previous = await trx
        .selectFrom('loginAttempts')
        .select(['failedCount', 'windowStartedAt', 'lastFailedAt', 'lockedUntil', 'severity'])
        .where('email', '=', email)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const outcome = registerFailure(previous, now, flagged);
      await trx
        .updateTable('loginAttempts')
        .set({ ...outcome.state, updatedAt: now })
        .where('email', '=', email)
        .execute();
      return outcome;
    });
  }

  async clear(email: string): Promise<void> {
    await this.db.deleteFrom('loginAttempts').where('email', '=', email).execute();
  }
}
