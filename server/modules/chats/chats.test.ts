import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatThreadView } from '../../../common/api/chats';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestClient } from '../../../test/helpers/messaging';
import { connectRealtime, cookieHeader } from '../../../test/helpers/realtime';
import { presenceOf } from './presence';

type Chats = { threads: ChatThreadView[]; total: number; unread: number };
type ChatMessage = { id: string; threadId: string; senderId: string | null; senderName: string; message: string; timestamp: string; isAdmin: boolean };

async function listen(app: TestApp): Promise<string> {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe('chat presence', () => {
  it('is online within 90 seconds of the last heartbeat, away within 15 minutes, offline after', () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    expect(presenceOf(ago(30_000), now)).toBe('online');
    expect(presenceOf(ago(90_000), now)).toBe('online');
    expect(presenceOf(ago(91_000), now)).toBe('away');
    expect(presenceOf(ago(15 * 60_000), now)).toBe('away');
    expect(presenceOf(ago(15 * 60_000 + 1), now)).toBe('offline');
    expect(presenceOf(null, now)).toBe('offline');
  });
});

describe.each(ENGINES)('internal chats (%s)', (engine) => {
  let app: TestApp;
  let base: string;
  let admin: { client: TestClient; userId: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    base = await listen(app);
    admin = await signedInClient(app, 'admin', { name: 'Ada Admin' });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('New Chat between an admin and a client user: one thread per pair, unread counters, read marks, tabs and search', async () => {
    const acme = await createTestClient(app, 'Acme Corp');
    const carla = await signedInClientUser(app, acme.id, 'Carla Client');
    const otherAdmin = await signedInClient(app, 'admin', { name: 'Omar Admin' });

    const thread = expectJson<ChatThreadView>(await admin.client.post('/api/v1/chats', { recipientId: carla.userId, message: 'Welcome aboard!' }), 201);
    expect(thread).toMatchObject({
      type: 'client',
      participant: { id: carla.userId, name: 'Carla Client', company: 'Acme Corp', role: 'client' },
      lastMessage: 'Welcome aboard!',
      unreadCount: 0,
      status: 'offline',
    });
    // Starting again reuses the thread.
    const again = expectJson<ChatThreadView>(await admin.client.post('/api/v1/chats', { recipientId: carla.userId, message: 'Any questions?' }), 201);
    expect(again.id).toBe(thread.id);

    let carlaView = expectJson<Chats>(await carla.client.get('/api/v1/chats'), 200);
    expect(carlaView).toMatchObject({ total: 1, unread: 2 });
    expect(carlaView.threads[0]).toMatchObject({ id: thread.id, type: 'admin', participant: { name: 'Ada Admin', role: 'admin' }, unreadCount: 2, lastMessage: 'Any questions?' });

    const messages = expectJson<{ messages: ChatMessage[] }>(await carla.client.get(`/api/v1/chats/${thread.id}/messages`), 200).messages;
    expect(messages.map((m) => [m.message, m.senderName, m.isAdmin])).toEqual([
      ['Welcome aboard!', 'Ada Admin', true],
      ['Any questions?', 'Ada Admin', true],
    ]);
    expect((await carla.client.post(`/api/v1/chats/${thread.id}/read`, {})).statusCode).toBe(204);
    carlaView = expectJson<Chats>(await carla.client.get('/api/v1/chats'), 200);
    expect(carlaView.unread).toBe(0);

    const answer = expectJson<ChatMessage>(await carla.client.post(`/api/v1/chats/${thread.id}/messages`, { message: '  Yes: how do I connect WhatsApp?  ' }), 201);
    expect(answer).toMatchObject({ threadId: thread.id, senderId: carla.userId, senderName: 'Carla Client', message: 'Yes: how do I connect WhatsApp?', isAdmin: false });
    expect(expectJson<Chats>(await carla.client.get('/api/v1/chats'), 200).unread).toBe(0); // one's own message is not unread

    expectJson(await admin.client.post('/api/v1/chats', { recipientId: otherAdmin.userId, message: 'Lunch?' }), 201);
    const adminView = expectJson<Chats>(await admin.client.get('/api/v1/chats'), 200);
    expect(adminView.total).toBe(2);
    expect(adminView.threads[0]).toMatchObject({ id: expect.any(String), type: 'admin', participant: { name: 'Omar Admin' } });
    const byTab = async (query: string) => expectJson<Chats>(await admin.client.get(`/api/v1/chats?${query}`), 200).threads.map((t) => t.participant.name);
    expect(await byTab('tab=clients')).toEqual(['Carla Client']);
    expect(await byTab('tab=admin')).toEqual(['Omar Admin']);
    expect(await byTab('search=acme')).toEqual(['Carla Client']);
    expect(await byTab('search=OMAR')).toEqual(['Omar Admin']);
    expect(await byTab('tab=clients&search=omar')).toEqual([]);
    const clientsTab = expectJson<Chats>(await admin.client.get('/api/v1/chats?tab=clients'), 200);
    expect(clientsTab).toMatchObject({ total: 2, unread: 1 });
    expect((await admin.client.get('/api/v1/chats?tab=everyone')).statusCode).toBe(400);
  });

  it('admins may chat with anyone; managers and client users only with admins; others never see a thread', async () => {
    const client = await createTestClient(app, 'Beta LLC');
    const bob = await signedInClientUser(app, client.id, 'Bob Client');
    const manager = await signedInClient(app, 'manager', { name: 'Mona Manager' });
    const eve = await signedInClientUser(app, client.id, 'Eve Client');

    const recipientsOf = async (who: TestClient) =>
      expectJson<{ recipients: { id: string; role: string }[] }>(await who.get('/api/v1/chats/recipients'), 200).recipients;
    expect((await recipientsOf(bob.client)).every((r) => r.role === 'admin')).toBe(true);
    expect((await recipientsOf(bob.client)).map((r) => r.id)).toContain(admin.userId);
    expect((await recipientsOf(admin.client)).map((r) => r.id)).toEqual(expect.arrayContaining([bob.userId, manager.userId, eve.userId]));
    expect((await recipientsOf(admin.client)).map((r) => r.id)).not.toContain(admin.userId);

    expect((await bob.client.post('/api/v1/chats', { recipientId: eve.userId, message: 'hi' })).statusCode).toBe(404);
    expect((await manager.client.post('/api/v1/chats', { recipientId: bob.userId, message: 'hi' })).statusCode).toBe(404);
    expect((await bob.client.post('/api/v1/chats', { recipientId: bob.userId, message: 'me' })).statusCode).toBe(404);
    const fromManager = expectJson<ChatThreadView>(await manager.client.post('/api/v1/chats', { recipientId: admin.userId, message: 'Report is ready' }), 201);
    expect(fromManager).toMatchObject({ type: 'admin', participant: { id: admin.userId } });
    const fromBob = expectJson<ChatThreadView>(await bob.client.post('/api/v1/chats', { recipientId: admin.userId, message: 'Hello admin' }), 201);

    // Eve takes part in neither thread.
    for (const id of [fromManager.id, fromBob.id, crypto.randomUUID()]) {
      expect((await eve.client.get(`/api/v1/chats/${id}/messages`)).statusCode).toBe(404);
      expect((await eve.client.post(`/api/v1/chats/${id}/messages`, { message: 'sneaky' })).statusCode).toBe(404);
      expect((await eve.client.post(`/api/v1/chats/${id}/read`, {})).statusCode).toBe(404);
    }
    expect(expectJson<Chats>(await eve.client.get('/api/v1/chats'), 200)).toEqual({ threads: [], total: 0, unread: 0 });
    const empty = await bob.client.post(`/api/v1/chats/${fromBob.id}/messages`, { message: '   ' });
    expect(empty.json().error.fields.message).toBe('Message cannot be empty');
    expect((await bob.client.post('/api/v1/chats', { message: 'no recipient' })).json().error.fields.recipientId).toBe('Please select a recipient');
  });

  it('delivers messages and thread changes live to the participants only, with presence from their connections', async () => {
    const client = await createTestClient(app, 'Gamma Inc');
    const gina = await signedInClientUser(app, client.id, 'Gina Client');
    const outsider = await signedInClientUser(app, client.id, 'Otto Outsider');
    const ginaSocket = await connectRealtime(base, { cookie: cookieHeader(gina.client.cookies) });
    const outsiderSocket = await connectRealtime(base, { cookie: cookieHeader(outsider.client.cookies) });
    expect(await ginaSocket.subscribe('chats')).toMatchObject({ type: 'subscribed' });
    expect(await outsiderSocket.subscribe('chats')).toMatchObject({ type: 'subscribed' });

    // Gina's connection marks her online (written on connect, without holding the socket up).
    const lastSeen = async () => (await app.database.db.selectFrom('users').select('lastSeenAt').where('id', '=', gina.userId).executeTakeFirstOrThrow()).lastSeenAt;
    await expect.poll(lastSeen).not.toBeNull();
    const thread = expectJson<ChatThreadView>(await admin.client.post('/api/v1/chats', { recipientId: gina.userId, message: 'Live hello' }), 201);
    expect(thread.status).toBe('online');

    const created = await ginaSocket.next((m) => m.type === 'event' && m.event === 'chat.message.created');
    expect(created).toMatchObject({ topic: 'chats', data: { threadId: thread.id, message: 'Live hello', senderName: 'Ada Admin', isAdmin: true } });
    const updated = await ginaSocket.next((m) => m.type === 'event' && m.event === 'chat.thread.updated');
    // The thread as Gina sees it: the admin as participant, one unread message.
    expect(updated).toMatchObject({ data: { id: thread.id, participant: { id: admin.userId }, unreadCount: 1, lastMessage: 'Live hello' } });

    expect((await gina.client.post(`/api/v1/chats/${thread.id}/read`, {})).statusCode).toBe(204);
    await ginaSocket.next((m) => m.type === 'event' && m.event === 'chat.thread.updated' && (m.data as ChatThreadView).unreadCount === 0);

    // Away after a while without a heartbeat, offline after 15 minutes.
    await app.database.db.updateTable('users').set({ lastSeenAt: new Date(Date.now() - 5 * 60_000) }).where('id', '=', gina.userId).execute();
    expect(expectJson<Chats>(await admin.client.get('/api/v1/chats?search=gina'), 200).threads[0]?.status).toBe('away');
    await app.database.db.updateTable('users').set({ lastSeenAt: new Date(Date.now() - 20 * 60_000) }).where('id', '=', gina.userId).execute();
    expect(expectJson<Chats>(await admin.client.get('/api/v1/chats?search=gina'), 200).threads[0]?.status).toBe('offline');

    expect(outsiderSocket.messages.some((m) => m.type === 'event')).toBe(false);
    ginaSocket.close();
    outsiderSocket.close();
  });
});
