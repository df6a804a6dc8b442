/**
 * What the agent understood (issue 12 §4), through the real WhatsApp path on both engines: a
 * signed delivery to /webhooks/whatsapp, the webhook job, messaging's `parley_record_inbound`, the
 * AI agent (embedded engine) and its reply through a fake Graph API — then read back through the
 * portal's API as the thread header and the list show it: what the customer wants, sentiment,
 * priority with its reason, the knowledge entry answered from, and why it was escalated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracyNote } from '../../../common/agents/accuracy-note';
import { DEFAULT_AGENT_TEXTS, type TryAgentResult } from '../../../common/api/agents';
import type { ConversationView, MessageView } from '../../../common/api/conversations';
import { STORE_FAQ } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeGraphApi, type FakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { expectJson } from '../../../test/helpers/inbox';
import { createMetaChannel, postDelivery, whatsappDelivery, type MetaTestChannel } from '../../../test/helpers/meta-webhooks';
import { createTestClient } from '../../../test/helpers/messaging';

describe.each(ENGINES)('what the agent understood, through WhatsApp (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let admin: TestClient;
  let channel: MetaTestChannel;
  let n = 0;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url } });
    admin = (await signedInClient(app, 'admin')).client;
    const client = await createTestClient(app);
    channel = await createMetaChannel(app, 'whatsapp', `7${Date.now()}${engine === 'pglite' ? 1 : 2}`, { clientId: client.id });
    await app.services.agents.importKnowledge(client.id, { format: 'json', content: JSON.stringify(STORE_FAQ), mode: 'replace' });
    await app.services.agents.updateAgent(client.id, { enabled: true, responseDelaySeconds: 0 });
    await app.queue.waitForIdle();
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });

  /** One customer's text message as Meta delivers it; resolves with the conversation and its thread once the agent is done. */
  async function customerWrites(text: string): Promise<{ conversation: ConversationView; thread: MessageView[] }> {
    n += 1;
    const from = `1555123${String(n).padStart(4, '0')}`;
    const delivery = whatsappDelivery(channel.externalId, {
      contacts: [{ profile: { name: `Customer ${n}` }, wa_id: from }],
      messages: [{ from, id: `wamid.understanding-${engine}-${n}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
    });
    expect((await postDelivery(app, 'whatsapp', delivery, { appSecret: channel.appSecret })).statusCode).toBe(200);
    await app.queue.waitForIdle();
    const row = await app.database.db
      .selectFrom('conversations as c')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .select('c.id')
      .where('c.channelId', '=', channel.id)
      .where('ct.externalId', '=', from)
      .executeTakeFirstOrThrow();
    const conversation = expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${row.id}`), 200);
    const thread = expectJson<{ messages: MessageView[] }>(await admin.get(`/api/v1/conversations/${row.id}/messages`), 200).messages;
    return { conversation, thread };
  }

  it('an answered question: the matched entry names the topic, the answer came from it, no priority raised', async () => {
    const { conversation, thread } = await customerWrites('is shipping free or do you charge for delivery?');
    expect(thread.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    expect(thread[1]?.ai?.decision).toBe('answer');
    expect(thread[0]?.aiSummary).toBe('Order inquiry — Topic: How much does shipping cost?');
    expect(conversation.request).toBe('Order inquiry — Topic: How much does shipping cost?');
    expect(conversation.matchedEntry).toMatchObject({ kind: 'faq', title: 'How much does shipping cost?' });
    expect(conversation.sentiment).not.toBeNull();
    expect(conversation).toMatchObject({ priority: 'low', priorityReason: null, escalationReason: null });
  });

  it('a keyword raises the priority and is named as its reason, on the message and the conversation', async () => {
    const { conversation, thread } = await customerWrites('URGENT: where is my parcel? It has not arrived');
    expect(thread[0]).toMatchObject({ priority: 'high', priorityReason: 'Keyword “urgent”' });
    expect(conversation).toMatchObject({ priority: 'high', priorityReason: 'Keyword “urgent”' });
  });

  it('a very negative message is high priority for its tone', async () => {
    const { conversation, thread } = await customerWrites('This is terrible, awful, horrible. I hate it.');
    expect(thread[0]).toMatchObject({ priority: 'high', priorityReason: 'Very negative tone', sentiment: 'negative' });
    expect(conversation).toMatchObject({ priority: 'high', priorityReason: 'Very negative tone', sentiment: 'negative' });
  });

  it('a hand-off below the threshold records why, as the escalation reason and the priority reason', async () => {
    const { conversation, thread } = await customerWrites('purple elephant quantum banana');
    expect(thread[1]?.ai?.decision).toBe('handoff');
    expect(conversation.status).toBe('escalated');
    expect(conversation.escalationReason).toMatch(/^the AI was not confident enough \(\d+%\)$/u);
    expect(conversation.priority).toBe('high');
    expect(conversation.priorityReason).toBe(`Handed to a person: ${conversation.escalationReason}`);
    expect(thread[0]).toMatchObject({ priority: 'high', priorityReason: conversation.priorityReason });
    // Nothing was answered from the knowledge base: the summary quotes the customer.
    expect(conversation.matchedEntry).toBeNull();
    expect(conversation.request).toBe('Says: “purple elephant quantum banana”');
  });

  it('a customer asking for a person: that is the reason', async () => {
    const { conversation } = await customerWrites('Can I talk to a human please?');
    expect(conversation.status).toBe('escalated');
    expect(conversation.escalationReason).toBe('the customer asked for a person');
    expect(conversation.priorityReason).toBe('Handed to a person: the customer asked for a person');
    expect(conversation.request).toBe('Asks: “Can I talk to a human please?”');
  });

  it('a person choosing the priority, or escalating, is the reason then', async () => {
    const { conversation } = await customerWrites('What time do you close?');
    const patched = expectJson<ConversationView>(await admin.patch(`/api/v1/conversations/${conversation.id}`, { priority: 'medium', status: 'escalated' }), 200);
    expect(patched).toMatchObject({ priority: 'medium', priorityReason: 'Set by a person', status: 'escalated', escalationReason: 'a person escalated it' });
  });

  it('records what the accuracy figure was measured on, and that a 20-question FAQ is too small to estimate it', async () => {
    const training = await app.services.agents.training(channel.clientId);
    const measuredOn = training.metrics?.accuracyQuestions ?? 0;
    expect(measuredOn).toBeGreaterThan(0);
    expect(measuredOn).toBeLessThanOrEqual(20);
    const note = accuracyNote(training.metrics!);
    expect(note.tooSmall).toBe(true);
    expect(note.text).toContain(`measured on ${measuredOn} example question`);
  });

  it('"Try the agent" shows what the customer would receive, and the rejected candidate apart', async () => {
    const clientId = channel.clientId;
    const answered = expectJson<TryAgentResult>(await admin.post(`/api/v1/clients/${clientId}/agent/try`, { message: 'is shipping free?' }), 200);
    expect(answered.received).toEqual({ kind: 'answer', text: 'Shipping is free over 50 euros, otherwise 4.90.' });
    expect(answered.rejected).toBeNull();

    const person = expectJson<TryAgentResult>(await admin.post(`/api/v1/clients/${clientId}/agent/try`, { message: 'I want to talk to a human' }), 200);
    expect(person.received).toEqual({ kind: 'handoff', text: DEFAULT_AGENT_TEXTS.handoff });
    expect(person.reply).not.toBe(DEFAULT_AGENT_TEXTS.handoff);
    if (person.rejected) expect(person.rejected.reason).toBe('the customer asks for a person');

    const greeting = expectJson<TryAgentResult>(await admin.post(`/api/v1/clients/${clientId}/agent/try`, { message: 'hello!' }), 200);
    expect(greeting.received).toEqual({ kind: 'greeting', text: DEFAULT_AGENT_TEXTS.greeting });

    await app.services.agents.updateAgent(clientId, { escalationEnabled: false });
    try {
      const unsure = expectJson<TryAgentResult>(await admin.post(`/api/v1/clients/${clientId}/agent/try`, { message: 'purple elephant quantum banana' }), 200);
      expect(unsure.decision).toBe('fallback');
      expect(unsure.received).toEqual({ kind: 'fallback', text: DEFAULT_AGENT_TEXTS.fallback });
      if (unsure.rejected) {
        expect(unsure.rejected.confidence).toBeLessThan(0.8);
        expect(unsure.rejected.reason).toBe('its confidence is below the threshold (80%)');
      }
    } finally {
      await app.services.agents.updateAgent(clientId, { escalationEnabled: true });
    }
  });
});
