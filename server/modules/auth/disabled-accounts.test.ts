import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { latestEmail, tokenFrom } from '../../../test/helpers/mail';

describe.each(ENGINES)('disabled accounts (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('cannot sign in, even with the right password, and no session is left behind', async () => {
    const user = await app.services.users.createUser({ email: 'off@example.com', password: 'Corr3ct!Horse#Battery', role: 'admin', name: 'Off' });
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', user.id).execute();
    const client = app.client();
    const response = await client.post('/api/v1/auth/sign-in', { email: 'off@example.com', password: 'Corr3ct!Horse#Battery' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'AUTH_ERROR', message: 'Sign in failed. Please check your credentials.' } });
    expect(response.cookies.some((c) => c.name.includes('session_token') && c.value !== '')).toBe(false);
    expect(await app.database.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    expect((await client.get('/api/v1/auth/session')).json()).toEqual({ user: null });
  });

  it('a wrong password on a disabled account still answers like any wrong password', async () => {
    const user = await app.services.users.createUser({ email: 'off2@example.com', password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Off' });
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', user.id).execute();
    const response = await app.client().post('/api/v1/auth/sign-in', { email: 'off2@example.com', password: 'Wr0ng!Horse#Battery' });
    expect(response.json()).toEqual({ error: { code: 'AUTH_ERROR', message: 'Invalid email or password. 4 attempt(s) remaining.' } });
  });

  it('cannot be signed in by a verification link either', async () => {
    const client = app.client();
    await client.post('/api/v1/auth/sign-up', { name: 'Late Off', email: 'late-off@example.com', password: 'Str0ng!Passw0rd', confirmPassword: 'Str0ng!Passw0rd' });
    // The sign-up job creates the account (this app's workers are not started).
    await app.queue.start();
    await app.queue.waitForIdle();
    const user = await app.database.db.selectFrom('users').select('id').where('email', '=', 'late-off@example.com').executeTakeFirstOrThrow();
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', user.id).execute();
    const mail = await latestEmail(app.database.db, 'late-off@example.com', 'verification');
    const response = await client.get(`/api/v1/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.link))}`);
    expect(response.headers.location).toBe('/login?error=verification');
    expect(await app.database.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute()).toEqual([]);
  });
});
