import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../../common/api/me';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';

const NEW_PASSWORD = 'N3w!Passw0rd-Strong';

describe.each(ENGINES)('my profile, password and sessions (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('answers GET /me with the signed-in user and refuses anonymous callers', async () => {
    const { client, userId, email } = await signedInClient(app, 'manager', { name: 'Mia Stone' });
    const me = await client.get('/api/v1/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: userId, email, name: 'Mia Stone', role: 'manager', mfaEnabled: false, emailVerified: true });
    expect(me.json().lastLogin).not.toBeNull();

    const anonymous = await app.client().get('/api/v1/me');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('updates full name, avatar, phone and company, keeps omitted fields and clears empty ones', async () => {
    const { client, userId } = await signedInClient(app, 'client');
    const other = await signedInClient(app, 'client', { name: 'Other Person' });

    const saved = await client.patch('/api/v1/me/profile', {
      fullName: '  Zoë O\'Brien-Smith ',
      avatarUrl: '/avatars/avatar-3.svg',
      phone: '+44 20 7946 0958',
      company: 'Acme Ltd',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      id: userId,
      name: "Zoë O'Brien-Smith",
      avatarUrl: '/avatars/avatar-3.svg',
      phone: '+44 20 7946 0958',
      company: 'Acme Ltd',
    });
    // better-auth reads the same column as its `name`.
    expect((await client.get('/api/v1/auth/session')).json().user.name).toBe("Zoë O'Brien-Smith");

    const partial = await client.patch('/api/v1/me/profile', { fullName: 'Zoe Smith', company: '' });
    expect(partial.json()).toMatchObject({ name: 'Zoe Smith', avatarUrl: '/avatars/avatar-3.svg', phone: '+44 20 7946 0958', company: null });

    const cleared = await client.patch('/api/v1/me/profile', { fullName: 'Zoe Smith', avatarUrl: null, phone: null });
    expect(cleared.json()).toMatchObject({ avatarUrl: null, phone: null, company: null });

    // Only the caller's row changed.
    expect((await other.client.get('/api/v1/me')).json()).toMatchObject({ name: 'Other Person', company: null });
  });

  it('refuses invalid profile fields with a message per field', async () => {
    const { client } = await signedInClient(app, 'client', { name: 'Kept Name' });
    const bad = await client.patch('/api/v1/me/profile', {
      fullName: 'R2-D2',
      avatarUrl: 'http://insecure.example.com/a.png',
      phone: 'call me',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect(bad.json().error.fields).toMatchObject({
      fullName: 'Name can only contain letters, spaces, hyphens, and apostrophes',
      avatarUrl: 'Avatar must be an https:// URL or a preset avatar',
      phone: 'Please enter a valid phone number',
    });
    const missing = await client.patch('/api/v1/me/profile', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toHaveProperty('fullName');
    expect((await client.get('/api/v1/me')).json().name).toBe('Kept Name');
  });

  it('changes the password only with the right current password, and signs out the other sessions', async () => {
    const { client, userId, email, password } = await signedInClient(app, 'client');
    const laptop = app.client();
    await laptop.signIn(email, password);

    const wrong = await client.post('/api/v1/me/password', {
      currentPassword: 'Not-the-right-0ne!',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { currentPassword: 'Current password is incorrect' } });

    const weak = await client.post('/api/v1/me/password', { currentPassword: password, newPassword: 'short', confirmPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.newPassword).toBe('Password must be at least 8 characters');

    const mismatch = await client.post('/api/v1/me/password', {
      currentPassword: password,
      newPassword: NEW_PASSWORD,
      confirmPassword: `${NEW_PASSWORD}x`,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields.confirmPassword).toBe("New password and confirm password don't match.");

    const changed = await client.post('/api/v1/me/password', { currentPassword: password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ ok: true });

    // This browser stays signed in (on a fresh session); the laptop is signed out.
    expect((await client.get('/api/v1/me')).statusCode).toBe(200);
    expect((await laptop.get('/api/v1/me')).statusCode).toBe(401);

    expect((await app.client().post('/api/v1/auth/sign-in', { email, password })).statusCode).toBe(401);
    expect((await app.client().post('/api/v1/auth/sign-in', { email, password: NEW_PASSWORD })).statusCode).toBe(200);

    const events = await app.database.db
      .selectFrom('securityEvents')
      .select(['type', 'details'])
      .where('userId', '=', userId)
      .where('type', '=', 'auth.password_changed')
      .execute();
    expect(events).toEqual([{ type: 'auth.password_changed', details: { otherSessionsRevoked: true } }]);
  });

  it('keeps the other sessions when asked to', async () => {
    const { client, email, password } = await signedInClient(app, 'client');
    const phone = app.client();
    await phone.signIn(email, password);
    const changed = await client.post('/api/v1/me/password', {
      currentPassword: password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      revokeOtherSessions: false,
    });
    expect(changed.statusCode).toBe(200);
    expect((await phone.get('/api/v1/me')).statusCode).toBe(200);
    expect((await client.get('/api/v1/me')).statusCode).toBe(200);
  });

  it('lists my sessions with the current one marked, and revokes one of them', async () => {
    const { client, email, password } = await signedInClient(app, 'client');
    const tablet = app.client();
    await tablet.request({ method: 'POST', url: '/api/v1/auth/sign-in', body: { email, password }, headers: { 'user-agent': 'Tablet/1.0' } });

    const listed = await client.get('/api/v1/me/sessions');
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as { id: string; current: boolean; userAgent: string | null; ipAddress: string | null }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const tabletSession = sessions.find((s) => !s.current)!;
    expect(tabletSession.userAgent).toBe('Tablet/1.0');
    expect(tabletSession.ipAddress).toBe('127.0.0.1');
    expect(listed.json().sessions[0]).toEqual(
      expect.objectContaining({ createdAt: expect.any(String), lastActiveAt: expect.any(String), expiresAt: expect.any(String) }),
    );

    const revoked = await client.delete(`/api/v1/me/sessions/${tabletSession.id}`);
    expect(revoked.statusCode).toBe(204);
    expect((await tablet.get('/api/v1/me')).statusCode).toBe(401);
    expect((await client.get('/api/v1/me/sessions')).json().sessions).toHaveLength(1);

    const again = await client.delete(`/api/v1/me/sessions/${tabletSession.id}`);
    expect(again.statusCode).toBe(404);
    const malformed = await client.delete('/api/v1/me/sessions/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
  });

  it("answers 404 for another user's session and leaves it alone", async () => {
    const mine = await signedInClient(app, 'client');
    const theirs = await signedInClient(app, 'admin');
    const theirSession = (await theirs.client.get('/api/v1/me/sessions')).json().sessions[0].id as string;

    const attempt = await mine.client.delete(`/api/v1/me/sessions/${theirSession}`);
    expect(attempt.statusCode).toBe(404);
    expect(attempt.json().error.code).toBe('NOT_FOUND');
    expect((await theirs.client.get('/api/v1/me')).statusCode).toBe(200);
    expect((await mine.client.get('/api/v1/me/sessions')).json().sessions.map((s: { id: string }) => s.id)).not.toContain(theirSession);
  });

  it('revokes every other session of mine but not this one or anyone else’s', async () => {
    const { client, email, password } = await signedInClient(app, 'client');
    const second = app.client();
    const third = app.client();
    await second.signIn(email, password);
    await third.signIn(email, password);
    const stranger = await signedInClient(app, 'client');

    const response = await client.post('/api/v1/me/sessions/revoke-others');
    expect(response.statusCode).toBe(204);
    expect((await second.get('/api/v1/me')).statusCode).toBe(401);
    expect((await third.get('/api/v1/me')).statusCode).toBe(401);
    expect((await client.get('/api/v1/me')).statusCode).toBe(200);
    expect((await client.get('/api/v1/me/sessions')).json().sessions).toEqual([expect.objectContaining({ current: true })]);
    expect((await stranger.client.get('/api/v1/me')).statusCode).toBe(200);
  });

  it('needs the CSRF token for state-changing calls', async () => {
    const { client } = await signedInClient(app, 'client');
    const response = await client.request({ method: 'POST', url: '/api/v1/me/sessions/revoke-others', withoutCsrf: true });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('CSRF_FAILED');
  });

  it('stores notification preferences per user, starting from the defaults', async () => {
    const { client } = await signedInClient(app, 'client');
    const other = await signedInClient(app, 'client');
    expect((await client.get('/api/v1/me/notification-preferences')).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);

    const next = {
      emailNotifications: false,
      messageAlerts: true,
      weeklyReports: true,
      securityAlerts: false,
      dailyReports: true,
      escalations: false,
      lowConfidence: true,
      errorAlerts: false,
    };
    const saved = await client.put('/api/v1/me/notification-preferences', next);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(next);
    expect((await client.get('/api/v1/me/notification-preferences')).json()).toEqual(next);
    expect((await other.client.get('/api/v1/me/notification-preferences')).json()).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);

    const bad = await client.put('/api/v1/me/notification-preferences', { emailNotifications: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect((await client.get('/api/v1/me/notification-preferences')).json()).toEqual(next);

    // The switches added later may be left out: they are then their defaults.
    const { dailyReports: _daily, escalations: _escalations, lowConfidence: _low, errorAlerts: _errors, ...older } = next;
    expect((await client.put('/api/v1/me/notification-preferences', older)).json()).toEqual({
      ...older,
      dailyReports: false,
      escalations: true,
      lowConfidence: true,
      errorAlerts: true,
    });
  });
});
