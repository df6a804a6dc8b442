import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { secretFromUri, totp, wrongTotp } from '../../../test/helpers/totp';

describe.each(ENGINES)('two-factor authentication (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  async function twoFactorEnabledInDb(userId: string): Promise<boolean> {
    const row = await app.database.db.selectFrom('users').select('twoFactorEnabled').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.twoFactorEnabled;
  }

  async function securityEventTypes(userId: string): Promise<string[]> {
    const rows = await app.database.db.selectFrom('securityEvents').select('type').where('userId', '=', userId).orderBy('createdAt').execute();
    return rows.map((r) => r.type);
  }

  /** Enables and confirms TOTP; returns the secret and recovery codes. */
  async function turnOn(client: TestClient, password: string) {
    const setup = await client.post('/api/v1/me/two-factor/enable', { password });
    expect(setup.statusCode).toBe(200);
    const { totpUri, backupCodes } = setup.json<{ totpUri: string; backupCodes: string[] }>();
    const secret = secretFromUri(totpUri);
    const confirmed = await client.post('/api/v1/me/two-factor/confirm', { code: totp(secret) });
    expect(confirmed.statusCode).toBe(200);
    return { secret, backupCodes };
  }

  it('sets up TOTP with a QR code and recovery codes, but stays off until a code confirms it', async () => {
    const { client, userId, email, password } = await signedInClient(app, 'client');

    const setup = await client.post('/api/v1/me/two-factor/enable', { password });
    expect(setup.statusCode).toBe(200);
    const body = setup.json();
    expect(body.totpUri).toMatch(/^otpauth:\/\/totp\/Parley:/u);
    expect(new URL(body.totpUri).searchParams.get('issuer')).toBe('Parley');
    expect(decodeURIComponent(body.totpUri)).toContain(email);
    expect(body.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/u);
    expect(body.backupCodes).toHaveLength(10);
    expect(new Set(body.backupCodes).size).toBe(10);

    // Pending: not enabled, and sign-in does not ask for a code yet.
    expect(await twoFactorEnabledInDb(userId)).toBe(false);
    expect((await client.get('/api/v1/me')).json().mfaEnabled).toBe(false);
    const signIn = await app.client().post('/api/v1/auth/sign-in', { email, password });
    expect(signIn.json().twoFactorRequired).toBe(false);

    const secret = secretFromUri(body.totpUri);
    const wrong = await client.post('/api/v1/me/two-factor/confirm', { code: wrongTotp(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { code: 'Invalid verification code. Please try again.' } });
    expect(await twoFactorEnabledInDb(userId)).toBe(false);

    const confirmed = await client.post('/api/v1/me/two-factor/confirm', { code: totp(secret) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ enabled: true });
    expect(await twoFactorEnabledInDb(userId)).toBe(true);
    // better-auth rotated the session; the browser keeps working with the new cookie.
    expect((await client.get('/api/v1/me')).json().mfaEnabled).toBe(true);
    expect(await securityEventTypes(userId)).toContain('auth.two_factor_enabled');
  });

  it('refuses to start setup with a wrong password, a malformed code, or a code before setup', async () => {
    const { client, userId } = await signedInClient(app, 'client');
    const wrong = await client.post('/api/v1/me/two-factor/enable', { password: 'Wrong-passw0rd!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ password: 'Password is incorrect' });

    const malformed = await client.post('/api/v1/me/two-factor/confirm', { code: '12ab' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields.code).toBe('Enter the 6-digit code from your authenticator app');

    const early = await client.post('/api/v1/me/two-factor/confirm', { code: '123456' });
    expect(early.statusCode).toBe(409);
    expect(await twoFactorEnabledInDb(userId)).toBe(false);
  });

  it('asks for the code at sign-in and accepts a TOTP from the authenticator', async () => {
    const { client, userId, email, password } = await signedInClient(app, 'client');
    const { secret } = await turnOn(client, password);
    expect((await client.post('/api/v1/auth/sign-out')).statusCode).toBe(204);
    expect((await client.get('/api/v1/me')).statusCode).toBe(401);

    const first = await client.post('/api/v1/auth/sign-in', { email, password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    // Password alone gives no session.
    expect((await client.get('/api/v1/me')).statusCode).toBe(401);

    const wrong = await client.post('/api/v1/auth/two-factor/verify', { code: wrongTotp(secret), kind: 'totp' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ code: 'AUTH_ERROR', message: 'Invalid verification code. Please try again.' });
    expect((await client.get('/api/v1/me')).statusCode).toBe(401);

    const verified = await client.post('/api/v1/auth/two-factor/verify', { code: totp(secret), kind: 'totp' });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ twoFactorRequired: false, user: { id: userId, mfaEnabled: true } });
    expect((await client.get('/api/v1/me')).json().id).toBe(userId);
  });

  it('accepts each recovery code once', async () => {
    const { client, email, password } = await signedInClient(app, 'client');
    const { backupCodes } = await turnOn(client, password);
    const code = backupCodes[0]!;

    const browser = app.client();
    expect((await browser.post('/api/v1/auth/sign-in', { email, password })).json()).toEqual({ twoFactorRequired: true });
    const used = await browser.post('/api/v1/auth/two-factor/verify', { code, kind: 'backup' });
    expect(used.statusCode).toBe(200);
    expect(used.json().twoFactorRequired).toBe(false);
    expect((await browser.get('/api/v1/me')).statusCode).toBe(200);

    const another = app.client();
    expect((await another.post('/api/v1/auth/sign-in', { email, password })).json()).toEqual({ twoFactorRequired: true });
    const reused = await another.post('/api/v1/auth/two-factor/verify', { code, kind: 'backup' });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error.code).toBe('AUTH_ERROR');
    expect((await another.get('/api/v1/me')).statusCode).toBe(401);

    // A different, unused code still works in the same challenge.
    const next = await another.post('/api/v1/auth/two-factor/verify', { code: backupCodes[1]!, kind: 'backup' });
    expect(next.statusCode).toBe(200);
  });

  it('refuses to verify without a pending sign-in', async () => {
    const response = await app.client().post('/api/v1/auth/two-factor/verify', { code: '123456', kind: 'totp' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatchObject({ code: 'AUTH_ERROR', details: { reason: 'restart' } });
  });

  it('replaces the recovery codes with the password, and turns two-factor off with the password', async () => {
    const { client, userId, email, password } = await signedInClient(app, 'client');
    const { backupCodes: oldCodes } = await turnOn(client, password);

    const wrong = await client.post('/api/v1/me/two-factor/backup-codes', { password: 'Wrong-passw0rd!' });
    expect(wrong.statusCode).toBe(400);
    const fresh = await client.post('/api/v1/me/two-factor/backup-codes', { password });
    expect(fresh.statusCode).toBe(200);
    const newCodes = fresh.json().backupCodes as string[];
    expect(newCodes).toHaveLength(10);

    const browser = app.client();
    await browser.post('/api/v1/auth/sign-in', { email, password });
    expect((await browser.post('/api/v1/auth/two-factor/verify', { code: oldCodes[0]!, kind: 'backup' })).statusCode).toBe(401);
    expect((await browser.post('/api/v1/auth/two-factor/verify', { code: newCodes[0]!, kind: 'backup' })).statusCode).toBe(200);

    const refused = await client.post('/api/v1/me/two-factor/disable', { password: 'Wrong-passw0rd!' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ password: 'Password is incorrect' });
    expect(await twoFactorEnabledInDb(userId)).toBe(true);

    const off = await client.post('/api/v1/me/two-factor/disable', { password });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect(await twoFactorEnabledInDb(userId)).toBe(false);
    expect((await client.get('/api/v1/me')).json().mfaEnabled).toBe(false);
    expect(await securityEventTypes(userId)).toEqual(expect.arrayContaining(['auth.two_factor_enabled', 'auth.two_factor_disabled']));

    const signIn = await app.client().post('/api/v1/auth/sign-in', { email, password });
    expect(signIn.json().twoFactorRequired).toBe(false);

    const noCodes = await client.post('/api/v1/me/two-factor/backup-codes', { password });
    expect(noCodes.statusCode).toBe(409);
  });

  it('refuses a second setup while two-factor is on', async () => {
    const { client, password } = await signedInClient(app, 'client');
    await turnOn(client, password);
    const again = await client.post('/api/v1/me/two-factor/enable', { password });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Two-factor authentication is already on.');
  });
});
