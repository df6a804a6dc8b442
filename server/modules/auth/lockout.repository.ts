import type { Db } from '../../db/database';
import { confirmFailure, type LockoutState, type Reservation, reserveAttempt } from './lockout';

const STATE_COLUMNS = ['failedCount', 'windowStartedAt', 'lastFailedAt', 'lockedUntil', 'severity'] as const;

/**
 * The lockout ledger lives in the database, so it survives restarts and holds across instances.
 * Every change for one e-mail runs under its row lock (`FOR UPDATE`), so concurrent sign-ins, from
 * this instance or another, each see what the previous one counted: an attempt is reserved before
 * its password is checked, and no more than 5 are handed out per window.
 */
export class LockoutRepository {
  constructor(private readonly db: Db) {}

  /** Takes an attempt for the e-mail before its password is checked (lockout.ts `reserveAttempt`). */
  async reserve(email: string, now: Date): Promise<Reservation> {
    return this.#update(email, now, (state) => {
      const reservation = reserveAttempt(state, now);
      return { state: reservation.state, result: reservation };
    });
  }

  /** The password of a reserved attempt was wrong: it stays counted, and 5 lock the e-mail. */
  async confirmFailure(email: string, now: Date): Promise<ReturnType<typeof confirmFailure>> {
    return this.#update(email, now, (state) => {
      const outcome = confirmFailure(state, now);
      return { state: outcome.state, result: outcome };
    });
  }

  /**
   * A right password clears the ledger — unless the e-mail is locked by now: a burst may have
   * locked it while this password was being checked, and that lock stands.
   */
  async clearUnlessLocked(email: string, now: Date): Promise<void> {
    await this.db
      .deleteFrom('loginAttempts')
      .where('email', '=', email)
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now)]))
      .execute();
  }

  /** Clears the ledger whatever its state (a password reset proves ownership of the mailbox). */
  async clear(email: string): Promise<void> {
    await this.db.deleteFrom('loginAttempts').where('email', '=', email).execute();
  }

  async #update<T>(email: string, now: Date, change: (state: LockoutState) => { state: LockoutState; result: T }): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      // One statement creates the row or locks the existing one and returns it: an INSERT … DO
      // NOTHING then SELECT … FOR UPDATE would find no row when a success deletes it in between.
      const previous = await trx
        .insertInto('loginAttempts')
        .values({ email, failedCount: 0, severity: 0, updatedAt: now })
        .onConflict((oc) => oc.column('email').doUpdateSet({ updatedAt: now }))
        .returning(STATE_COLUMNS)
        .executeTakeFirstOrThrow();
      const { state, result } = change(previous);
      await trx
        .updateTable('loginAttempts')
        .set({ ...state, updatedAt: now })
        .where('email', '=', email)
        .execute();
      return result;
    });
  }
}
