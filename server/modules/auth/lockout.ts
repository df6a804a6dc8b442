/**
 * Sign-in lockout (spec part 1 §4, §9): 5 failed attempts for one e-mail within a 15-minute
 * window block it for 30 minutes; the counter starts over once 15 minutes have passed since the
 * window opened (so also after 15 quiet minutes); severity rises by 1 per failure, by 3 for a
 * flagged one (an attempt made while locked), and reaching 10 escalates (a security event).
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
  const windowExpired =
    previous.windowStartedAt === null || now.getTime() - previous.windowStartedAt.getTime() >= LOCKOUT.windowMs;
  const locked = isLocked(previous, now);
  // A new window starts unless the e-mail is still locked.
  const fresh = windowExpired && !locked;
  const increment = flagged ? LOCKOUT.severityPerFlaggedFailure : LOCKOUT.severityPerFailure;
  const failedCount = fresh ? 1 : previous.failedCount + 1;
  const severity = (fresh ? 0 : previous.severity) + increment;
  const lockedNow = !locked && failedCount >= LOCKOUT.maxAttempts;
  const state: LockoutState = {
    failedCount,
    windowStartedAt: fresh ? now : previous.windowStartedAt,
    lastFailedAt: now,
    lockedUntil: lockedNow ? new Date(now.getTime() + LOCKOUT.lockMs) : previous.lockedUntil,
    severity,
  };
  const previousSeverity = fresh ? 0 : previous.severity;
  return {
    state,
    lockedNow,
    remaining: Math.max(0, LOCKOUT.maxAttempts - failedCount),
    escalated: previousSeverity < LOCKOUT.escalateAtSeverity && severity >= LOCKOUT.escalateAtSeverity,
  };
}
