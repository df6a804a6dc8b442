import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSessionsResponse, SecurityEventsResponse, SecuritySettings } from '../../../common/api/security';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';
import { secretFromUri, totp } from '../../../test/helpers/totp';

const HOUR = 3_600_000;
const DEFAULTS: SecuritySettings = { requireTwoFactorForStaff: false, sessionLifetimeHours: 168 };

describe.each(ENGINES)('Admin Settings → Security (%s)', (engine) => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    admin = await signedInClient(app, 'admin');
    await turnOnTwoFactor(admin.client, admin.password);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;

  /** Turns two-factor on for the signed-in user of `client` (enable + confirm with a TOTP code). */
  async function turnOnTwoFactor(client: TestClient, password: string): Promise<void> {
    const setup = expectJson<{ totpUri: string }>(await client.post('/api/v1/me/two-factor/enable', { password }), 200);
    expectJson(await client.post('/api/v1/me/two-factor/confirm', { code: totp(secretFromUri(setup.totpUri)) }), 200);
  }

  async function saveSettings(settings: SecuritySettings): Promise<void> {
    expectJson(await admin.client.put('/api/v1/admin/security/settings', settings), 200);
  }

  async function sessionsOf(userId: string) {
    return db().selectFrom('sessions').select(['id', 'expiresAt', 'updatedAt']).where('userId', '=', userId).execute();
  }

  it('lets only administrators read and change the settings, the log and the sessions', async () => {
    const manager = await signedInClient(app, 'manager');
    const client = await signedInClient(app, 'client');
    const anonymous = app.client();
    const someSession = randomUUID();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/admin/security/settings'],
      ['PUT', '/api/v1/admin/security/settings', DEFAULTS],
      ['GET', '/api/v1/admin/security/events'],
      ['GET', '/api/v1/admin/security/events.csv'],
      ['GET', '/api/v1/admin/security/sessions'],
      ['DELETE', `/api/v1/admin/security/sessions/${someSession}`],
    ];
    for (const [method, url, body] of routes) {
      const request = { method: method as 'GET' | 'PUT' | 'DELETE', url, body };
      expect((await manager.client.request(request)).statusCode, `${method} ${url} as a manager`).toBe(403);
      expect((await client.client.request(request)).statusCode, `${method} ${url} as a client`).toBe(403);
      expect((await anonymous.request(request)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect((await admin.client.get('/api/v1/admin/security/settings')).statusCode).toBe(200);
  });

  it("starts with today's behaviour, refuses bad values with field messages and records each change", async () => {
    expect(expectJson(await admin.client.get('/api/v1/admin/security/settings'), 200)).toEqual(DEFAULTS);

    for (const [value, message] of [
      [0, 'Session lifetime must be between 1 hour and 30 days'],
      [721, 'Session lifetime must be between 1 hour and 30 days'],
      [1.5, 'Session lifetime must be a whole number of hours'],
      ['24', 'Session lifetime must be between 1 hour and 30 days'],
    ] as const) {
      const refused = await admin.client.put('/api/v1/admin/security/settings', { requireTwoFactorForStaff: false, sessionLifetimeHours: value });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.sessionLifetimeHours).toBe(message);
    }
    expect((await admin.client.put('/api/v1/admin/security/settings', { sessionLifetimeHours: 24 })).json().error.fields).toHaveProperty('requireTwoFactorForStaff');
    expect(expectJson(await admin.client.get('/api/v1/admin/security/settings'), 200)).toEqual(DEFAULTS);

    await saveSettings({ requireTwoFactorForStaff: false, sessionLifetimeHours: 720 });
    expect(expectJson(await admin.client.get('/api/v1/admin/security/settings'), 200)).toEqual({ requireTwoFactorForStaff: false, sessionLifetimeHours: 720 });
    // Saving the same again records nothing new.
    await saveSettings({ requireTwoFactorForStaff: false, sessionLifetimeHours: 720 });
    await saveSettings(DEFAULTS);

    const log = expectJson<SecurityEventsResponse>(await admin.client.get(`/api/v1/admin/security/events?type=security.settings_changed&userId=${admin.userId}`), 200);
    expect(log.events).toHaveLength(2);
    // The administrator's own session, renewed to 720 hours while in use, was brought back to 168.
    expect(log.events[0]!.details).toMatchObject({ changes: { sessionLifetimeHours: { from: 720, to: 168 } } });
    expect(log.events[1]!.details).toEqual({ changes: { sessionLifetimeHours: { from: 168, to: 720 } } });
    expect(log.events[0]).toMatchObject({ severity: 'warning', email: admin.email, userId: admin.userId });
  });

  it('gives new sessions the configured lifetime, shortens open ones, and renews a session in use', async () => {
    const before = await signedInClient(app, 'client');
    const [open] = await sessionsOf(before.userId);
    expect(open!.expiresAt.getTime() - Date.now()).toBeGreaterThan(167 * HOUR);

    await saveSettings({ requireTwoFactorForStaff: false, sessionLifetimeHours: 2 });
    try {
      // Open sessions end within the new lifetime at the latest.
      const [shortened] = await sessionsOf(before.userId);
      expect(shortened!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(2 * HOUR);
      expect(shortened!.expiresAt.getTime() - Date.now()).toBeGreaterThan(2 * HOUR - 60_000);

      // A new sign-in lasts two hours.
      const after = await signedInClient(app, 'client');
      const [created] = await sessionsOf(after.userId);
      expect(Math.abs(created!.expiresAt.getTime() - (Date.now() + 2 * HOUR))).toBeLessThan(60_000);

      // In use: renewed once it is due (a quarter of the lifetime without renewal), not on every request.
      await db().updateTable('sessions').set({ expiresAt: new Date(Date.now() + 115 * 60_000) }).where('userId', '=', after.userId).execute();
      expect((await after.client.get('/api/v1/me')).statusCode).toBe(200);
      const [notYet] = await sessionsOf(after.userId);
      expect(Math.abs(notYet!.expiresAt.getTime() - (Date.now() + 115 * 60_000))).toBeLessThan(60_000);
      await db().updateTable('sessions').set({ expiresAt: new Date(Date.now() + 10 * 60_000) }).where('userId', '=', after.userId).execute();
      expect((await after.client.get('/api/v1/me')).statusCode).toBe(200);
      const [renewed] = await sessionsOf(after.userId);
      expect(Math.abs(renewed!.expiresAt.getTime() - (Date.now() + 2 * HOUR))).toBeLessThan(60_000);

      // Past its expiry, a session is signed out.
      await db().updateTable('sessions').set({ expiresAt: new Date(Date.now() - 1_000) }).where('userId', '=', after.userId).execute();
      expect((await after.client.get('/api/v1/me')).statusCode).toBe(401);
    } finally {
      await saveSettings(DEFAULTS);
    }
    // A longer lifetime again: sessions signed in from now on last 7 days.
    const later = await signedInClient(app, 'client');
    const [week] = await sessionsOf(later.userId);
    expect(Math.abs(week!.expiresAt.getTime() - (Date.now() + 168 * HOUR))).toBeLessThan(60_000);
  });

  it('keeps an admin or manager without two-factor to the setup until it is on; client users are not affected', async () => {
    const manager = await signedInClient(app, 'manager');
    const client = await signedInClient(app, 'client');
    await saveSettings({ requireTwoFactorForStaff: true, sessionLifetimeHours: 168 });
    try {
      const refused = await manager.client.get('/api/v1/conversations');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toEqual({ code: 'TWO_FACTOR_REQUIRED', message: 'Two-factor authentication is required for admins and managers. Set it up to continue.' });
      expect((await manager.client.get('/api/v1/me/notification-preferences')).json().error.code).toBe('TWO_FACTOR_REQUIRED');
      // Who is signed in, and that setup comes first, are readable.
      expect(expectJson(await manager.client.get('/api/v1/me'), 200)).toMatchObject({ id: manager.userId, mfaEnabled: false });
      expect(expectJson<{ user: { twoFactorSetupRequired: boolean } }>(await manager.client.get('/api/v1/auth/session'), 200).user.twoFactorSetupRequired).toBe(true);
      // A fresh sign-in says so too.
      const again = app.client();
      expect((await again.signIn(manager.email, manager.password)).json().user).toMatchObject({ twoFactorSetupRequired: true });

      // The administrator who has two-factor and the client user go on as before.
      expect((await admin.client.get('/api/v1/conversations')).statusCode).toBe(200);
      expect((await client.client.get('/api/v1/conversations')).statusCode).toBe(200);
      expect(expectJson<{ user: { twoFactorSetupRequired: boolean } }>(await client.client.get('/api/v1/auth/session'), 200).user.twoFactorSetupRequired).toBe(false);

      // The setup is open; once two-factor is on, everything is.
      await turnOnTwoFactor(manager.client, manager.password);
      expect((await manager.client.get('/api/v1/conversations')).statusCode).toBe(200);
      expect(expectJson<{ user: { twoFactorSetupRequired: boolean } }>(await manager.client.get('/api/v1/auth/session'), 200).user.twoFactorSetupRequired).toBe(false);
    } finally {
      await saveSettings(DEFAULTS);
    }
    // Off again: a manager without two-factor works as before.
    const other = await signedInClient(app, 'manager');
    expect((await other.client.get('/api/v1/conversations')).statusCode).toBe(200);
  });

  it('filters the audit log by type, user and dates, pages it with a cursor and exports it as CSV', async () => {
    const email = `audit-${randomUUID()}@example.com`;
    const rows = [
      { type: 'auth.account_locked', createdAt: new Date('2025-01-01T10:00:00Z') },
      { type: 'auth.password_reset', createdAt: new Date('2025-01-02T10:00:00Z') },
      { type: 'auth.account_locked', createdAt: new Date('2025-01-02T10:00:00Z') },
      { type: 'auth.account_locked', createdAt: new Date('2025-01-03T10:00:00Z') },
      { type: 'users.role_changed', createdAt: new Date('2025-01-04T10:00:00Z') },
    ];
    for (const row of rows) {
      await db()
        .insertInto('securityEvents')
        .values({ ...row, severity: 'warning', email, ipAddress: '203.0.113.9', userAgent: '=HYPERLINK("http://x")', details: JSON.stringify({ note: 'a, "quoted" note' }) })
        .execute();
    }
    const get = async (query: string) => expectJson<SecurityEventsResponse>(await admin.client.get(`/api/v1/admin/security/events?user=${encodeURIComponent(email)}${query}`), 200);

    const all = await get('');
    expect(all.events.map((e) => e.createdAt)).toEqual([
      '2025-01-04T10:00:00.000Z',
      '2025-01-03T10:00:00.000Z',
      '2025-01-02T10:00:00.000Z',
      '2025-01-02T10:00:00.000Z',
      '2025-01-01T10:00:00.000Z',
    ]);
    expect(all.events.map((e) => e.type)).toEqual(['users.role_changed', 'auth.account_locked', expect.any(String), expect.any(String), 'auth.account_locked']);
    // Two at the same time: by id, descending.
    expect(all.events[2]!.id > all.events[3]!.id).toBe(true);
    expect(all.nextCursor).toBeNull();

    expect((await get('&type=auth.account_locked')).events.map((e) => e.createdAt)).toEqual([
      '2025-01-03T10:00:00.000Z',
      '2025-01-02T10:00:00.000Z',
      '2025-01-01T10:00:00.000Z',
    ]);
    expect((await get('&from=2025-01-02&to=2025-01-03')).events.map((e) => e.type).sort()).toEqual(['auth.account_locked', 'auth.password_reset']);
    expect((await get('&from=2025-01-03T00:00:00Z')).events).toHaveLength(2);
    expect((await get('&to=2025-01-02T00:00:00.000Z')).events).toHaveLength(1);
    // Part of the address matches; another address does not.
    const byPrefix = await admin.client.get(`/api/v1/admin/security/events?user=${encodeURIComponent(email.slice(0, 20).toUpperCase())}`);
    expect(expectJson<SecurityEventsResponse>(byPrefix, 200).events).toHaveLength(5);
    expect((await admin.client.get('/api/v1/admin/security/events?user=nobody-at-all%40example.com')).json().events).toEqual([]);

    // Pages of two: every event once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SecurityEventsResponse = await get(`&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.events.map((e) => e.id));

    // Bad input: field messages, never a 500.
    const badRange = await admin.client.get('/api/v1/admin/security/events?from=2025-01-03&to=2025-01-02');
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().error.fields.to).toBe('The end date must be after the start date');
    for (const query of ['cursor=nonsense', 'limit=0', 'limit=201', 'type=DROP%20TABLE', 'from=yesterday', 'userId=42']) {
      expect((await admin.client.get(`/api/v1/admin/security/events?${query}`)).statusCode, query).toBe(400);
    }

    const csv = await admin.client.get(`/api/v1/admin/security/events.csv?user=${encodeURIComponent(email)}&type=auth.account_locked`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="security-events-\d{4}-\d{2}-\d{2}\.csv"$/u);
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Time (UTC),Event,Type,Severity,User,E-mail,IP address,User agent,Details');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      `2025-01-03T10:00:00.000Z,Account locked after failed sign-ins,auth.account_locked,warning,,${email},203.0.113.9,"'=HYPERLINK(""http://x"")","{""note"":""a, \\""quoted\\"" note""}"`,
    );
  });

  it("lists every user's live sessions and signs one out at once, recorded in the log", async () => {
    const user = await signedInClient(app, 'client', { name: 'Sam Session' });
    const listed = expectJson<AdminSessionsResponse>(await admin.client.get(`/api/v1/admin/security/sessions?user=${encodeURIComponent(user.email)}`), 200);
    expect(listed.sessions).toHaveLength(1);
    const session = listed.sessions[0]!;
    expect(session).toMatchObject({ userId: user.userId, userName: 'Sam Session', userEmail: user.email, userRole: 'client', current: false });

    // The administrator's own session is marked.
    const mine = expectJson<AdminSessionsResponse>(await admin.client.get(`/api/v1/admin/security/sessions?user=${encodeURIComponent(admin.email)}`), 200);
    expect(mine.sessions.filter((s) => s.current)).toHaveLength(1);

    expect((await user.client.get('/api/v1/me')).statusCode).toBe(200);
    expect((await admin.client.delete(`/api/v1/admin/security/sessions/${session.id}`)).statusCode).toBe(204);
    expect((await user.client.get('/api/v1/me')).statusCode).toBe(401);
    expect(expectJson<AdminSessionsResponse>(await admin.client.get(`/api/v1/admin/security/sessions?user=${encodeURIComponent(user.email)}`), 200).sessions).toEqual([]);

    const log = expectJson<SecurityEventsResponse>(await admin.client.get(`/api/v1/admin/security/events?type=auth.session_revoked&userId=${user.userId}`), 200);
    expect(log.events).toHaveLength(1);
    expect(log.events[0]).toMatchObject({ email: user.email, details: { sessionId: session.id, revokedBy: admin.userId, revokedByEmail: admin.email, own: false } });

    expect((await admin.client.delete(`/api/v1/admin/security/sessions/${session.id}`)).statusCode).toBe(404);
    expect((await admin.client.delete('/api/v1/admin/security/sessions/not-a-session')).statusCode).toBe(400);
    expect((await admin.client.get('/api/v1/admin/security/sessions?cursor=%7B%7D')).statusCode).toBe(400);
  });

  it('pages the sessions with a cursor', async () => {
    const name = `Pager ${randomUUID().slice(0, 8)}`;
    const users = [await signedInClient(app, 'client', { name }), await signedInClient(app, 'client', { name }), await signedInClient(app, 'client', { name })];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AdminSessionsResponse = expectJson<AdminSessionsResponse>(
        await admin.client.get(`/api/v1/admin/security/sessions?user=${encodeURIComponent(name)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        200,
      );
      seen.push(...page.sessions.map((s) => s.userId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(users.map((u) => u.userId).sort());
  });

  it('logs a refused visit to Admin Settings with the user, role, URL and time', async () => {
    const manager = await signedInClient(app, 'manager');
    const started = Date.now();
    expect((await manager.client.post('/api/v1/telemetry/permission-denied', { path: '/settings?tab=security', requiredRole: 'admin' })).statusCode).toBe(204);
    const log = expectJson<SecurityEventsResponse>(await admin.client.get(`/api/v1/admin/security/events?type=access.permission_denied&userId=${manager.userId}`), 200);
    expect(log.events).toHaveLength(1);
    expect(log.events[0]).toMatchObject({
      userId: manager.userId,
      email: manager.email,
      severity: 'warning',
      details: { role: 'manager', path: '/settings?tab=security', requiredRole: 'admin' },
    });
    expect(Date.parse(log.events[0]!.createdAt)).toBeGreaterThanOrEqual(started - 5_000);
    // Signed out, nothing is logged.
    expect((await app.client().post('/api/v1/telemetry/permission-denied', { path: '/settings', requiredRole: 'admin' })).statusCode).toBe(401);
  });
});
