/**
 * Sign-in lockout (spec part 1 §4, §9): 5 failed attempts for one e-mail, each within 15 minutes of
 * the previous one, block it for 30 minutes; the counter resets after 15 minutes without a failure
 * (and when a lock has run out), not merely 15 minutes after the first failure; severity
 * rises by 1 per failure, by 3 for a flagged one (an attempt made while locked), and reaching 10
 * escalates (a security event).
 *
 * Pure functions over the stored state; lockout.repository.ts applies them under a row lock.
 *
 * A sign-in does not read the state, check the password and then record the failure: concurrent
 * requests would all read "not locked" and all get their password checked. It first reserves an
 * attempt (`reserveAttempt`, counted at once as if it failed) and checks the password only when it
 * got one; then a failure is confirmed (`confirmFailure`, which locks once 5 are counted) or a
 * success clears the ledger unless it is locked by then. In sequence this is exactly
 * `registerFailure`; in a burst, at most 5 passwords are checked per window (and at most 5 at once:
 * a success clears the ledger, after which 5 more may be checked).
 */
export const LOCKOUT = {
  maxAttempts: 5,
  windowMs: 15 * 60_000,
  lockMs: 30 * 60_000,
  escalateAtSeverity: 10,
  severityPerFailure: 1,
  severityPerFlaggedFailure: 3,
} as const;

export interface LockoutState {
  failedCount: number;
  windowStartedAt: Date | null;
  lastFailedAt: Date | null;
  lockedUntil: Date | null;
  severity: number;
}

export const EMPTY_LOCKOUT: LockoutState = {
  failedCount: 0,
  windowStartedAt: null,
  lastFailedAt: null,
  lockedUntil: null,
  severity: 0,
};

export function isLocked(state: LockoutState, now: Date): boolean {
  return state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
}

/**
 * Whole minutes left, rounded up ("try again in N minute(s)"); at least 1 while locked, and never
 * more than a lock lasts (a request that started before another locked the e-mail, or an instance
 * whose clock is behind, would otherwise say 31).
 */
export function minutesLeft(state: LockoutState, now: Date): number {
  if (!state.lockedUntil) return 0;
  const minutes = Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 60_000);
  return Math.min(LOCKOUT.lockMs / 60_000, Math.max(1, minutes));
}

export interface FailureOutcome {
  state: LockoutState;
  /** This failure locked the e-mail. */
  lockedNow: boolean;
  /** Attempts left before the lock (0 once locked). */
  remaining: number;
  /** Severity crossed the escalation threshold with this failure. */
  escalated: boolean;
}

/** The counter and severity after one more attempt; the lock is left as it was. */
function countAttempt(previous: LockoutState, now: Date, flagged: boolean): { state: LockoutState; escalated: boolean; locked: boolean } {
  const locked = isLocked(previous, now);
  // Quiet: no failure for a whole window. Failures keep counting as long as they keep coming,
  // however long ago the first one was (the spec's "resets after 15 minutes of inactivity").
  const quiet = previous.lastFailedAt === null || now.getTime() - previous.lastFailedAt.getTime() >= LOCKOUT.windowMs;
  const lockRanOut = previous.lockedUntil !== null && !locked;
  // Nothing starts over while the e-mail is locked; once a lock has run out, 5 new attempts.
  const freshCount = !locked && (quiet || lockRanOut);
  const freshSeverity = !locked && quiet;
  const increment = flagged ? LOCKOUT.severityPerFlaggedFailure : LOCKOUT.severityPerFailure;
  const previousSeverity = freshSeverity ? 0 : previous.severity;
  const severity = previousSeverity + increment;
  return {
    locked,
    state: {
      failedCount: freshCount ? 1 : previous.failedCount + 1,
      windowStartedAt: freshCount ? now : previous.windowStartedAt,
      lastFailedAt: now,
      lockedUntil: freshCount ? null : previous.lockedUntil,
      severity,
    },
    escalated: previousSeverity < LOCKOUT.escalateAtSeverity && severity >= LOCKOUT.escalateAtSeverity,
  };
}

export type Reservation =
  | {
      /** This request may check the password. */
      granted: true;
      /** Counted (as a failure until the password proves right), with the severity it adds. */
      state: LockoutState;
      escalated: boolean;
    }
  | {
      /** Refused without checking the password: locked, or the window's 5 attempts are taken. */
      granted: false;
      state: LockoutState;
      escalated: boolean;
      /** Whole minutes to tell the caller: the lock's, or a full lock's while the 5 are being checked. */
      minutesLeft: number;
    };

/**
 * Takes one of the window's 5 attempts for an e-mail, before its password is checked. An attempt
 * while locked is refused and counts as a flagged failure (as before). One made once 5 are counted
 * but not yet all checked (a burst) is refused too and raises the severity as a flagged one, but
 * neither counts nor locks: only checked passwords lock, so a right one among the 5 still gets in,
 * and attempts that never finish (a crashed instance) age out after 15 quiet minutes.
 */
export function reserveAttempt(previous: LockoutState, now: Date): Reservation {
  const locked = isLocked(previous, now);
  const counted = countAttempt(previous, now, false);
  if (!locked && counted.state.failedCount <= LOCKOUT.maxAttempts) return { granted: true, state: counted.state, escalated: counted.escalated };
  if (locked) {
    const flagged = countAttempt(previous, now, true);
    return { granted: false, state: flagged.state, escalated: flagged.escalated, minutesLeft: minutesLeft(flagged.state, now) };
  }
  const severity = previous.severity + LOCKOUT.severityPerFlaggedFailure;
  return {
    granted: false,
    state: { ...previous, severity },
    escalated: previous.severity < LOCKOUT.escalateAtSeverity && severity >= LOCKOUT.escalateAtSeverity,
    minutesLeft: LOCKOUT.lockMs / 60_000,
  };
}

/**
 * A checked password was wrong: its reserved attempt stays counted, and the e-mail locks once 5 are
 * counted. `current` is the state now (other attempts may have been counted meanwhile).
 */
export function confirmFailure(current: LockoutState, now: Date): { state: LockoutState; lockedNow: boolean; remaining: number } {
  if (isLocked(current, now)) return { state: current, lockedNow: false, remaining: 0 };
  if (current.failedCount >= LOCKOUT.maxAttempts) {
    return { state: { ...current, lockedUntil: new Date(now.getTime() + LOCKOUT.lockMs) }, lockedNow: true, remaining: 0 };
  }
  return { state: current, lockedNow: false, remaining: LOCKOUT.maxAttempts - current.failedCount };
}

/** One failed attempt applied at once (the sequential model reserve + confirm must match). */
export function registerFailure(previous: LockoutState, now: Date, flagged = false): FailureOutcome {
  const counted = countAttempt(previous, now, flagged);
  const lockedNow = !counted.locked && counted.state.failedCount >= LOCKOUT.maxAttempts;
  const state: LockoutState = lockedNow ? { ...counted.state, lockedUntil: new Date(now.getTime() + LOCKOUT.lockMs) } : counted.state;
  return {
    state,
    lockedNow,
    remaining: Math.max(0, LOCKOUT.maxAttempts - state.failedCount),
    escalated: counted.escalated,
  };
}
