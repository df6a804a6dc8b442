import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { ManualClock } from '../../lib/clock';

const PASSWORD = 'Corr3ct!Horse#Battery';
const WRONG = 'Wr0ng!Horse#Battery';

const invalid = (remaining: number) => ({
  error: { code: 'AUTH_ERROR', message: `Invalid email or password. ${remaining} attempt(s) remaining.` },
});
const locked = (minutes: number) => ({
  error: { code: 'RATE_LIMITED', message: `Too many failed attempts. Please try again in ${minutes} minute(s).`, retryAfterSeconds: minutes * 60 },
});

describe.each(ENGINES)('sign-in lockout (%s)', (engine) => {
  const clock = new ManualClock('2026-03-01T09:00:00Z');
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
    app = await createTestApp(engine, { clock });
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
});
