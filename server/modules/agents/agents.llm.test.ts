/**
 * The conversation policy with an LLM engine, end to end: a whole app on a real database, the
 * agent configured through the service, the provider faked on loopback (test/helpers/fake-openai).
 * The fake answers from a script, first in first out: for a reply, the first request is the
 * answer and the second the conversation's summary.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeLlm, type FakeLlm, type FakeLlmAnswer } from '../../../test/helpers/fake-openai';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { createAgentClient } from '../../../test/helpers/agents';
import { DEFAULT_AGENT_TEXTS } from '../../../common/api/agents';
import type { UpdateAgentInput } from '../../../common/api/agents';

const API_KEY = 'sk-test-llm-0123456789abcdef';
const MODEL = 'llama3.1-8b-test';
const SHIPPING = 'Shipping is free over 50 euros, otherwise 4.90.';
const SUMMARY = 'The customer asked whether shipping is free; the AI agent explained it is free over 50 euros.';

const json = (value: unknown) => JSON.stringify(value);
const answer = (fields: { answer: string; confidence: number; handoff: boolean; sources: string[] }, tokens = { inputTokens: 900, outputTokens: 40 }): FakeLlmAnswer => ({
  content: json(fields),
  ...tokens,
});

function text(externalId: string, body: string, contact: string) {
  return { contact: { externalId: contact, name: 'Dana' }, message: { externalId, type: 'text' as const, text: body } };
}

/** The id ("P2") the prompt gave the FAQ entry whose first question is `question`. */
function passageRef(promptText: string, question: string): string {
  const escaped = question.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  const ref = new RegExp(`\\[(P\\d+)\\] FAQ\\nQ: ${escaped}`, 'u').exec(promptText)?.[1];
  if (!ref) throw new Error(`No passage for "${question}" in the prompt`);
  return ref;
}

describe.each(ENGINES)('AI agent policy with an LLM engine (%s)', (engine) => {
  let app: TestApp;
  let fake: FakeLlm;
  let visitor = 0;

  beforeAll(async () => {
    fake = await startFakeLlm();
    // Short enough for the time-out tests, long enough for loopback.
    app = await createTestApp(engine, { env: { LLM_TIMEOUT_MS: '1500', ...ALLOW_LOOPBACK_FAKES } });
  });
  afterAll(async () => {
    await app?.destroy();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  // Every question through the LLM (the hybrid, embedded first, is agents.hybrid.test.ts).
  const llmAgent = (): UpdateAgentInput => ({ engine: 'openai-compatible', llmMode: 'llm', llmBaseUrl: fake.baseUrl, llmModel: MODEL, llmApiKey: API_KEY });

  const setup = (config: UpdateAgentInput = llmAgent()) => createAgentClient(app, config);

  async function ask(channel: Awaited<ReturnType<typeof setup>>['channel'], body: string) {
    visitor += 1;
    const { conversationId } = await app.services.messaging.recordInbound(channel, text(`llm-${visitor}`, body, `llm-visitor-${visitor}`));
    await app.queue.waitForIdle();
    return conversationId;
  }

  const db = () => app.database.db;
  const thread = (conversationId: string) =>
    db().selectFrom('messages').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').orderBy('id').execute();
  const conversation = (id: string) => db().selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('answers through the LLM from the retrieved passages, recording engine, model, usage, sources and confidence, and the LLM writes the summary', async () => {
    const { channel } = await setup();
    // Sources are cited by prompt id; the shipping entry ranks first for this question.
    fake.script(answer({ answer: SHIPPING, confidence: 0.92, handoff: false, sources: ['P1'] }), { content: SUMMARY, inputTokens: 300, outputTokens: 25 });

    const conversationId = await ask(channel, 'is shipping free or do you charge for delivery?');

    expect(fake.requests).toHaveLength(2);
    const [request, summaryRequest] = fake.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body.model).toBe(MODEL);
    expect(request!.promptText).toContain(`A: ${SHIPPING}`);
    expect(request!.promptText).toContain("Answer the customer's last message: is shipping free or do you charge for delivery?");
    expect(passageRef(request!.promptText, 'How much does shipping cost?')).toBe('P1');

    const messages = await thread(conversationId);
    expect(messages.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    const reply = messages[1]!;
    expect(reply.content).toBe(SHIPPING);
    expect(reply.aiConfidence).toBeCloseTo(0.92);
    expect(reply.ai).toMatchObject({
      engine: 'openai-compatible',
      model: MODEL,
      decision: 'answer',
      confidence: 0.92,
      usage: { inputTokens: 900, outputTokens: 40, costUsd: 0 },
      knowledgeVersion: 1,
    });
    expect(reply.ai?.sources).toEqual([expect.objectContaining({ kind: 'faq', title: 'How much does shipping cost?' })]);
    expect(reply.ai?.fallbackReason).toBeUndefined();

    // The summary comes after the reply, from the whole exchange, as plain text.
    expect(summaryRequest!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(summaryRequest!.body.response_format).toBeUndefined();
    expect(summaryRequest!.promptText).toContain('Customer: is shipping free or do you charge for delivery?');
    expect(summaryRequest!.promptText).toContain(`AI agent: ${SHIPPING}`);
    expect((await conversation(conversationId)).aiSummary).toBe(SUMMARY);
  });

  it('escalates when the model hands off: the hand-off text goes to the customer and the conversation goes to a person', async () => {
    const { channel } = await setup();
    fake.script(answer({ answer: 'A colleague will get back to you.', confidence: 0.9, handoff: true, sources: [] }), {
      content: 'The customer wants a gift card for a wedding; handed to a person.',
    });

    const conversationId = await ask(channel, 'Do you sell gift cards for weddings?');

    const reply = (await thread(conversationId)).at(-1)!;
    expect(reply).toMatchObject({ senderType: 'ai', content: DEFAULT_AGENT_TEXTS.handoff });
    expect(reply.ai).toMatchObject({ engine: 'openai-compatible', model: MODEL, decision: 'handoff' });
    expect(await conversation(conversationId)).toMatchObject({
      status: 'escalated',
      handledBy: 'human',
      priority: 'high',
      aiSummary: 'The customer wants a gift card for a wedding; handed to a person.',
    });
    expect(fake.requests[1]!.promptText).toMatch(/status: escalated/u);

    // The agent no longer answers, but the LLM still summarises the customer's next message.
    fake.reset();
    fake.script({ content: 'The customer wants a wedding gift card of 100 euros; staff handle it.' });
    const next = await app.services.messaging.recordInbound(channel, text(`llm-${visitor}-2`, 'It would be for 100 euros.', `llm-visitor-${visitor}`));
    await app.queue.waitForIdle();
    expect(next.conversationId).toBe(conversationId);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.promptText).toContain('Customer: It would be for 100 euros.');
    expect((await thread(conversationId)).map((m) => m.senderType)).toEqual(['customer', 'ai', 'customer']);
    expect((await conversation(conversationId)).aiSummary).toBe('The customer wants a wedding gift card of 100 euros; staff handle it.');
  });

  it.each<[string, FakeLlmAnswer, string]>([
    ['output that is not the agreed JSON', { content: 'Sure! Shipping is free, I think.' }, 'invalid_output'],
    ['JSON of the wrong shape', { content: json({ reply: 'Free shipping', confidence: 'high' }) }, 'invalid_output'],
    ['HTTP 500', { status: 500, message: 'upstream exploded' }, 'provider_error'],
    ['a time-out', 'hang', 'timeout'],
  ])('answers with the embedded engine on %s, recording why, and keeps the extractive summary', async (_case, failure, reason) => {
    const { channel } = await setup();
    fake.script(failure);

    const conversationId = await ask(channel, 'how much does shipping cost?');

    const messages = await thread(conversationId);
    expect(messages.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    expect(messages[1]).toMatchObject({ content: SHIPPING });
    expect(messages[1]!.ai).toMatchObject({ engine: 'embedded', decision: 'answer', fallbackReason: reason });
    // Nothing was scripted for the summary, so the fake answered it with a 500.
    expect(fake.requests).toHaveLength(2);
    expect((await conversation(conversationId)).aiSummary).toMatch(/^Customer: .*shipping.*Answered by the AI\.$/u);
  });

  it.each<[string, FakeLlmAnswer]>([
    ['HTTP 500', { status: 500 }],
    ['a time-out', 'hang'],
    ['an empty text', { content: ' \n ' }],
  ])('keeps the extractive summary when the LLM summary fails with %s', async (_case, failure) => {
    const { channel } = await setup();
    fake.script(answer({ answer: SHIPPING, confidence: 0.9, handoff: false, sources: ['P1'] }), failure);

    const conversationId = await ask(channel, 'how much does shipping cost?');

    expect(fake.requests).toHaveLength(2);
    expect((await thread(conversationId)).at(-1)).toMatchObject({ content: SHIPPING, ai: { engine: 'openai-compatible' } });
    expect((await conversation(conversationId)).aiSummary).toMatch(/^Customer: .*shipping.*Answered by the AI\.$/u);
  });

  it('answers through the openai engine at its base URL (a proxy), priced', async () => {
    const { channel } = await setup({ engine: 'openai', llmMode: 'llm', llmBaseUrl: fake.baseUrl, llmModel: 'gpt-4o-mini', llmApiKey: API_KEY });
    fake.script(answer({ answer: SHIPPING, confidence: 0.9, handoff: false, sources: ['P1'] }, { inputTokens: 1000, outputTokens: 50 }), { content: SUMMARY });

    const conversationId = await ask(channel, 'is shipping free?');

    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.requests[0]!.body.model).toBe('gpt-4o-mini');
    const reply = (await thread(conversationId)).at(-1)!;
    expect(reply.ai).toMatchObject({ engine: 'openai', model: 'gpt-4o-mini', decision: 'answer', usage: { inputTokens: 1000, outputTokens: 50 } });
    // gpt-4o-mini's list price: 0.15 / 0.60 US dollars per million tokens.
    expect(reply.ai?.usage.costUsd).toBeCloseTo((1000 * 0.15 + 50 * 0.6) / 1e6, 12);
    expect((await conversation(conversationId)).aiSummary).toBe(SUMMARY);
  });

  it('answers through the anthropic engine at its base URL, priced', async () => {
    const { channel } = await setup({ engine: 'anthropic', llmMode: 'llm', llmBaseUrl: fake.baseUrl, llmModel: 'claude-haiku-4-5', llmApiKey: API_KEY });
    fake.script(answer({ answer: SHIPPING, confidence: 0.9, handoff: false, sources: ['P1'] }, { inputTokens: 2000, outputTokens: 40 }), { content: SUMMARY });

    const conversationId = await ask(channel, 'is shipping free?');

    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(fake.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    const reply = (await thread(conversationId)).at(-1)!;
    expect(reply).toMatchObject({ content: SHIPPING });
    expect(reply.ai).toMatchObject({ engine: 'anthropic', model: 'claude-haiku-4-5', usage: { inputTokens: 2000, outputTokens: 40 } });
    expect(reply.ai?.usage.costUsd).toBeCloseTo((2000 * 1 + 40 * 5) / 1e6, 12);
    expect((await conversation(conversationId)).aiSummary).toBe(SUMMARY);
  });

  it('answers each client through its own engine in the same app', async () => {
    const embedded = await setup({ engine: 'embedded' });
    const llm = await setup();
    fake.script(answer({ answer: 'From the LLM: shipping is free over 50 euros.', confidence: 0.9, handoff: false, sources: ['P1'] }), { content: SUMMARY });

    visitor += 1;
    const fromEmbedded = await app.services.messaging.recordInbound(embedded.channel, text(`two-${visitor}-a`, 'how much does shipping cost?', `two-${visitor}-a`));
    const fromLlm = await app.services.messaging.recordInbound(llm.channel, text(`two-${visitor}-b`, 'how much is delivery?', `two-${visitor}-b`));
    await app.queue.waitForIdle();

    expect((await thread(fromEmbedded.conversationId)).at(-1)).toMatchObject({ senderType: 'ai', content: SHIPPING, ai: { engine: 'embedded', model: 'embedded' } });
    expect((await thread(fromEmbedded.conversationId)).at(-1)?.ai?.fallbackReason).toBeUndefined();
    expect((await thread(fromLlm.conversationId)).at(-1)).toMatchObject({
      senderType: 'ai',
      content: 'From the LLM: shipping is free over 50 euros.',
      ai: { engine: 'openai-compatible', model: MODEL },
    });
    // Only the LLM client's conversation reached the provider: its answer, then its summary.
    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(request.promptText).toContain('how much is delivery?');
      expect(request.promptText).not.toContain('how much does shipping cost?');
    }
    expect((await conversation(fromLlm.conversationId)).aiSummary).toBe(SUMMARY);
    expect((await conversation(fromEmbedded.conversationId)).aiSummary).toMatch(/^Customer: .*Answered by the AI\.$/u);
  });

  it('makes no LLM call while the agent is switched off: the summary stays extractive', async () => {
    const { channel } = await setup({ ...llmAgent(), enabled: false });
    const conversationId = await ask(channel, 'how much does shipping cost?');
    expect(fake.requests).toHaveLength(0);
    expect(await thread(conversationId)).toHaveLength(1);
    expect((await conversation(conversationId)).aiSummary).toMatch(/^Customer: .*shipping.*Not answered yet\.$/u);
  });
});

describe.each(ENGINES)('LLM base URLs cannot reach this server or its networks (%s)', (engine) => {
  let app: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
    // The default configuration: nothing private allowed.
    app = await createTestApp(engine, { env: { LLM_TIMEOUT_MS: '1500' } });
  });
  afterAll(async () => {
    await app?.destroy();
    await fake?.close();
  });

  it('refuses to save a base URL on this server, a private network or the metadata service (400 with a field message)', async () => {
    const { client: admin } = await signedInClient(app, 'admin');
    const { client } = await createAgentClient(app);
    const port = new URL(fake.baseUrl).port;
    for (const host of ['127.0.0.1', '[::1]', '0x7f000001', '2130706433', '127.1', '0.0.0.0', 'localhost', '[::ffff:127.0.0.1]', '169.254.169.254', '192.168.1.20']) {
      const response = await admin.put(`/api/v1/clients/${client.id}/agent`, { engine: 'openai-compatible', llmBaseUrl: `http://${host}:${port}/v1`, llmModel: MODEL });
      expect(response.statusCode, host).toBe(400);
      expect(response.json().error.fields.llmBaseUrl).toMatch(/^Refused: the address resolves to .+\. Enter a public address, or ask the operator to allow this host in OUTBOUND_ALLOWED_HOSTS\.$/u);
    }
    expect((await app.services.agents.getConfig(client.id)).engine).toBe('embedded');
    expect(fake.requests).toEqual([]);
  });

  it('refuses to connect to a loopback base URL stored before the check: the embedded engine answers, as on a provider error', async () => {
    const { client, channel } = await createAgentClient(app);
    await app.database.db
      .updateTable('agents')
      .set({ engine: 'openai-compatible', llmMode: 'llm', llmBaseUrl: fake.baseUrl, llmModel: MODEL })
      .where('clientId', '=', client.id)
      .execute();
    fake.script(answer({ answer: 'an answer from the internal service', confidence: 1, handoff: false, sources: ['P1'] }));
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('ssrf-1', 'how much does shipping cost?', 'ssrf-visitor'));
    await app.queue.waitForIdle();
    const messages = await app.database.db.selectFrom('messages').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').orderBy('id').execute();
    expect(messages.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    expect(messages[1]).toMatchObject({ content: SHIPPING, ai: { engine: 'embedded', fallbackReason: 'provider_error' } });
    expect(fake.requests).toEqual([]);
  });
});
