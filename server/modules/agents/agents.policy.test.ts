import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import type { UpdateAgentInput } from '../../../common/api/agents';
import { createAgentClient } from '../../../test/helpers/agents';
import { decide } from './agents.policy';

function text(externalId: string, body: string, contact = 'visitor-1') {
  return { contact: { externalId: contact, name: 'Dana' }, message: { externalId, type: 'text' as const, text: body } };
}

describe('decide', () => {
  const config = { confidenceThreshold: 0.8, escalationEnabled: true };
  it('answers at or above the threshold, hands off below it or when the customer asks for a person', () => {
    expect(decide({ confidence: 0.85, action: 'answer' }, config, 'opening hours?')).toBe('answer');
    expect(decide({ confidence: 0.79, action: 'answer' }, config, 'opening hours?')).toBe('handoff');
    expect(decide({ confidence: 0.95, action: 'escalate' }, config, 'x')).toBe('handoff');
    expect(decide({ confidence: 0.95, action: 'answer' }, config, 'Can I talk to a human please?')).toBe('handoff');
  });
  it('sends the fallback text instead when escalation is off', () => {
    expect(decide({ confidence: 0.1, action: 'answer' }, { confidenceThreshold: 0.8, escalationEnabled: false }, 'x')).toBe('fallback');
    expect(decide({ confidence: 0.95, action: 'answer' }, { confidenceThreshold: 0.9, escalationEnabled: false }, 'x')).toBe('answer');
  });
});

describe.each(ENGINES)('AI agent policy (%s)', (engine) => {
  let app: TestApp;
  // Real time that a test can move forward (messages keep their order).
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  beforeAll(async () => {
    app = await createTestApp(engine, { clock });
  });
  afterAll(async () => {
    await app.destroy();
  });

  const setup = (config: UpdateAgentInput = {}) => createAgentClient(app, config);

  const db = () => app.database.db;
  const thread = (conversationId: string) =>
    db().selectFrom('messages').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').orderBy('id').execute();

  it('trains in the background and answers a paraphrase from the knowledge base, recording engine, sources and confidence', async () => {
    const { client, channel } = await setup();
    const training = await app.services.agents.training(client.id);
    expect(training).toMatchObject({ status: 'idle', knowledgeVersion: 1, liveVersion: 1 });
    expect(training.metrics).toMatchObject({ entries: 4, examples: 20 });

    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m1', 'is shipping free or do you charge for delivery?'));
    await app.queue.waitForIdle();
    const messages = await thread(conversationId);
    expect(messages).toHaveLength(2);
    const reply = messages[1];
    expect(reply).toMatchObject({ senderType: 'ai', content: 'Shipping is free over 50 euros, otherwise 4.90.' });
    expect(reply?.aiConfidence).toBeGreaterThanOrEqual(0.8);
    expect(reply?.ai).toMatchObject({ engine: 'embedded', decision: 'answer', knowledgeVersion: 1 });
    expect(reply?.ai?.sources[0]).toMatchObject({ kind: 'faq', title: 'How much does shipping cost?' });
    const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation).toMatchObject({ status: 'active', handledBy: 'ai', responseCount: 1 });
    expect(conversation.aiSummary).toMatch(/^Customer: .*shipping.*Answered by the AI\.$/u);
    expect(messages[0]?.aiSummary).toMatch(/Topic: How much does shipping cost\?/u);
  });

  it('escalates nonsense below the threshold: hand-off text, escalated, human, high priority, staff notified in the app and by e-mail', async () => {
    const { channel } = await setup();
    const admin = await signedInClient(app, 'admin');
    const manager = await signedInClient(app, 'manager');
    await db().updateTable('users').set({ notificationPreferences: JSON.stringify({ emailNotifications: false, messageAlerts: true, weeklyReports: false, securityAlerts: true }) }).where('id', '=', manager.userId).execute();
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m2', 'purple elephant quantum banana', 'visitor-2'));
    await app.queue.waitForIdle();
    const messages = await thread(conversationId);
    expect(messages.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    expect(messages[1]?.ai?.decision).toBe('handoff');
    expect(messages[1]?.content).toMatch(/passing you to a member of our team/u);
    const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation).toMatchObject({ status: 'escalated', handledBy: 'human', priority: 'high' });
    for (const user of [admin, manager]) {
      const notes = await app.services.notifications.findNotifications(user.userId, { limit: 10 });
      expect(notes.unreadCount).toBeGreaterThanOrEqual(1);
      expect(notes.notifications.some((n) => n.kind === 'conversation.escalated' && n.link === `/conversations?conversation=${conversationId}`)).toBe(true);
    }
    const emails = await db().selectFrom('emails').select(['toAddress', 'kind']).where('kind', '=', 'conversation-escalated').execute();
    expect(emails.map((e) => e.toAddress)).toContain(admin.email);
    expect(emails.map((e) => e.toAddress)).not.toContain(manager.email);

    // A person's reply takes over; the AI stays quiet on the next customer message.
    await app.services.messaging.sendMessage(conversationId, { text: 'Hi, Sam here.', senderType: 'agent', senderId: admin.userId }, { kind: 'user', userId: admin.userId });
    await app.services.messaging.recordInbound(channel, text('m3', 'how much is delivery?', 'visitor-2'));
    await app.queue.waitForIdle();
    expect((await thread(conversationId)).map((m) => m.senderType)).toEqual(['customer', 'ai', 'agent', 'customer']);

    // "Return to AI" hands it back: the AI answers again.
    const returned = await admin.client.patch(`/api/v1/conversations/${conversationId}`, { handledBy: 'ai' });
    expect(returned.statusCode).toBe(200);
    expect(returned.json()).toMatchObject({ status: 'active', handledBy: 'ai' });
    await app.services.messaging.recordInbound(channel, text('m4', 'when are you open?', 'visitor-2'));
    await app.queue.waitForIdle();
    const last = (await thread(conversationId)).at(-1);
    expect(last).toMatchObject({ senderType: 'ai', content: 'We are open Monday to Saturday, 9:00 to 18:00.' });
  });

  it('hands off when the customer asks for a person, even on a confident match', async () => {
    const { channel } = await setup();
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m5', 'Can I speak to a real person about my refund?', 'visitor-3'));
    await app.queue.waitForIdle();
    const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation.status).toBe('escalated');
    expect((await thread(conversationId)).at(-1)?.ai?.decision).toBe('handoff');
  });

  it('sends the fallback text and keeps the conversation when escalation is off', async () => {
    const { channel } = await setup({ escalationEnabled: false, fallbackText: 'Could you say that differently?' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m6', 'zxqv wibble plonk', 'visitor-4'));
    await app.queue.waitForIdle();
    const last = (await thread(conversationId)).at(-1);
    expect(last).toMatchObject({ senderType: 'ai', content: 'Could you say that differently?' });
    expect(last?.ai?.decision).toBe('fallback');
    const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation).toMatchObject({ status: 'active', handledBy: 'ai' });
  });

  it('answers a greeting with the greeting text', async () => {
    const { channel } = await setup({ greetingText: 'Hello from the test shop!' });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m7', 'Hi there!', 'visitor-5'));
    await app.queue.waitForIdle();
    expect((await thread(conversationId)).at(-1)).toMatchObject({ senderType: 'ai', content: 'Hello from the test shop!' });
  });

  it('schedules the reply after the response delay, from the time the message arrived', async () => {
    const { channel } = await setup({ responseDelaySeconds: 45 });
    const { messageId } = await app.services.messaging.recordInbound(channel, text('m8', 'when are you open?', 'visitor-6'));
    await app.queue.waitForIdle();
    const job = await db().selectFrom('jobs').select(['runAt', 'status']).where('name', '=', 'agents.reply').where('payload', '@>', JSON.stringify({ messageId }) as never).executeTakeFirstOrThrow();
    const message = await db().selectFrom('messages').select('createdAt').where('id', '=', messageId).executeTakeFirstOrThrow();
    expect(new Date(job.runAt).getTime() - message.createdAt.getTime()).toBe(45_000);
    expect(job.status).toBe('queued');
    const messages = await db().selectFrom('messages').select('senderType').where('channelId', '=', channel.id).execute();
    expect(messages.map((m) => m.senderType)).toEqual(['customer']);
  });

  it('does nothing when switched off, or on a channel it is switched off for', async () => {
    const { client, channel } = await setup({ enabled: false });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m9', 'when are you open?', 'visitor-7'));
    await app.queue.waitForIdle();
    expect(await thread(conversationId)).toHaveLength(1);
    await app.services.agents.updateAgent(client.id, { enabled: true, disabledChannelIds: [channel.id] });
    await app.services.messaging.recordInbound(channel, text('m10', 'when are you open?', 'visitor-7'));
    await app.queue.waitForIdle();
    expect(await thread(conversationId)).toHaveLength(2);
  });

  it('never sends outside the 24-hour window', async () => {
    const { channel } = await createAgentClient(app, {}, 'whatsapp');
    await app.queue.stop();
    try {
      const { messageId, conversationId } = await app.services.messaging.recordInbound(channel, text('wa1', 'when are you open?', '15550001'));
      // The reply runs a day later (a long outage, say): the window has closed.
      offsetMs = 25 * 60 * 60_000;
      await app.services.agentPolicy.reply(messageId);
      expect(await thread(conversationId)).toHaveLength(1);
    } finally {
      offsetMs = 0;
      await app.queue.start();
    }
  });

  it('sends the away text once outside business hours and leaves the conversation pending', async () => {
    const now = new Date();
    const closedDay = (now.getUTCDay() + 3) % 7;
    const { channel } = await setup({
      businessHours: { timezone: 'UTC', days: [{ day: closedDay, open: '09:00', close: '17:00' }] },
      outsideHours: 'away',
      awayText: 'We are closed, back soon.',
    });
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('m11', 'when are you open?', 'visitor-8'));
    await app.queue.waitForIdle();
    await app.services.messaging.recordInbound(channel, text('m12', 'hello? shipping cost?', 'visitor-8'));
    await app.queue.waitForIdle();
    const messages = await thread(conversationId);
    expect(messages.filter((m) => m.senderType === 'ai').map((m) => m.content)).toEqual(['We are closed, back soon.']);
    const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
    expect(conversation.status).toBe('pending');
  });

  it('answers a burst of messages once, and a job run twice does not answer twice', async () => {
    const { channel } = await setup();
    await app.queue.stop();
    let ids: string[] = [];
    let conversationId = '';
    try {
      const first = await app.services.messaging.recordInbound(channel, text('b1', 'hello', 'visitor-9'));
      const second = await app.services.messaging.recordInbound(channel, text('b2', 'how much does shipping cost?', 'visitor-9'));
      ids = [first.messageId, second.messageId];
      conversationId = first.conversationId;
    } finally {
      await app.queue.start();
    }
    await app.queue.waitForIdle();
    await app.services.agentPolicy.reply(ids[1] ?? '');
    const ai = (await thread(conversationId)).filter((m) => m.senderType === 'ai');
    expect(ai.map((m) => m.content)).toEqual(['Shipping is free over 50 euros, otherwise 4.90.']);
  });

  it('records sentiment and raises priority for an angry customer, and keeps response times', async () => {
    const { channel } = await setup();
    const { messageId, conversationId } = await app.services.messaging.recordInbound(channel, text('s1', 'This is terrible, awful, horrible service. I hate it.', 'visitor-10'));
    await app.queue.waitForIdle();
    const message = await db().selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
    expect(message.sentiment).toBeLessThan(-0.75);
    expect(message.priority).toBe('high');
    const view = await app.services.conversationsRepository.findConversationView(conversationId, { clientId: null }, clock.now());
    expect(view?.sentiment).toBe('negative');
    expect(view?.averageResponseSeconds).not.toBeNull();
  });
});
