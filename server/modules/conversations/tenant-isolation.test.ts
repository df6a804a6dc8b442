/**
 * Tenant isolation (issue §8): a client user reaches only their own client's conversations,
 * messages, contacts, exports and live topics; another client's ids answer 404 (never 403), so
 * nothing tells them the id exists. Staff see every client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactView, ConversationView, MessageView } from '../../../common/api/conversations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { connectRealtime, cookieHeader } from '../../../test/helpers/realtime';

async function listen(app: TestApp): Promise<string> {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe.each(ENGINES)('tenant isolation (%s)', (engine) => {
  let app: TestApp;
  let base: string;
  let alice: { client: TestClient; userId: string };
  const own = { conversationId: '', messageId: '', contactId: '' };
  const foreign = { conversationId: '', messageId: '', replyId: '', contactId: '' };

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    base = await listen(app);
    const mine = await createTestClient(app, 'Alpha Bakery');
    const theirs = await createTestClient(app, 'Omega Garage');
    const myChannel = await createTestChannel(app, { clientId: mine.id, kind: 'webchat' });
    const theirChannel = await createTestChannel(app, { clientId: theirs.id, kind: 'webchat' });
    alice = await signedInClientUser(app, mine.id, 'Alice Alpha');

    const a = await app.services.messaging.recordInbound(myChannel, customerText('v_alpha_customer', 'Fresh bread today?'));
    Object.assign(own, { conversationId: a.conversationId, messageId: a.messageId });
    own.contactId = (await app.database.db.selectFrom('conversations').select('contactId').where('id', '=', a.conversationId).executeTakeFirstOrThrow()).contactId;
    const b = await app.services.messaging.recordInbound(theirChannel, customerText('v_omega_customer', 'SECRET-OMEGA brakes broken'));
    const reply = await app.services.messaging.sendMessage(b.conversationId, { text: 'SECRET-OMEGA reply', senderType: 'agent', senderId: null }, { kind: 'system' });
    await app.database.db.updateTable('messages').set({ status: 'failed', errorCode: 'x', errorMessage: 'x' }).where('id', '=', reply.id).execute();
    foreign.conversationId = b.conversationId;
    foreign.messageId = b.messageId;
    foreign.replyId = reply.id;
    foreign.contactId = (await app.database.db.selectFrom('conversations').select('contactId').where('id', '=', b.conversationId).executeTakeFirstOrThrow()).contactId;
    await app.database.db.insertInto('contacts').values({ clientId: theirs.id, channelId: theirChannel.id, externalId: 'v_omega_new', name: 'Omega Lead' }).execute();
  });
  afterAll(async () => {
    await app.destroy();
  });

  it("answers 404 for every route given another client's conversation or message, and changes nothing", async () => {
    const c = `/api/v1/conversations/${foreign.conversationId}`;
    const attempts: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['get conversation', () => alice.client.get(c)],
      ['patch conversation', () => alice.client.patch(c, { status: 'resolved', handledBy: 'ai' })],
      ['read conversation', () => alice.client.post(`${c}/read`, {})],
      ['thread', () => alice.client.get(`${c}/messages`)],
      ['send', () => alice.client.post(`${c}/messages`, { text: 'hi' })],
      ['retry', () => alice.client.post(`${c}/messages/${foreign.replyId}/retry`, {})],
      ['mark message read', () => alice.client.post(`/api/v1/messages/${foreign.messageId}/read`, {})],
      ['respond', () => alice.client.post(`/api/v1/messages/${foreign.messageId}/respond`, { text: 'hi' })],
      ['start with their contact', () => alice.client.post('/api/v1/conversations', { contactId: foreign.contactId, text: 'hi' })],
      // Their message id paired with her own conversation id is no way in either.
      ['retry via own conversation', () => alice.client.post(`/api/v1/conversations/${own.conversationId}/messages/${foreign.replyId}/retry`, {})],
      ['page with their message', () => alice.client.get(`/api/v1/conversations/${own.conversationId}/messages?before=${foreign.messageId}`)],
    ];
    for (const [what, attempt] of attempts) {
      const response = await attempt();
      expect({ what, status: response.statusCode }).toEqual({ what, status: 404 });
      expect(response.body).not.toContain('SECRET-OMEGA');
    }
    const stored = await app.database.db.selectFrom('conversations').selectAll().where('id', '=', foreign.conversationId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'active', handledBy: 'human', unreadCount: 1 });
    const messages = await app.database.db.selectFrom('messages').select(['id', 'status', 'readAt']).where('conversationId', '=', foreign.conversationId).execute();
    expect(messages).toHaveLength(2);
    expect(messages.find((m) => m.id === foreign.messageId)?.readAt).toBeNull();
    expect(messages.find((m) => m.id === foreign.replyId)?.status).toBe('failed');
  });

  it('lists, counts, searches, marks all read and exports only her own client', async () => {
    const page = expectJson<{ conversations: ConversationView[]; counts: { all: number; unread: number } }>(await alice.client.get('/api/v1/conversations'), 200);
    expect(page.conversations.map((c) => c.id)).toEqual([own.conversationId]);
    expect(page.counts).toMatchObject({ all: 1, unread: 1 });
    expect(expectJson<{ conversations: ConversationView[] }>(await alice.client.get('/api/v1/conversations?search=SECRET-OMEGA'), 200).conversations).toEqual([]);
    // Filtering by another client's id shows nothing rather than their data.
    const theirClientId = (await app.database.db.selectFrom('conversations').select('clientId').where('id', '=', foreign.conversationId).executeTakeFirstOrThrow()).clientId;
    expect(expectJson<{ conversations: ConversationView[] }>(await alice.client.get(`/api/v1/conversations?clientId=${theirClientId}`), 200).conversations).toEqual([]);

    const contacts = expectJson<{ contacts: ContactView[] }>(await alice.client.get('/api/v1/contacts'), 200).contacts;
    expect(contacts.map((c) => c.id)).toEqual([own.contactId]);

    const messages = expectJson<{ messages: MessageView[]; unreadCount: number }>(await alice.client.get('/api/v1/messages'), 200);
    expect(messages.messages.map((m) => m.id)).toEqual([own.messageId]);
    expect(messages.unreadCount).toBe(1);

    const csv = await alice.client.get('/api/v1/messages/export.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Fresh bread today?');
    expect(csv.body).not.toContain('SECRET-OMEGA');
    expect(csv.body).not.toContain('Omega Garage');
    expect(csv.body.trim().split('\r\n')).toHaveLength(2);

    expect(expectJson(await alice.client.post('/api/v1/messages/read-all', {}), 200)).toEqual({ updated: 1 });
    const theirs = await app.database.db.selectFrom('conversations').select('unreadCount').where('id', '=', foreign.conversationId).executeTakeFirstOrThrow();
    expect(theirs.unreadCount).toBe(1);
  });

  it("refuses a socket subscription to another client's conversation (NOT_FOUND) and accepts her own", async () => {
    const socket = await connectRealtime(base, { cookie: cookieHeader(alice.client.cookies) });
    expect(await socket.subscribe(`conversation:${foreign.conversationId}`)).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
    expect(await socket.subscribe(`conversation:${own.conversationId}`)).toMatchObject({ type: 'subscribed' });
    socket.close();
  });

  it('a client user without a client sees nothing; a manager sees every client', async () => {
    const { client: loose } = await signedInClient(app, 'client');
    expect(expectJson<{ conversations: unknown[] }>(await loose.get('/api/v1/conversations'), 200).conversations).toEqual([]);
    expect((await loose.get(`/api/v1/conversations/${own.conversationId}`)).statusCode).toBe(404);
    expect(expectJson<{ messages: unknown[] }>(await loose.get('/api/v1/messages'), 200).messages).toEqual([]);

    const { client: manager } = await signedInClient(app, 'manager');
    const all = expectJson<{ conversations: ConversationView[] }>(await manager.get('/api/v1/conversations'), 200).conversations.map((c) => c.id);
    expect(all).toEqual(expect.arrayContaining([own.conversationId, foreign.conversationId]));
    expect(expectJson<ConversationView>(await manager.get(`/api/v1/conversations/${foreign.conversationId}`), 200).clientName).toBe('Omega Garage');
  });
});
