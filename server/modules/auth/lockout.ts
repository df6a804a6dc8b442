/**
 * Sign-in lockout (spec part 1 §4, §9): 5 failed attempts for one e-mail, each within 15 minutes of
 * the previous one, block it for 30 minutes; the counter resets after 15 minutes without a failure
 * (and when a lock has run out), not merely 15 minutes after the first failure; severity
 * rises by 1 per failure, by 3 for a flagged one (an attempt made while locked), and reaching 10
 * escalates (a security event).
 *
 * Pure functions over the stored state; lockout.repository.ts applies them under a row lock.
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

/** Whole minutes left, rounded up ("try again in N minute(s)"); at least 1 while locked. */
export function minutesLeft(state: LockoutState, now: Date): number {
  if (!state.lockedUntil) return 0;
  return Math.max(1, Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 60_000));
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

export function registerFailure(previous: LockoutState, now: Date, flagged = false): FailureOutcome {
  const locked = isLocked(previous, now);
  // Quiet: no failure for a whole window. Failures keep counting as long as they keep coming,
  // however long ago the first one was (the spec's "resets after 15 minutes of inactivity").
  const quiet = previous.lastFailedAt === null || now.getTime() - previous.lastFailedAt.getTime() >= LOCKOUT.windowMs;
  const lockRanOut = previous.lockedUntil !== null && !locked;
  // Nothing starts over while the e-mail is locked; once a lock has run out, 5 new attempts.
  const freshCount = !locked && (quiet || lockRanOut);
  const freshSeverity = !locked && quiet;
  const increment = flagged ? LOCKOUT.severityPerFlaggedFailure : LOCKOUT.severityPerFailure;
  const failedCount = freshCount ? 1 : previous.failedCount + 1;
  const previousSeverity = freshSeverity ? 0 : previous.severity;
  const severity = previousSeverity + increment;
  const lockedNow = !locked && failedCount >= LOCKOUT.maxAttempts;
  const state: LockoutState = {
    failedCount,
    windowStartedAt: freshCount ? now : previous.windowStartedAt,
    lastFailedAt: now,
    lockedUntil: lockedNow ? new Date(now.getTime() + LOCKOUT.lockMs) : freshCount ? null : previous.lockedUntil,
    severity,
  };
  return {
    state,
    lockedNow,
    remaining: Math.max(0, LOCKOUT.maxAttempts - failedCount),
    escalated: previousSeverity < LOCKOUT.escalateAtSeverity && severity >= LOCKOUT.escalateAtSeverity,
  };
}
