import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { ManualClock } from '../../lib/clock';
import { LockoutRepository } from './lockout.repository';
import type { PasswordObserver } from '../../lib/password-hash';

const PASSWORD = 'Corr3ct!Horse#Battery';
const WRONG = 'Wr0ng!Horse#Battery';

const invalid = (remaining: number) => ({
  error: { code: 'AUTH_ERROR', message: `Invalid email or password. ${remaining} attempt(s) remaining.` },
});
const locked = (minutes: number) => ({
  error: { code: 'RATE_LIMITED', message: `Too many failed attempts. Please try again in ${minutes} minute(s).`, retryAfterSeconds: minutes * 60 },
});

/** Counts the password checks better-auth makes (password-hash.ts reports each one). */
class VerificationCounter implements PasswordObserver {
  verifications = 0;
  /** Checks that found the password right. */
  matches = 0;
  verified(match: boolean): void {
    this.verifications += 1;
    if (match) this.matches += 1;
  }
  reset(): void {
    this.verifications = 0;
    this.matches = 0;
  }
}

describe.each(ENGINES)('sign-in lockout (%s)', (engine) => {
  const clock = new ManualClock('2026-03-01T09:00:00Z');
  const counter = new VerificationCounter();
  let app: TestApp;
  let n = 0;

  /** A verified account with a fresh address. */
  async function account(): Promise<string> {
    n += 1;
    const email = `lockout-${n}@example.com`;
    await app.services.users.createUser({ email, password: PASSWORD, role: 'client', name: 'Lock Out' });
    return email;
  }

  async function signIn(email: string, password: string, target: TestApp = app) {
    const response = await target.client().post('/api/v1/auth/sign-in', { email, password });
    return { status: response.statusCode, body: response.json(), retryAfter: response.headers['retry-after'] };
  }

  beforeAll(async () => {
    app = await createTestApp(engine, { clock, passwordObserver: counter });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('answers 4, 3, 2, 1 attempts remaining, locks on the 5th failure for 30 minutes, then lets the right password in', async () => {
    const email = await account();
    for (const remaining of [4, 3, 2, 1]) {
      const answer = await signIn(email, WRONG);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(invalid(remaining));
      clock.advanceMinutes(1);
    }
    const fifth = await signIn(email, WRONG);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual(locked(30));
    expect(fifth.retryAfter).toBe('1800');

    // Even the right password is refused while locked, with the minutes left.
    clock.advanceMinutes(10);
    const right = await signIn(email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toEqual(locked(20));
    clock.advanceMinutes(19.5);
    expect((await signIn(email, PASSWORD)).body).toEqual(locked(1));

    clock.advanceMinutes(0.5);
    const after = await signIn(email, PASSWORD);
    expect(after.status).toBe(200);
    expect(after.body.user.email).toBe(email);

    // A success clears the ledger: the next failure is the first again.
    expect((await signIn(email, WRONG)).body).toEqual(invalid(4));
  });

  it('keeps counting while failures keep coming, and starts again after 15 quiet minutes', async () => {
    const email = await account();
    expect((await signIn(email, WRONG)).body).toEqual(invalid(4));
    // 30 minutes after the first failure, but never 15 minutes without one.
    for (const remaining of [3, 2, 1]) {
      clock.advanceMinutes(10);
      expect((await signIn(email, WRONG)).body).toEqual(invalid(remaining));
    }
    clock.advanceMinutes(15);
    expect((await signIn(email, WRONG)).body).toEqual(invalid(4));
  });

  it('gives an unknown e-mail exactly the answers a wrong password gets (no account discovery)', async () => {
    const known = await account();
    const unknown = `nobody-${n}@example.com`;
    // 4 attempts remaining … 1, then locked, then locked with the minutes left.
    for (let i = 0; i < 6; i++) {
      const a = await signIn(known, WRONG);
      const b = await signIn(unknown, WRONG);
      expect(b).toEqual(a);
      if (i >= 4) expect(a.status).toBe(429);
    }
  });

  it('records auth.account_locked and, once severity reaches 10, auth.login_escalated', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) await signIn(email, WRONG); // severity 5, locked
    await signIn(email, PASSWORD); // flagged: 8
    const events = () =>
      app.database.db.selectFrom('securityEvents').select(['type', 'severity', 'details']).where('email', '=', email).orderBy('type').execute();
    expect((await events()).map((e) => e.type)).toEqual(['auth.account_locked']);

    await signIn(email, WRONG); // flagged: 11
    await signIn(email, WRONG); // 14: already escalated, not recorded again
    const recorded = await events();
    expect(recorded.map((e) => e.type)).toEqual(['auth.account_locked', 'auth.login_escalated']);
    expect(recorded[1]).toMatchObject({ severity: 'critical', details: { severity: 11 } });
  });

  it('keeps the ledger in the database: a restarted app (or another instance) still refuses', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) await signIn(email, WRONG);
    const other = await createTestApp(engine, { clock, database: await secondInstance(app.database) });
    try {
      expect((await signIn(email, PASSWORD, other)).body).toEqual(locked(30));
      clock.advanceMinutes(30);
      expect((await signIn(email, PASSWORD, other)).status).toBe(200);
    } finally {
      await other.destroy();
    }
  });

  it('checks at most 5 passwords for 100 concurrent wrong attempts; the other 95 answer 429 with the lockout message', async () => {
    const email = await account();
    counter.reset();
    const answers = await Promise.all(Array.from({ length: 100 }, () => signIn(email, WRONG)));
    expect(counter.verifications).toBe(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(95);
    for (const answer of refused) expect(answer.body).toEqual(locked(30));
    // The 5 that were checked answer like sequential failures would (remaining attempts, or locked).
    for (const answer of answers.filter((a) => a.status !== 429)) expect(answer).toMatchObject({ status: 401, body: { error: { code: 'AUTH_ERROR' } } });
    // Locked for real: the right password is refused afterwards without being checked.
    expect((await signIn(email, PASSWORD)).body).toEqual(locked(30));
    expect(counter.verifications).toBe(5);
  });

  it('with the right password 10th and 20th in a burst of 30, checks 5 passwords and signs in only one that was checked', async () => {
    const email = await account();
    counter.reset();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(email, i === 9 || i === 19 ? PASSWORD : WRONG)));
    expect(counter.verifications).toBe(5);
    // Which requests reach the ledger first is up to the scheduler; a right password that was not
    // among the 5 checked is refused like the rest.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(counter.matches);
    for (const i of [9, 19]) if (answers[i]!.status !== 200) expect(answers[i]!.body).toEqual(locked(30));
    clock.advanceMinutes(30);
  });

  it('does not sign in with the right password in a concurrent burst after the lock, and checks no password', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) await signIn(email, WRONG);
    counter.reset();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(email, i === 9 || i === 19 ? PASSWORD : WRONG)));
    expect(answers.filter((a) => a.status !== 429)).toEqual([]);
    expect(answers[9]!.body).toEqual(locked(30));
    expect(counter.verifications).toBe(0);
    const user = await app.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(await app.database.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    clock.advanceMinutes(30);
  });

  it('the ledger hands out exactly 5 of 50 concurrent reservations, and a success does not clear a lock placed meanwhile', async () => {
    const ledger = new LockoutRepository(app.database.db);
    const email = `ledger-${n}@example.com`;
    const now = clock.now();
    const reservations = await Promise.all(Array.from({ length: 50 }, () => ledger.reserve(email, now)));
    expect(reservations.filter((r) => r.granted)).toHaveLength(5);
    // One checked password fails and locks; the right one, checked at the same time, finishes after.
    expect(await ledger.confirmFailure(email, now)).toMatchObject({ lockedNow: true });
    await ledger.clearUnlessLocked(email, now);
    expect((await ledger.reserve(email, now)).granted).toBe(false);
    // Not locked: a success clears the ledger.
    const other = `ledger-${n}-ok@example.com`;
    await ledger.reserve(other, now);
    await ledger.clearUnlessLocked(other, now);
    expect(await app.database.db.selectFrom('loginAttempts').select('email').where('email', '=', other).execute()).toEqual([]);
  });

  it('takes an attempt even while successes clear the ledger at the same moment (no lost row, no error)', async () => {
    const ledger = new LockoutRepository(app.database.db);
    const email = `ledger-race-${n}@example.com`;
    const now = clock.now();
    for (let round = 0; round < 10; round++) {
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? ledger.clearUnlessLocked(email, now) : ledger.reserve(email, now))),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
  });

  it('shares the limit between two app instances on one database: 100 concurrent attempts, 5 checks in all', async () => {
    const email = await account();
    const otherCounter = new VerificationCounter();
    const other = await createTestApp(engine, { clock, database: await secondInstance(app.database), passwordObserver: otherCounter });
    try {
      counter.reset();
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn(email, WRONG, i % 2 ? other : app)));
      expect(counter.verifications + otherCounter.verifications).toBe(5);
      expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(95);
    } finally {
      await other.destroy();
    }
  });
});
