/** The typing indicator while the agent waits out its response delay, on the platforms that have one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeGraphApi, type FakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';

const FAQ = JSON.stringify([{ questions: ['When are you open?', 'Opening hours?', 'What time do you open?'], answer: 'Nine to five.' }]);

describe.each(ENGINES)('typing indicator (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url } });
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });

  async function agentOn(kind: 'whatsapp' | 'messenger' | 'instagram', delay: number) {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind });
    await app.services.agents.importKnowledge(client.id, { format: 'json', content: FAQ, mode: 'replace' });
    await app.services.agents.updateAgent(client.id, { enabled: true, responseDelaySeconds: delay });
    await app.queue.waitForIdle();
    return channel;
  }

  it('WhatsApp: marks the message read with a typing indicator during the delay', async () => {
    const channel = await agentOn('whatsapp', 30);
    await app.services.messaging.recordInbound(channel, { contact: { externalId: '15550009' }, message: { externalId: 'wamid.typing-1', type: 'text', text: 'when are you open?' } });
    await app.queue.waitForIdle();
    const sent = graph.requestsTo('POST', `/v21.0/${channel.externalId}/messages`).map((r) => r.body);
    expect(sent).toEqual([{ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.typing-1', typing_indicator: { type: 'text' } }]);
  });

  it('Messenger and Instagram: sender_action typing_on to the contact', async () => {
    const fb = await agentOn('messenger', 30);
    await app.services.messaging.recordInbound(fb, { contact: { externalId: 'psid-77' }, message: { externalId: 'mid.typing-2', type: 'text', text: 'opening hours?' } });
    const ig = await agentOn('instagram', 30);
    await app.services.messaging.recordInbound(ig, { contact: { externalId: 'igsid-88' }, message: { externalId: 'mid.typing-3', type: 'text', text: 'opening hours?' } });
    await app.queue.waitForIdle();
    expect(graph.requestsTo('POST', `/v21.0/${fb.externalId}/messages`).map((r) => r.body)).toEqual([{ recipient: { id: 'psid-77' }, sender_action: 'typing_on' }]);
    expect(graph.requestsTo('POST', '/v21.0/me/messages').map((r) => r.body)).toEqual([{ recipient: { id: 'igsid-88' }, sender_action: 'typing_on' }]);
  });

  it('no indicator without a delay, and a failing indicator does not stop the reply', async () => {
    const quick = await agentOn('whatsapp', 0);
    await app.services.messaging.recordInbound(quick, { contact: { externalId: '15550010' }, message: { externalId: 'wamid.quick', type: 'text', text: 'when are you open?' } });
    await app.queue.waitForIdle();
    const bodies = graph.requestsTo('POST', `/v21.0/${quick.externalId}/messages`).map((r) => r.body as { type?: string; status?: string });
    expect(bodies.map((b) => b.type ?? b.status)).toEqual(['text']);

    const flaky = await agentOn('messenger', 1);
    graph.script('POST', `/v21.0/${flaky.externalId}/messages`, { status: 500, body: { error: { message: 'oops', code: 2 } } });
    const { conversationId } = await app.services.messaging.recordInbound(flaky, { contact: { externalId: 'psid-99' }, message: { externalId: 'mid.flaky', type: 'text', text: 'when are you open?' } });
    await expect.poll(async () => (await app.database.db.selectFrom('messages').select('status').where('conversationId', '=', conversationId).where('senderType', '=', 'ai').execute()).map((m) => m.status), { timeout: 15_000 }).toEqual(['sent']);
  });
});
