/**
 * The hybrid engine end to end (issue 12 §3): an agent with an LLM in `llmMode: 'embedded-first'`
 * (the default for a new LLM configuration) answers what the embedded engine is confident about
 * without calling the LLM, sends only the rest to it, and records per message which engine
 * answered, with tokens and cost; the stats endpoint sums them. The LLM is the fake
 * OpenAI-compatible server on loopback (test/helpers/fake-openai), answering from a script.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentStats, AgentView } from '../../../common/api/agents';
import { createAgentClient } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeLlm, type FakeLlm } from '../../../test/helpers/fake-openai';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { DEFAULT_AGENT_TEXTS, type UpdateAgentInput } from '../../../common/api/agents';

const API_KEY = 'sk-test-hybrid-0123456789abcdef';
const SHIPPING = 'Shipping is free over 50 euros, otherwise 4.90.';
const HOURS = 'We are open Monday to Saturday, 9:00 to 18:00.';
const GIFT_CARDS = 'Yes: gift cards from 10 to 200 euros, sent by e-mail.';
// gpt-4o-mini's list price (create-engine.ts): 0.15 / 0.60 US dollars per million tokens.
const LLM_COST = (1000 * 0.15 + 50 * 0.6) / 1e6;

function text(externalId: string, body: string, contact: string) {
  return { contact: { externalId: contact, name: 'Hana' }, message: { externalId, type: 'text' as const, text: body } };
}

describe.each(ENGINES)('the hybrid engine: embedded first, the LLM only when needed (%s)', (engine) => {
  let app: TestApp;
  let fake: FakeLlm;
  let admin: TestClient;
  let visitor = 0;

  beforeAll(async () => {
    fake = await startFakeLlm();
    app = await createTestApp(engine, { env: { LLM_TIMEOUT_MS: '1500', ...ALLOW_LOOPBACK_FAKES } });
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app?.destroy();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  // No llmMode: a new LLM configuration runs embedded first.
  const hybridAgent = (): UpdateAgentInput => ({ engine: 'openai', llmBaseUrl: fake.baseUrl, llmModel: 'gpt-4o-mini', llmApiKey: API_KEY });

  async function ask(channel: Awaited<ReturnType<typeof createAgentClient>>['channel'], body: string) {
    visitor += 1;
    const { conversationId } = await app.services.messaging.recordInbound(channel, text(`hybrid-${visitor}`, body, `hybrid-visitor-${visitor}`));
    await app.queue.waitForIdle();
    const messages = await app.database.db.selectFrom('messages').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').orderBy('id').execute();
    return { conversationId, reply: messages.at(-1)! };
  }

  const stats = async (clientId: string, days?: number) =>
    expectJson<AgentStats>(await admin.get(`/api/v1/clients/${clientId}/agent/stats${days === undefined ? '' : `?days=${days}`}`), 200);

  it('answers a question it is confident about locally, sends the others to the LLM, and the stats add them up', async () => {
    const { client, channel } = await createAgentClient(app, hybridAgent());
    const agent = expectJson<AgentView>(await admin.get(`/api/v1/clients/${client.id}/agent`), 200);
    expect(agent).toMatchObject({ engine: 'openai', llmMode: 'embedded-first' });

    // Confident: the embedded engine answers; the LLM is never called, not even for the summary.
    const shipping = await ask(channel, 'how much does shipping cost?');
    expect(fake.requests).toHaveLength(0);
    expect(shipping.reply).toMatchObject({ senderType: 'ai', content: SHIPPING });
    expect(shipping.reply.ai).toMatchObject({ engine: 'embedded', model: 'embedded', decision: 'answer', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } });
    expect(shipping.reply.ai!.confidence).toBeGreaterThanOrEqual(0.8);
    const summary = await app.database.db.selectFrom('conversations').select('aiSummary').where('id', '=', shipping.conversationId).executeTakeFirstOrThrow();
    expect(summary.aiSummary).toMatch(/^Customer: .*shipping.*Answered by the AI\.$/u);

    // Not confident: the LLM answers, grounded in the same knowledge base; its tokens and cost are recorded.
    fake.script({ content: JSON.stringify({ answer: GIFT_CARDS, confidence: 0.9, handoff: false, sources: ['P1'] }), inputTokens: 1000, outputTokens: 50 });
    const gift = await ask(channel, 'Do you sell gift cards for weddings?');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.promptText).toContain(`A: ${SHIPPING}`);
    expect(fake.requests[0]!.promptText).toContain("Answer the customer's last message: Do you sell gift cards for weddings?");
    expect(gift.reply).toMatchObject({ senderType: 'ai', content: GIFT_CARDS });
    expect(gift.reply.ai).toMatchObject({ engine: 'openai', model: 'gpt-4o-mini', decision: 'answer', usage: { inputTokens: 1000, outputTokens: 50 } });
    expect(gift.reply.ai!.usage.costUsd).toBeCloseTo(LLM_COST, 12);
    expect(gift.reply.ai!.sources).toHaveLength(1);

    // The LLM fails: the embedded answer stands, below the threshold, so a person takes over.
    fake.reset();
    fake.script({ status: 500, message: 'upstream exploded' });
    const bitcoin = await ask(channel, 'Can I pay with bitcoin or another cryptocurrency?');
    expect(fake.requests).toHaveLength(1);
    expect(bitcoin.reply).toMatchObject({ content: DEFAULT_AGENT_TEXTS.handoff });
    expect(bitcoin.reply.ai).toMatchObject({ engine: 'embedded', decision: 'handoff', fallbackReason: 'provider_error' });

    // Asking for a person is a hand-off whatever the LLM would say: no call.
    fake.reset();
    const person = await ask(channel, 'Can I talk to a human please?');
    expect(fake.requests).toHaveLength(0);
    expect(person.reply.ai).toMatchObject({ engine: 'embedded', decision: 'handoff' });

    // A greeting costs nothing either.
    const hello = await ask(channel, 'hi');
    expect(fake.requests).toHaveLength(0);
    expect(hello.reply.ai).toMatchObject({ decision: 'greeting', usage: { costUsd: 0 } });

    // Answered locally, then a person wrote: not an automated resolution.
    const hours = await ask(channel, 'What are your opening hours?');
    expect(fake.requests).toHaveLength(0);
    expect(hours.reply).toMatchObject({ content: HOURS, ai: { engine: 'embedded', decision: 'answer' } });
    expect((await admin.post(`/api/v1/conversations/${hours.conversationId}/messages`, { text: 'Also open on holidays, by the way.' })).statusCode).toBeLessThan(300);

    const week = await stats(client.id);
    expect(week).toMatchObject({
      clientId: client.id,
      days: 7,
      answers: { embedded: 2, llm: 1, greeting: 1, away: 0 },
      handoffs: 2,
      fallbacks: 0,
      llmCalls: 2,
      llmFailures: 1,
      inputTokens: 1000,
      outputTokens: 50,
      // shipping (embedded) and gift cards (LLM); not the hand-offs, the greeting, nor the one a person answered
      automatedResolutions: 2,
    });
    expect(week.llmCostUsd).toBeCloseTo(LLM_COST, 12);
    expect(week.costPerAutomatedResolutionUsd).toBeCloseTo(LLM_COST / 2, 12);

    // The period: the shipping answer ten days ago counts in 30 days, not in 7.
    await app.database.db
      .updateTable('messages')
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 60 * 60_000) })
      .where('id', '=', shipping.reply.id)
      .execute();
    expect(await stats(client.id, 7)).toMatchObject({ answers: { embedded: 1, llm: 1 }, automatedResolutions: 1 });
    expect(await stats(client.id, 30)).toMatchObject({ answers: { embedded: 2, llm: 1 }, automatedResolutions: 2 });
  });

  it('with llmMode "llm" every question goes to the LLM, and the LLM writes the summary', async () => {
    const { client, channel } = await createAgentClient(app, { ...hybridAgent(), llmMode: 'llm' });
    expect(expectJson<AgentView>(await admin.get(`/api/v1/clients/${client.id}/agent`), 200).llmMode).toBe('llm');
    fake.script(
      { content: JSON.stringify({ answer: SHIPPING, confidence: 0.95, handoff: false, sources: ['P1'] }), inputTokens: 1000, outputTokens: 50 },
      { content: 'The customer asked about shipping costs; the AI agent answered.', inputTokens: 300, outputTokens: 20 },
    );
    const { reply } = await ask(channel, 'how much does shipping cost?');
    expect(fake.requests).toHaveLength(2);
    expect(reply.ai).toMatchObject({ engine: 'openai', decision: 'answer', usage: { inputTokens: 1000, outputTokens: 50 } });
    // The summary's tokens are not recorded with a message: the cost counts the answers.
    expect(await stats(client.id)).toMatchObject({ answers: { embedded: 0, llm: 1 }, llmCalls: 1, inputTokens: 1000, automatedResolutions: 1 });

    // Back to embedded first: the same question is answered locally.
    expect(expectJson<AgentView>(await admin.put(`/api/v1/clients/${client.id}/agent`, { llmMode: 'embedded-first' }), 200).llmMode).toBe('embedded-first');
    fake.reset();
    expect((await ask(channel, 'how much does shipping cost?')).reply.ai).toMatchObject({ engine: 'embedded', decision: 'answer' });
    expect(fake.requests).toHaveLength(0);
  });

  it('"Try the agent" goes the same way: embedded when confident, the LLM otherwise', async () => {
    const { client } = await createAgentClient(app, hybridAgent());
    const local = expectJson<{ engine: string; decision: string }>(await admin.post(`/api/v1/clients/${client.id}/agent/try`, { message: 'how much does shipping cost?' }), 200);
    expect(local).toMatchObject({ engine: 'embedded', decision: 'answer' });
    expect(fake.requests).toHaveLength(0);
    fake.script({ content: JSON.stringify({ answer: GIFT_CARDS, confidence: 0.9, handoff: false, sources: ['P1'] }) });
    const remote = expectJson<{ engine: string; reply: string }>(await admin.post(`/api/v1/clients/${client.id}/agent/try`, { message: 'Do you sell gift cards for weddings?' }), 200);
    expect(remote).toMatchObject({ engine: 'openai', reply: GIFT_CARDS });
    expect(fake.requests).toHaveLength(1);
  });

  it('the stats are scoped like the agent: a client user reads their own, another client answers 404; days is 1–90', async () => {
    const { client } = await createAgentClient(app);
    const other = await createAgentClient(app);
    const user = (await signedInClientUser(app, client.id)).client;
    expect(expectJson<AgentStats>(await user.get(`/api/v1/clients/${client.id}/agent/stats?days=30`), 200)).toMatchObject({
      days: 30,
      answers: { embedded: 0, llm: 0, greeting: 0, away: 0 },
      llmCostUsd: 0,
      automatedResolutions: 0,
      costPerAutomatedResolutionUsd: null,
    });
    expect((await user.get(`/api/v1/clients/${other.client.id}/agent/stats`)).statusCode).toBe(404);
    expect((await admin.get(`/api/v1/clients/${client.id}/agent/stats?days=0`)).statusCode).toBe(400);
    expect((await admin.get(`/api/v1/clients/${client.id}/agent/stats?days=91`)).statusCode).toBe(400);
  });
});
