import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { latestEmail, tokenFrom } from '../../../test/helpers/mail';

const NEW_PASSWORD = 'N3w!Sunrise#Garden';
const INVALID_LINK = { error: { code: 'GONE', message: 'This password reset link is invalid or has expired.' } };

describe.each(ENGINES)('reset and verification tokens (%s)', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  async function requestReset(email: string): Promise<string> {
    const response = await app.client().post('/api/v1/auth/forgot-password', { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sent: true });
    await app.queue.waitForIdle();
    const mail = await latestEmail(app.database.db, email, 'password_reset');
    expect(mail.link).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/reset-password\\?token=`, 'u'));
    return tokenFrom(mail.link);
  }

  const check = async (token: string) => (await app.client().post('/api/v1/auth/reset-password/check', { token })).json<{ valid: boolean }>();
  const reset = (token: string, password = NEW_PASSWORD) =>
    app.client().post('/api/v1/auth/reset-password', { token, password, confirmPassword: password });

  /** Moves every token of a user past its expiry (better-auth compares with the real time). */
  async function expireTokensOf(userId: string) {
    await app.database.db
      .updateTable('verifications')
      .set({ expiresAt: sql<Date>`now() - interval '1 minute'` })
      .where('value', '=', userId)
      .execute();
  }

  async function verificationsContain(text: string): Promise<boolean> {
    const rows = await app.database.db.selectFrom('verifications').select(['identifier', 'value']).execute();
    return rows.some((r) => r.identifier.includes(text) || r.value.includes(text));
  }

  it('a reset link works once: checked valid, used, then valid no more and answered 410', async () => {
    const { email, password, userId } = await signedInClient(app, 'client');
    const token = await requestReset(email);

    expect(await check(token)).toEqual({ valid: true });
    const first = await reset(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });

    expect(await check(token)).toEqual({ valid: false });
    const second = await reset(token, 'An0ther!Sunrise#Garden');
    expect(second.statusCode).toBe(410);
    expect(second.json()).toEqual(INVALID_LINK);

    expect((await app.client().post('/api/v1/auth/sign-in', { email, password })).statusCode).toBe(401);
    expect((await app.client().post('/api/v1/auth/sign-in', { email, password: NEW_PASSWORD })).statusCode).toBe(200);
    const events = await app.database.db.selectFrom('securityEvents').select('type').where('userId', '=', userId).execute();
    expect(events.map((e) => e.type)).toContain('auth.password_reset');
  });

  it('an expired reset link is invalid and answered 410', async () => {
    const { email, userId } = await signedInClient(app, 'client');
    const token = await requestReset(email);
    await expireTokensOf(userId);
    expect(await check(token)).toEqual({ valid: false });
    const response = await reset(token);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual(INVALID_LINK);
  });

  it('an unknown reset token is invalid and answered 410', async () => {
    expect(await check('not-a-real-token')).toEqual({ valid: false });
    expect((await reset('not-a-real-token')).json()).toEqual(INVALID_LINK);
  });

  it('resetting revokes every existing session and lifts a lockout', async () => {
    const { client, email } = await signedInClient(app, 'manager');
    const other = app.client();
    await other.signIn(email, 'Corr3ct!Horse#Battery');
    for (let i = 0; i < 5; i++) await app.client().post('/api/v1/auth/sign-in', { email, password: 'Wr0ng!Guess#Again' });
    expect((await app.client().post('/api/v1/auth/sign-in', { email, password: 'Corr3ct!Horse#Battery' })).statusCode).toBe(429);

    const token = await requestReset(email);
    expect((await reset(token)).statusCode).toBe(200);

    for (const c of [client, other]) expect((await c.get('/api/v1/auth/session')).json()).toEqual({ user: null });
    expect((await app.client().post('/api/v1/auth/sign-in', { email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('forgot-password answers an unknown address exactly like a known one and sends nothing', async () => {
    const { email } = await signedInClient(app, 'client');
    const count = async () => Number((await app.database.db.selectFrom('emails').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const known = await app.client().post('/api/v1/auth/forgot-password', { email });
    // The link is sent by a job (the request does the same work for every address).
    await app.queue.waitForIdle();
    const before = await count();
    const unknown = await app.client().post('/api/v1/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    await app.queue.waitForIdle();
    expect(await count()).toBe(before);
  });

  it('stores reset tokens hashed: the token in the e-mail appears nowhere in the verifications table', async () => {
    const { email } = await signedInClient(app, 'client');
    const token = await requestReset(email);
    expect(await check(token)).toEqual({ valid: true });
    expect(await verificationsContain(token)).toBe(false);
  });

  describe('verification links', () => {
    async function signUp(email: string): Promise<{ token: string; userId: string }> {
      const response = await app.client().post('/api/v1/auth/sign-up', {
        name: 'Vera Fied',
        email,
        password: 'Str0ng!Passw0rd',
        confirmPassword: 'Str0ng!Passw0rd',
      });
      expect(response.statusCode).toBe(201);
      await app.queue.waitForIdle();
      const mail = await latestEmail(app.database.db, email, 'verification');
      const user = await app.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      return { token: tokenFrom(mail.link), userId: user.id };
    }

    const follow = (client: TestClient, token: string) => client.get(`/api/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
    const verified = async (userId: string) =>
      (await app.database.db.selectFrom('users').select('emailVerified').where('id', '=', userId).executeTakeFirstOrThrow()).emailVerified;

    it('verify and sign in once; the same link then fails', async () => {
      const { token, userId } = await signUp('vera-once@example.com');
      const client = app.client();
      expect((await follow(client, token)).headers.location).toBe('/dashboard?verified=1');
      expect(await verified(userId)).toBe(true);
      expect((await client.get('/api/v1/auth/session')).json().user.email).toBe('vera-once@example.com');

      const again = app.client();
      expect((await follow(again, token)).headers.location).toBe('/login?error=verification');
      expect((await again.get('/api/v1/auth/session')).json()).toEqual({ user: null });
    });

    it('an expired link neither verifies nor signs in', async () => {
      const { token, userId } = await signUp('vera-late@example.com');
      await expireTokensOf(userId);
      const client = app.client();
      expect((await follow(client, token)).headers.location).toBe('/login?error=verification');
      expect(await verified(userId)).toBe(false);
      expect((await client.get('/api/v1/auth/session')).json()).toEqual({ user: null });
    });

    it('are stored hashed', async () => {
      const { token } = await signUp('vera-hashed@example.com');
      expect(await verificationsContain(token)).toBe(false);
    });

    it('resend-verification answers the same for unknown addresses and sends nothing to them', async () => {
      await signUp('vera-resend@example.com');
      const known = await app.client().post('/api/v1/auth/resend-verification', { email: 'vera-resend@example.com' });
      const unknown = await app.client().post('/api/v1/auth/resend-verification', { email: 'nobody-resend@example.com' });
      expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
      expect(unknown.json()).toEqual(known.json());
      await app.queue.waitForIdle();
      const sent = await app.database.db.selectFrom('emails').select('toAddress').where('toAddress', 'like', '%resend@example.com').execute();
      expect(sent.map((e) => e.toAddress).sort()).toEqual(['vera-resend@example.com', 'vera-resend@example.com']);
    });
  });
});
