import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ManualClock } from '../../lib/clock';

const text = (externalId: string, body: string) => ({
  contact: { externalId: 'cust-1', name: 'Ana Souza' },
  message: { externalId, type: 'text' as const, text: body },
});

describe.each(ENGINES)('messaging core (%s)', (engine) => {
  let app: TestApp;
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    app = await createTestApp(engine, { clock });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('stores a redelivered message once, even 50 deliveries at the same time', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const results = await Promise.all(Array.from({ length: 50 }, () => app.services.messaging.recordInbound(channel, text('wamid.same', 'Hello émoji 👋'))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.messageId)).size).toBe(1);
    const messages = await app.database.db.selectFrom('messages').selectAll().where('channelId', '=', channel.id).execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ content: 'Hello émoji 👋', direction: 'inbound', senderType: 'customer', status: 'received' });
    const conversation = await app.database.db.selectFrom('conversations').selectAll().where('channelId', '=', channel.id).executeTakeFirstOrThrow();
    expect(conversation.unreadCount).toBe(1);
  });

  it('derives priority and the keyword summary, and raises the conversation priority', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'messenger' });
    const { messageId, conversationId } = await app.services.messaging.recordInbound(channel, text('m1', 'URGENT: my order never arrived'));
    const m = await app.database.db.selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
    expect(m.priority).toBe('high');
    expect(m.aiSummary).toMatch(/^Order inquiry/u);
    const c = await app.database.db.selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(c.priority).toBe('high');
  });

  it('sends a reply through the job and never moves a delivery status backwards', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('w1', 'hi'));
    const reply = await app.services.messaging.sendMessage(conversationId, { text: 'Hello!', senderType: 'agent', senderId: null }, { kind: 'system' });
    expect(reply.status).toBe('queued');
    await app.queue.waitForIdle();
    let stored = await app.database.db.selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('sent');
    expect(stored.attempts).toBe(1);

    await app.database.db.updateTable('messages').set({ externalMessageId: 'out-1' }).where('id', '=', reply.id).execute();
    expect(await app.services.messaging.recordStatus(channel, 'out-1', 'read')).toBe(true);
    expect(await app.services.messaging.recordStatus(channel, 'out-1', 'delivered')).toBe(false);
    expect(await app.services.messaging.recordStatus(channel, 'out-1', 'failed', { code: '1', message: 'x' })).toBe(false);
    stored = await app.database.db.selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('read');
    const conversation = await app.database.db.selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation.handledBy).toBe('human');
    expect(conversation.firstResponseAt).not.toBeNull();
  });

  it('stores a reply and a summary whose text (from an LLM, say) carries a lone surrogate or U+0000, cleaned rather than failed', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('w-lone', 'hi'));
    const reply = await app.services.messaging.sendMessage(
      conversationId,
      { text: 'Broken \ud800 pair and a \u0000 NUL 👋', senderType: 'agent', senderId: null },
      { kind: 'system' },
    );
    const stored = await app.database.db.selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
    expect(stored.content).toBe('Broken \ufffd pair and a  NUL 👋');
    await app.services.messaging.setConversationSummary(conversationId, 'Asked \udc00 about', { kind: 'ai' });
    const conversation = await app.database.db.selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation.aiSummary).toBe('Asked \ufffd about');
    await app.queue.waitForIdle();
  });

  it('refuses free text outside the 24-hour window on Meta channels', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'instagram' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('ig1', 'hello'));
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    await expect(
      app.services.messaging.sendMessage(conversationId, { text: 'late', senderType: 'agent', senderId: null }, { kind: 'system' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'window_closed' } });
    expect(await app.database.db.selectFrom('messages').select('id').where('conversationId', '=', conversationId).execute()).toHaveLength(1);
  });

  it('matches the echo of its own send instead of storing it twice, and records a reply typed in the app', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'messenger' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('in-1', 'hello'));
    const sent = await app.services.messaging.sendMessage(conversationId, { text: 'Our reply', senderType: 'agent', senderId: null }, { kind: 'system' });
    const echo = await app.services.messaging.recordEcho(channel, { ...text('echo-1', 'Our reply'), ourMessageId: sent.id });
    expect(echo).toMatchObject({ created: false, matched: true, messageId: sent.id });
    const typed = await app.services.messaging.recordEcho(channel, text('echo-2', 'Typed on my phone'));
    expect(typed).toMatchObject({ created: true, matched: false });
    const again = await app.services.messaging.recordEcho(channel, text('echo-2', 'Typed on my phone'));
    expect(again).toMatchObject({ created: false, messageId: typed.messageId });
    const outbound = await app.database.db
      .selectFrom('messages')
      .select(['content', 'senderType', 'externalMessageId'])
      .where('conversationId', '=', conversationId)
      .where('direction', '=', 'outbound')
      .orderBy('createdAt')
      .execute();
    expect(outbound).toEqual([
      { content: 'Our reply', senderType: 'agent', externalMessageId: 'echo-1' },
      { content: 'Typed on my phone', senderType: 'agent', externalMessageId: 'echo-2' },
    ]);
  });
});
