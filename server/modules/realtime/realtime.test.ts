import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { connectRealtime, cookieHeader } from '../../../test/helpers/realtime';

async function listen(app: TestApp): Promise<string> {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

const inbound = (externalId: string, body: string) => ({
  contact: { externalId: `c-${externalId}`, name: 'Visitor' },
  message: { externalId, type: 'text' as const, text: body },
});

describe.each(ENGINES)('realtime (%s)', (engine) => {
  let app: TestApp;
  let base: string;
  beforeAll(async () => {
    app = await createTestApp(engine);
    base = await listen(app);
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('pushes new messages to the inbox and the thread, and keeps clients to their own conversations', async () => {
    const mine = await createTestClient(app, 'Mine');
    const theirs = await createTestClient(app, 'Theirs');
    const myChannel = await createTestChannel(app, { clientId: mine.id, kind: 'webchat' });
    const theirChannel = await createTestChannel(app, { clientId: theirs.id, kind: 'webchat' });
    const admin = await signedInClient(app, 'admin');
    const clientUser = await signedInClient(app, 'client');
    await app.database.db.updateTable('users').set({ clientId: mine.id }).where('id', '=', clientUser.userId).execute();

    const adminSocket = await connectRealtime(base, { cookie: cookieHeader(admin.client.cookies) });
    const clientSocket = await connectRealtime(base, { cookie: cookieHeader(clientUser.client.cookies) });
    expect(await adminSocket.subscribe('inbox')).toMatchObject({ type: 'subscribed' });
    expect(await clientSocket.subscribe('inbox')).toMatchObject({ type: 'subscribed' });

    const other = await app.services.messaging.recordInbound(theirChannel, inbound('t1', 'for them'));
    expect(await clientSocket.subscribe(`conversation:${other.conversationId}`)).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
    const own = await app.services.messaging.recordInbound(myChannel, inbound('m1', 'for me'));

    const seenByAdmin = await adminSocket.next((m) => m.type === 'event' && m.event === 'message.created' && (m.data as { id: string }).id === other.messageId);
    expect(seenByAdmin).toMatchObject({ topic: 'inbox', data: { content: 'for them', clientName: 'Theirs' } });
    await clientSocket.next((m) => m.type === 'event' && m.event === 'message.created' && (m.data as { id: string }).id === own.messageId);
    expect(clientSocket.messages.some((m) => m.type === 'event' && JSON.stringify(m.data).includes(other.messageId))).toBe(false);

    expect(await clientSocket.subscribe(`conversation:${own.conversationId}`)).toMatchObject({ type: 'subscribed' });
    const reply = await app.services.messaging.sendMessage(own.conversationId, { text: 'on it', senderType: 'agent', senderId: admin.userId }, { kind: 'user', userId: admin.userId });
    await clientSocket.next((m) => m.type === 'event' && m.topic === `conversation:${own.conversationId}` && (m.data as { id: string }).id === reply.id);
    adminSocket.close();
    clientSocket.close();
  });

  it("pushes a user's own new notifications (the bell), and nobody else's", async () => {
    const alice = await signedInClient(app, 'manager');
    const bob = await signedInClient(app, 'manager');
    const aliceSocket = await connectRealtime(base, { cookie: cookieHeader(alice.client.cookies) });
    const bobSocket = await connectRealtime(base, { cookie: cookieHeader(bob.client.cookies) });
    expect(await aliceSocket.subscribe('notifications')).toMatchObject({ type: 'subscribed' });
    expect(await bobSocket.subscribe('notifications')).toMatchObject({ type: 'subscribed' });
    const note = await app.services.notifications.notify(alice.userId, { kind: 'test', title: 'For Alice' });
    const seen = await aliceSocket.next((m) => m.type === 'event' && m.event === 'notification.created');
    expect(seen).toMatchObject({ topic: 'notifications', data: { id: note.id } });
    const forBob = await app.services.notifications.notify(bob.userId, { kind: 'test', title: 'For Bob' });
    await bobSocket.next((m) => m.type === 'event' && m.event === 'notification.created' && (m.data as { id: string }).id === forBob.id);
    expect(bobSocket.messages.some((m) => m.type === 'event' && (m.data as { id?: string }).id === note.id)).toBe(false);
    expect(aliceSocket.messages.some((m) => m.type === 'event' && (m.data as { id?: string }).id === forBob.id)).toBe(false);
    aliceSocket.close();
    bobSocket.close();
  });

  it('refuses a signed-in socket from another site, and lets a visitor follow only their own conversation', async () => {
    const admin = await signedInClient(app, 'admin');
    const foreign = await connectRealtime(base, { cookie: cookieHeader(admin.client.cookies), origin: 'https://evil.example' });
    expect(foreign.messages[0]).toMatchObject({ type: 'error', code: 'UNAUTHENTICATED' });

    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat', externalId: 'widget-abc' });
    const me = app.services.visitorTokens.issue('widget-abc');
    const someoneElse = app.services.visitorTokens.issue('widget-abc');
    const forged = await connectRealtime(base, { query: `widgetId=widget-abc&visitorToken=${me.visitorId}.forged`, origin: 'https://shop.example' });
    expect(forged.messages[0]).toMatchObject({ type: 'error', code: 'UNAUTHENTICATED' });

    const visitor = await connectRealtime(base, { query: `widgetId=widget-abc&visitorToken=${encodeURIComponent(me.visitorToken)}`, origin: 'https://shop.example' });
    expect(await visitor.subscribe('inbox')).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
    expect(await visitor.subscribe('widget')).toMatchObject({ type: 'subscribed' });
    await app.services.messaging.recordInbound(channel, { contact: { externalId: someoneElse.visitorId }, message: { externalId: 'x1', type: 'text', text: 'not yours' } });
    const mine = await app.services.messaging.recordInbound(channel, { contact: { externalId: me.visitorId }, message: { externalId: 'x2', type: 'text', text: 'mine' } });
    const event = await visitor.next((m) => m.type === 'event' && (m.data as { id: string }).id === mine.messageId);
    expect(event).toMatchObject({ topic: 'widget', data: { from: 'visitor', text: 'mine' } });
    expect(visitor.messages.some((m) => m.type === 'event' && (m.data as { text: string }).text === 'not yours')).toBe(false);
    visitor.close();
  });

  it.runIf(engine === 'postgres')('delivers an event published by one instance to a socket connected to another', async () => {
    const second = await createTestApp(engine, { database: await secondInstance(app.database) });
    try {
      const secondBase = await listen(second);
      const admin = await signedInClient(second, 'admin');
      const socket = await connectRealtime(secondBase, { cookie: cookieHeader(admin.client.cookies) });
      expect(await socket.subscribe('inbox')).toMatchObject({ type: 'subscribed' });
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      // Published by the first instance…
      const { messageId } = await app.services.messaging.recordInbound(channel, inbound('cross-1', 'across instances'));
      // …arrives at a socket of the second.
      const event = await socket.next((m) => m.type === 'event' && m.event === 'message.created' && (m.data as { id: string }).id === messageId);
      expect(event).toMatchObject({ data: { content: 'across instances' } });
      socket.close();
    } finally {
      await second.destroy();
    }
  });
});
