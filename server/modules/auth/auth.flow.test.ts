import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { latestEmail, tokenFrom } from '../../../test/helpers/mail';

describe.each(ENGINES)('sign-up to sign-out (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('signs up, verifies by e-mail link, signs in and out', async () => {
    const client = app.client();
    const signUp = await client.post('/api/v1/auth/sign-up', {
      name: 'Ann Lee',
      email: '  Ann.Lee@Example.COM ',
      password: 'Str0ng!Passw0rd',
      confirmPassword: 'Str0ng!Passw0rd',
    });
    expect(signUp.statusCode).toBe(201);
    expect(signUp.json()).toEqual({ verificationSent: true, email: 'ann.lee@example.com' });
    // The account is created by the sign-up job (auth.job.ts).
    await app.queue.waitForIdle();

    // Not verified yet: the right password is refused with the spec's code and a new link is sent.
    const early = await client.post('/api/v1/auth/sign-in', { email: 'ann.lee@example.com', password: 'Str0ng!Passw0rd' });
    expect(early.statusCode).toBe(401);
    expect(early.json().error).toMatchObject({ code: 'AUTH_ERROR', details: { reason: 'email_not_verified' } });

    await app.queue.waitForIdle();
    const mail = await latestEmail(app.database.db, 'ann.lee@example.com', 'verification');
    expect(mail.status).toBe('stored');
    expect(mail.link).toContain('/api/v1/auth/verify-email?token=');

    const verify = await client.get(new URL(mail.link as string).pathname + new URL(mail.link as string).search);
    expect(verify.statusCode).toBe(302);
    expect(verify.headers.location).toBe('/dashboard?verified=1');
    const session = await client.get('/api/v1/auth/session');
    expect(session.json().user).toMatchObject({ email: 'ann.lee@example.com', name: 'Ann Lee', role: 'client', emailVerified: true });

    const signOut = await client.post('/api/v1/auth/sign-out');
    expect(signOut.statusCode).toBe(204);
    expect((await client.get('/api/v1/auth/session')).json()).toEqual({ user: null });

    const signIn = await client.post('/api/v1/auth/sign-in', { email: 'ANN.LEE@example.com', password: 'Str0ng!Passw0rd' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ twoFactorRequired: false, user: { email: 'ann.lee@example.com' } });
    expect((await client.get('/api/v1/auth/session')).json().user.email).toBe('ann.lee@example.com');

    // The verification link worked once.
    const again = await app.client().get(`/api/v1/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.link))}`);
    expect(again.headers.location).toBe('/login?error=verification');
  });

  it('answers sign-up for an existing address exactly like a new one, and tells the owner by e-mail', async () => {
    const { email } = { email: 'owner@example.com' };
    await app.services.users.createUser({ email, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Owner' });
    const response = await app.client().post('/api/v1/auth/sign-up', {
      name: 'Someone Else',
      email,
      password: 'An0ther!Passw0rd',
      confirmPassword: 'An0ther!Passw0rd',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ verificationSent: true, email });
    await app.queue.waitForIdle();
    expect((await latestEmail(app.database.db, email)).kind).toBe('account_exists');
  });
});
