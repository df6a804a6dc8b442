import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';

describe.each(ENGINES)('my notifications (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('starts with no notifications and an unread count of zero', async () => {
    const { client } = await signedInClient(app, 'client');
    expect((await client.get('/api/v1/me/notifications')).json()).toEqual({ notifications: [], unreadCount: 0 });
    expect((await client.get('/api/v1/me/notifications/unread-count')).json()).toEqual({ count: 0 });
  });

  it('lists only my notifications, newest first, with what notify() recorded', async () => {
    const me = await signedInClient(app, 'client');
    const someoneElse = await signedInClient(app, 'manager');
    await app.services.notifications.notify(me.userId, { kind: 'system.welcome', title: 'Welcome to Parley' });
    await app.services.notifications.notify(someoneElse.userId, { kind: 'system.welcome', title: 'Not for you' });
    const latest = await app.services.notifications.notify(me.userId, {
      kind: 'conversation.escalated',
      title: 'A conversation needs you',
      body: 'Ana asked for a human.',
      link: '/conversations',
    });
    expect(latest).toMatchObject({ kind: 'conversation.escalated', read: false, body: 'Ana asked for a human.', link: '/conversations' });

    const listed = await me.client.get('/api/v1/me/notifications');
    expect(listed.statusCode).toBe(200);
    const body = listed.json();
    expect(body.unreadCount).toBe(2);
    expect(body.notifications.map((n: { title: string }) => n.title)).toEqual(['A conversation needs you', 'Welcome to Parley']);
    expect(body.notifications[0]).toEqual({
      id: latest.id,
      kind: 'conversation.escalated',
      title: 'A conversation needs you',
      body: 'Ana asked for a human.',
      link: '/conversations',
      read: false,
      createdAt: expect.any(String),
    });
    expect(body.notifications[1]).toMatchObject({ body: null, link: null });

    expect((await me.client.get('/api/v1/me/notifications?limit=1')).json().notifications).toHaveLength(1);
    expect((await me.client.get('/api/v1/me/notifications?limit=0')).statusCode).toBe(400);
    expect((await me.client.get('/api/v1/me/notifications?limit=lots')).statusCode).toBe(400);
  });

  it('marks one of mine read, and answers 404 for someone else’s without touching it', async () => {
    const me = await signedInClient(app, 'client');
    const other = await signedInClient(app, 'client');
    const mine = await app.services.notifications.notify(me.userId, { kind: 'test', title: 'Mine' });
    const theirs = await app.services.notifications.notify(other.userId, { kind: 'test', title: 'Theirs' });

    const marked = await me.client.post(`/api/v1/me/notifications/${mine.id}/read`);
    expect(marked.statusCode).toBe(204);
    expect((await me.client.get('/api/v1/me/notifications/unread-count')).json()).toEqual({ count: 0 });
    expect((await me.client.get('/api/v1/me/notifications')).json().notifications[0].read).toBe(true);
    // Marking again is harmless.
    expect((await me.client.post(`/api/v1/me/notifications/${mine.id}/read`)).statusCode).toBe(204);

    const refused = await me.client.post(`/api/v1/me/notifications/${theirs.id}/read`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('NOT_FOUND');
    expect((await other.client.get('/api/v1/me/notifications/unread-count')).json()).toEqual({ count: 1 });

    expect((await me.client.post('/api/v1/me/notifications/not-a-uuid/read')).statusCode).toBe(400);
    expect((await me.client.post('/api/v1/me/notifications/00000000-0000-4000-8000-000000000000/read')).statusCode).toBe(404);
  });

  it('marks all of mine read and leaves other users’ unread', async () => {
    const me = await signedInClient(app, 'client');
    const other = await signedInClient(app, 'client');
    for (const title of ['One', 'Two', 'Three']) await app.services.notifications.notify(me.userId, { kind: 'test', title });
    await app.services.notifications.notify(other.userId, { kind: 'test', title: 'Other' });

    expect((await me.client.get('/api/v1/me/notifications/unread-count')).json()).toEqual({ count: 3 });
    expect((await me.client.post('/api/v1/me/notifications/read-all')).statusCode).toBe(204);
    const after = (await me.client.get('/api/v1/me/notifications')).json();
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
    expect((await other.client.get('/api/v1/me/notifications/unread-count')).json()).toEqual({ count: 1 });
  });

  it('refuses anonymous callers', async () => {
    const anonymous = app.client();
    expect((await anonymous.get('/api/v1/me/notifications')).statusCode).toBe(401);
    expect((await anonymous.get('/api/v1/me/notifications/unread-count')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/me/notifications/read-all')).statusCode).toBe(401);
  });
});
