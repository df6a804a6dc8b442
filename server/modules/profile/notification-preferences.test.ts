import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, readNotificationPreferences } from '../../../common/api/me';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';

describe('readNotificationPreferences', () => {
  it('fills the switches a stored document lacks with their defaults and ignores what is not a switch', () => {
    expect(readNotificationPreferences({ emailNotifications: false, messageAlerts: true, weeklyReports: false, securityAlerts: true })).toEqual({
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      emailNotifications: false,
    });
    expect(readNotificationPreferences({ escalations: 'no', lowConfidence: false, extra: true })).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, lowConfidence: false });
    expect(readNotificationPreferences(null)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it("has the spec's admin defaults: escalations on, low confidence on, daily reports off, error alerts on", () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES).toMatchObject({ escalations: true, lowConfidence: true, dailyReports: false, errorAlerts: true });
  });
});

describe.each(ENGINES)('notification preferences (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('reads an account saved before the admin switches existed with their defaults, and keeps what it stored', async () => {
    const admin = await signedInClient(app, 'admin');
    // A document as migration 0001 and older versions wrote it.
    await app.database.db
      .updateTable('users')
      .set({ notificationPreferences: JSON.stringify({ emailNotifications: false, messageAlerts: true, weeklyReports: true, securityAlerts: true }) })
      .where('id', '=', admin.userId)
      .execute();
    expect(expectJson(await admin.client.get('/api/v1/me/notification-preferences'), 200)).toEqual({
      emailNotifications: false,
      messageAlerts: true,
      weeklyReports: true,
      securityAlerts: true,
      dailyReports: false,
      escalations: true,
      lowConfidence: true,
      errorAlerts: true,
    });
    // Who is told reads the same document the same way.
    const recipient = (await app.services.users.findRecipients({ staffRoles: ['admin'] })).find((r) => r.id === admin.userId);
    expect(recipient).toMatchObject({ role: 'admin', notificationPreferences: { emailNotifications: false, escalations: true, errorAlerts: true } });
  });

  it('changes only the switches a PATCH names, round trip', async () => {
    const admin = await signedInClient(app, 'admin');
    const profile = { emailNotifications: false, messageAlerts: false, weeklyReports: true, securityAlerts: true };
    expectJson(await admin.client.patch('/api/v1/me/notification-preferences', profile), 200);

    // Admin Settings saves its four; the profile's stay.
    const saved = expectJson(
      await admin.client.patch('/api/v1/me/notification-preferences', { escalations: false, lowConfidence: true, dailyReports: true, errorAlerts: false }),
      200,
    );
    const expected = { ...profile, escalations: false, lowConfidence: true, dailyReports: true, errorAlerts: false };
    expect(saved).toEqual(expected);
    expect(expectJson(await admin.client.get('/api/v1/me/notification-preferences'), 200)).toEqual(expected);
    const stored = await app.database.db.selectFrom('users').select('notificationPreferences').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    expect(stored.notificationPreferences).toEqual(expected);

    // Refused: nothing to change, a wrong type; nothing stored.
    const empty = await admin.client.patch('/api/v1/me/notification-preferences', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Choose at least one notification setting to change');
    expect((await admin.client.patch('/api/v1/me/notification-preferences', { errorAlerts: 'yes' })).statusCode).toBe(400);
    expect((await admin.client.patch('/api/v1/me/notification-preferences', [true])).statusCode).toBe(400);
    expect(expectJson(await admin.client.get('/api/v1/me/notification-preferences'), 200)).toEqual(expected);

    // Unknown keys are dropped, not stored.
    expectJson(await admin.client.patch('/api/v1/me/notification-preferences', { errorAlerts: true, isAdmin: true }), 200);
    const after = await app.database.db.selectFrom('users').select('notificationPreferences').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    expect(after.notificationPreferences).toEqual({ ...expected, errorAlerts: true });

    expect((await app.client().patch('/api/v1/me/notification-preferences', { errorAlerts: false })).statusCode).toBe(401);
  });
});
