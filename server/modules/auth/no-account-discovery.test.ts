import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { latestEmail } from '../../../test/helpers/mail';
import type { PasswordObserver } from '../../lib/password-hash';

const PASSWORD = 'Str0ng!Passw0rd';

/** Counts the hashes computed (password-hash.ts reports each one). */
class HashCounter implements PasswordObserver {
  hashes = 0;
  hashed(): void {
    this.hashes += 1;
  }
}

/**
 * Sign-up, forgot-password and resend-verification do the same work for a known address as for an unknown one (the
 * timing is measured in `npm run bench -- --only=sign-in`): the request hashes (sign-up) and
 * enqueues one job of the same kind; only the job looks the address up.
 */
describe.each(ENGINES)('no account discovery by sign-up or forgot-password (%s)', (engine) => {
  const counter = new HashCounter();
  let app: TestApp;

  beforeAll(async () => {
    // Workers off: the test looks at what each request leaves behind before any job runs.
    app = await createTestApp(engine, { startJobs: false, passwordObserver: counter });
  });
  afterAll(async () => {
    await app.destroy();
  });

  const jobsNow = () =>
    app.database.db
      .selectFrom('jobs')
      .select(['id', 'name', 'payload', 'maxAttempts'])
      .where('status', '=', 'queued')
      .orderBy('id')
      .execute();
  const emailsTo = (to: string) => app.database.db.selectFrom('emails').select(['kind', 'subject']).where('toAddress', '=', to).execute();
  const usersWith = async (email: string) =>
    app.database.db.selectFrom('users').select(['id', 'fullName', 'emailVerified']).where('email', '=', email).execute();

  async function afterRequest(send: () => Promise<{ statusCode: number; body: string }>) {
    const before = new Set((await jobsNow()).map((j) => j.id));
    const hashesBefore = counter.hashes;
    const response = await send();
    const jobs = (await jobsNow()).filter((j) => !before.has(j.id));
    return { status: response.statusCode, body: response.body, jobs, hashes: counter.hashes - hashesBefore };
  }

  async function runJobs(): Promise<void> {
    await app.queue.start();
    await app.queue.waitForIdle();
    await app.queue.stop();
  }

  it('sign-up: the same answer, one hash and one job of the same shape for a new and a known address; the job sends the right e-mail', async () => {
    const known = 'owner-eq@example.com';
    await app.services.users.createUser({ email: known, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Owner' });
    const fresh = 'fresh-eq@example.com';
    const signUp = (email: string) => () =>
      app.client().post('/api/v1/auth/sign-up', { name: 'Some One', email, password: PASSWORD, confirmPassword: PASSWORD });

    const forKnown = await afterRequest(signUp(known));
    const forFresh = await afterRequest(signUp(fresh));
    expect(forKnown.status).toBe(201);
    expect(forFresh.status).toBe(201);
    expect(JSON.parse(forKnown.body)).toEqual({ verificationSent: true, email: known });
    expect(JSON.parse(forFresh.body)).toEqual({ verificationSent: true, email: fresh });
    expect([forKnown.hashes, forFresh.hashes]).toEqual([1, 1]);

    // One job each, same name and the same payload keys; nothing else written by the request.
    for (const { jobs } of [forKnown, forFresh]) {
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ name: 'auth.account-mail', payload: { kind: 'sign-up' } });
      expect(Object.keys(jobs[0]!.payload as object).sort()).toEqual(['email', 'kind', 'name', 'passwordHash', 'userId']);
      // The hash travels, never the password itself.
      expect((jobs[0]!.payload as { passwordHash: string }).passwordHash).toMatch(/^scrypt\$/u);
      expect(JSON.stringify(jobs[0]!.payload)).not.toContain(PASSWORD);
    }
    expect(await usersWith(fresh)).toEqual([]);
    expect(await emailsTo(known)).toEqual([]);

    await runJobs();
    // The owner of the known address is told; the account is left as it was.
    expect(await emailsTo(known)).toEqual([expect.objectContaining({ kind: 'account_exists' })]);
    expect(await usersWith(known)).toEqual([expect.objectContaining({ fullName: 'Owner', emailVerified: true })]);
    // The new address gets its account (the id the request chose) and a verification link.
    const freshJob = forFresh.jobs[0]!.payload as { userId: string };
    expect(await usersWith(fresh)).toEqual([{ id: freshJob.userId, fullName: 'Some One', emailVerified: false }]);
    expect(await emailsTo(fresh)).toEqual([expect.objectContaining({ kind: 'verification' })]);
    expect((await latestEmail(app.database.db, fresh, 'verification')).link).toContain('/api/v1/auth/verify-email?token=');
    const role = await app.database.db.selectFrom('userRoles').select('role').where('userId', '=', freshJob.userId).executeTakeFirstOrThrow();
    expect(role.role).toBe('client');
    // Done, the jobs keep no password hash (the rows stay for days).
    const done = await app.database.db
      .selectFrom('jobs')
      .select(['status', 'payload'])
      .where('id', 'in', [forKnown.jobs[0]!.id, forFresh.jobs[0]!.id])
      .execute();
    expect(done).toEqual([
      { status: 'completed', payload: {} },
      { status: 'completed', payload: {} },
    ]);
  });

  it('a sign-up job run again after it created the account sends the verification link, not "account exists"', async () => {
    const email = 'retried-eq@example.com';
    const userId = '2b8f4a52-3f7e-4d55-9a57-6a3f2b0c9d11';
    await app.services.auth.runAccountMail({ kind: 'sign-up', userId, name: 'Re Try', email, passwordHash: 'scrypt$32768$8$1$c2FsdA$a2V5' });
    await app.database.db.deleteFrom('emails').where('toAddress', '=', email).execute();
    await app.services.auth.runAccountMail({ kind: 'sign-up', userId, name: 'Re Try', email, passwordHash: 'scrypt$32768$8$1$c2FsdA$a2V5' });
    expect(await emailsTo(email)).toEqual([expect.objectContaining({ kind: 'verification' })]);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it('forgot-password: the same answer and the same job for a known and an unknown address; only the known one gets a link', async () => {
    const known = 'reset-eq@example.com';
    await app.services.users.createUser({ email: known, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Reset Me' });
    const unknown = 'nobody-eq@example.com';
    const forgot = (email: string) => () => app.client().post('/api/v1/auth/forgot-password', { email });

    const forKnown = await afterRequest(forgot(known));
    const forUnknown = await afterRequest(forgot(unknown));
    expect([forKnown.status, forUnknown.status]).toEqual([200, 200]);
    expect(forUnknown.body).toBe(forKnown.body);
    expect([forKnown.hashes, forUnknown.hashes]).toEqual([0, 0]);
    expect(forKnown.jobs.map((j) => j.payload)).toEqual([{ kind: 'password-reset', email: known }]);
    expect(forUnknown.jobs.map((j) => j.payload)).toEqual([{ kind: 'password-reset', email: unknown }]);
    // Nothing about the account is read or written by the request: no reset token yet.
    const tokens = await app.database.db.selectFrom('verifications').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();

    await runJobs();
    expect(await emailsTo(known)).toEqual([expect.objectContaining({ kind: 'password_reset' })]);
    expect(await emailsTo(unknown)).toEqual([]);
    const tokensAfter = await app.database.db.selectFrom('verifications').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(tokensAfter.n).toBe(tokens.n + 1);
  });

  it('resend-verification: the same answer and the same job for an unverified, a verified and an unknown address; only the unverified one gets a link', async () => {
    const unverified = 'unverified-eq@example.com';
    await app.services.auth.runAccountMail({ kind: 'sign-up', userId: '5d0c2a8e-1b7f-4e3a-9c6d-2f4b8a1e7c33', name: 'Un Verified', email: unverified, passwordHash: 'scrypt$32768$8$1$c2FsdA$a2V5' });
    await app.database.db.deleteFrom('emails').where('toAddress', '=', unverified).execute();
    const verified = 'verified-eq@example.com';
    await app.services.users.createUser({ email: verified, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Veri Fied' });
    const unknown = 'nobody-resend-eq@example.com';
    const resend = (email: string) => () => app.client().post('/api/v1/auth/resend-verification', { email });

    const answers = [];
    for (const email of [unverified, verified, unknown]) answers.push({ email, ...(await afterRequest(resend(email))) });
    for (const { email, status, body, jobs } of answers) {
      expect(status).toBe(200);
      expect(JSON.parse(body)).toEqual({ sent: true });
      expect(jobs.map((j) => j.payload)).toEqual([{ kind: 'resend-verification', email }]);
    }
    expect(await emailsTo(unverified)).toEqual([]);

    await runJobs();
    expect(await emailsTo(unverified)).toEqual([expect.objectContaining({ kind: 'verification' })]);
    expect(await emailsTo(verified)).toEqual([]);
    expect(await emailsTo(unknown)).toEqual([]);
  });
});
