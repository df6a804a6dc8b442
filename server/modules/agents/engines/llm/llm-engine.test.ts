import { MockLanguageModelV3 } from 'ai/test';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../../../../test/helpers/fake-openai';
import { capturingLogger } from '../../../../../test/helpers/logger';
import { loopbackFetch } from '../../../../../test/helpers/outbound';
import type { AgentAnswer, AnswerEngine, ConversationContext, ConversationTurn, KnowledgeBase } from '../answer-engine';
import { costUsd, createLanguageModel, createLlmEngine, LlmEngine, UNGROUNDED_CONFIDENCE_CAP, type CreateLlmEngineOptions } from './llm-engine';
import { llmSummarySchema, MAX_SUMMARY_CHARS, type SummaryInput } from './summary';

const API_KEY = 'sk-test-0123456789abcdef';
const PRICES = { inputPerMTok: 0.15, outputPerMTok: 0.6 };

// A knowledge base too large to go into the prompt whole, so retrieval decides what the model sees.
const FILLER = Array.from({ length: 40 }, (_, i) => ({
  id: `e-filler-${i}`,
  questions: [`Do you stock product model number ${1000 + i}?`],
  answer: `Product ${1000 + i} is a ${['blue', 'green', 'red', 'black'][i % 4]} widget made of recycled plastic, available in our online shop for a limited time only.`,
  link: null,
}));

const KB: KnowledgeBase = {
  version: 7,
  model: null,
  entries: [
    { id: 'e-hours', questions: ['What are your opening hours?'], answer: 'We are open Monday to Friday, 9:00 to 17:00.', link: null },
    { id: 'e-shipping', questions: ['How long does shipping take?'], answer: 'Delivery takes 3 to 5 business days.', link: 'https://shop.example/shipping' },
    ...FILLER,
  ],
  articles: [{ id: 'a-returns', title: 'Returns policy', body: 'You can return any item within 30 days. Refunds are paid within 5 business days.' }],
};

const at = new Date('2026-03-01T10:00:00Z');
const turn = (role: ConversationTurn['role'], text: string): ConversationTurn => ({ role, text, at });

function conversation(turns: ConversationTurn[]): ConversationContext {
  return { conversationId: 'conv-1', turns, businessName: 'Acme Shoes', agentName: 'Ava', agentDescription: 'Friendly helper for Acme Shoes.' };
}

const SHIPPING_QUESTION = conversation([
  ...Array.from({ length: 12 }, (_, i) => turn(i % 2 ? 'ai' : 'customer', `old turn ${i}`)),
  turn('customer', 'Hi, I ordered boots yesterday'),
  turn('ai', 'Thanks! How can I help?'),
  turn('customer', 'How long does shipping take?'),
]);

const json = (value: unknown) => JSON.stringify(value);

const FALLBACK_ANSWER: AgentAnswer = {
  reply: 'Delivery takes 3 to 5 business days. (embedded)',
  confidence: 0.42,
  sources: [{ kind: 'faq', id: 'e-shipping', title: 'How long does shipping take?', link: 'https://shop.example/shipping' }],
  action: 'answer',
  engine: 'embedded',
  model: 'embedded',
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
};

function stubFallback() {
  const answer = vi.fn<AnswerEngine['answer']>(async () => FALLBACK_ANSWER);
  const engine: AnswerEngine = { kind: 'embedded', answer };
  return { engine, answer };
}

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function engineFor(provider: CreateLlmEngineOptions['provider'], overrides: Partial<CreateLlmEngineOptions> = {}) {
  const fallback = stubFallback();
  const log = capturingLogger();
  const engine = createLlmEngine({
    provider,
    model: provider === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4o-mini',
    apiKey: API_KEY,
    baseUrl: fake.baseUrl,
    fetch: loopbackFetch,
    timeoutMs: 10_000,
    prices: PRICES,
    fallback: fallback.engine,
    logger: log.logger,
    ...overrides,
  });
  return { engine, fallback, log };
}

describe.each(['openai-compatible', 'openai'] as const)('LlmEngine through %s on a fake chat-completions server', (provider) => {
  it('returns a grounded answer with its sources, usage and cost', async () => {
    const { engine, fallback } = engineFor(provider);
    fake.script({ content: json({ answer: 'Delivery takes 3 to 5 business days.', confidence: 0.93, handoff: false, sources: ['P1'] }), inputTokens: 1000, outputTokens: 50 });

    const answer = await engine.answer(SHIPPING_QUESTION, KB);

    expect(answer).toEqual({
      reply: 'Delivery takes 3 to 5 business days.',
      confidence: 0.93,
      sources: [{ kind: 'faq', id: 'e-shipping', title: 'How long does shipping take?', link: 'https://shop.example/shipping' }],
      action: 'answer',
      engine: provider,
      model: 'gpt-4o-mini',
      usage: { inputTokens: 1000, outputTokens: 50, costUsd: (1000 * 0.15 + 50 * 0.6) / 1e6 },
    });
    expect(fallback.answer).not.toHaveBeenCalled();
  });

  it('sends the model, the key, a JSON-schema response format, the top passages and the recent turns', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ answer: 'Delivery takes 3 to 5 business days.', confidence: 0.9, handoff: false, sources: ['P1'] }) });
    await engine.answer(SHIPPING_QUESTION, KB);

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body.model).toBe('gpt-4o-mini');
    expect(request!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: { type: 'object', required: ['answer', 'confidence', 'handoff', 'sources'] } } });

    const prompt = request!.promptText;
    expect(prompt).toContain('[P1] FAQ\nQ: How long does shipping take?\nA: Delivery takes 3 to 5 business days.');
    expect(prompt).toContain('Acme Shoes');
    expect(prompt).toContain('Ava');
    expect(prompt).toContain('Customer: Hi, I ordered boots yesterday');
    expect(prompt).toContain('You (Ava): Thanks! How can I help?');
    expect(prompt).toContain("Answer the customer's last message: How long does shipping take?");
    // Only the last 10 turns, and only passages that match, not the whole knowledge base.
    expect(prompt).toContain('old turn 5');
    expect(prompt).not.toContain('old turn 4');
    expect(prompt).not.toContain('Product 1003');
  });

  it('falls back when the model answers with text that is not JSON', async () => {
    const { engine, fallback, log } = engineFor(provider);
    fake.script({ content: 'Sure! Delivery takes 3 to 5 days.', inputTokens: 1000, outputTokens: 20 });

    const answer = await engine.answer(SHIPPING_QUESTION, KB);

    expect(answer).toMatchObject({ reply: FALLBACK_ANSWER.reply, engine: 'embedded', fallbackReason: 'invalid_output' });
    // The tokens paid for the useless answer still count.
    expect(answer.usage).toEqual({ inputTokens: 1000, outputTokens: 20, costUsd: costUsd({ inputTokens: 1000, outputTokens: 20 }, PRICES) });
    expect(fallback.answer).toHaveBeenCalledOnce();
    expect(log.output()).toContain('invalid_output');
  });

  it('falls back when the JSON has the wrong shape', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ reply: 'Delivery takes 3 to 5 days.', confidence: 'high' }) });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: 'embedded', fallbackReason: 'invalid_output' });
  });

  it('falls back when the model says nothing without handing off', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ answer: '  ', confidence: 0.9, handoff: false, sources: ['P1'] }) });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: 'embedded', fallbackReason: 'invalid_output' });
  });

  it('accepts the answer object wrapped in a code fence', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: `\`\`\`json\n${json({ answer: 'Delivery takes 3 to 5 business days.', confidence: 0.8, handoff: false, sources: ['P1'] })}\n\`\`\`` });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: provider, reply: 'Delivery takes 3 to 5 business days.', sources: [{ id: 'e-shipping' }] });
  });

  it('falls back with reason timeout when the provider does not answer in time', async () => {
    const { engine, fallback } = engineFor(provider, { timeoutMs: 300 });
    fake.script('hang');
    const answer = await engine.answer(SHIPPING_QUESTION, KB);
    expect(answer).toMatchObject({ engine: 'embedded', reply: FALLBACK_ANSWER.reply, fallbackReason: 'timeout' });
    expect(fallback.answer).toHaveBeenCalledOnce();
  });

  it.each([500, 401, 429])('falls back with reason provider_error on HTTP %i, without retrying or logging the key', async (status) => {
    const { engine, log } = engineFor(provider);
    fake.script({ status, message: `Incorrect API key provided: ${API_KEY}` }, { status });
    const answer = await engine.answer(SHIPPING_QUESTION, KB);
    expect(answer).toMatchObject({ engine: 'embedded', fallbackReason: 'provider_error' });
    expect(fake.requests).toHaveLength(1);
    expect(log.output()).toContain(`"status":${status}`);
    expect(log.output()).not.toContain(API_KEY);
    expect(log.output()).not.toContain('How long does shipping take');
  });

  it('turns a hand-off into action escalate', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ answer: 'A colleague will get back to you shortly.', confidence: 0.9, handoff: true, sources: [] }) });
    const answer = await engine.answer(conversation([turn('customer', 'I want to talk to a real person')]), KB);
    expect(answer).toMatchObject({ action: 'escalate', reply: 'A colleague will get back to you shortly.', engine: provider, sources: [] });
    expect(answer.fallbackReason).toBeUndefined();
  });

  it('caps the confidence of an answer that cites no passage of the prompt', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ answer: 'Delivery is free.', confidence: 0.99, handoff: false, sources: ['P42', 'faq:made-up'] }) });
    const answer = await engine.answer(SHIPPING_QUESTION, KB);
    expect(answer.sources).toEqual([]);
    expect(answer.confidence).toBe(UNGROUNDED_CONFIDENCE_CAP);
    expect(answer.action).toBe('answer');
  });

  it('clamps confidence to 0..1 and keeps only cited ids that were in the prompt, once per source', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: json({ answer: 'Delivery takes 3 to 5 business days.', confidence: 1.7, handoff: false, sources: ['[P1]', 'p1', 'P99'] }) });
    const answer = await engine.answer(SHIPPING_QUESTION, KB);
    expect(answer.confidence).toBe(1);
    expect(answer.sources.map((s) => s.id)).toEqual(['e-shipping']);
  });
});

describe('LlmEngine through anthropic on a fake Messages endpoint', () => {
  it('returns a grounded answer, sending the key in x-api-key and the passages in the system prompt', async () => {
    const { engine } = engineFor('anthropic', { prices: { inputPerMTok: 1, outputPerMTok: 5 } });
    fake.script({ content: json({ answer: 'We are open Monday to Friday, 9:00 to 17:00.', confidence: 0.9, handoff: false, sources: ['P1'] }), inputTokens: 2000, outputTokens: 40 });

    const answer = await engine.answer(conversation([turn('customer', 'What are your opening hours?')]), KB);

    expect(answer).toMatchObject({
      reply: 'We are open Monday to Friday, 9:00 to 17:00.',
      engine: 'anthropic',
      model: 'claude-haiku-4-5',
      action: 'answer',
      sources: [{ kind: 'faq', id: 'e-hours' }],
      usage: { inputTokens: 2000, outputTokens: 40, costUsd: (2000 * 1 + 40 * 5) / 1e6 },
    });
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe(API_KEY);
    expect(request!.body.model).toBe('claude-haiku-4-5');
    expect(JSON.stringify(request!.body.system)).toContain('What are your opening hours?');
    expect(request!.promptText).toContain("Answer the customer's last message: What are your opening hours?");
  });

  it('answers through the forced json tool for a model without native structured output', async () => {
    const { engine } = engineFor('anthropic', { model: 'claude-3-haiku-20240307' });
    fake.script({ content: json({ answer: 'Delivery takes 3 to 5 business days.', confidence: 0.85, handoff: false, sources: ['P1'] }) });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: 'anthropic', confidence: 0.85, sources: [{ id: 'e-shipping' }] });
  });

  it('falls back with reason provider_error when Anthropic is overloaded', async () => {
    const { engine } = engineFor('anthropic');
    fake.script({ status: 529, message: 'Overloaded' });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: 'embedded', fallbackReason: 'provider_error' });
  });
});

describe('LlmEngine with a model object', () => {
  const usage = { inputTokens: { total: 300, noCache: 300, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 12, text: 12, reasoning: 0 } };

  it('asks for JSON with the answer schema and maps the result', async () => {
    const model = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      modelId: 'claude-haiku-4-5',
      doGenerate: {
        content: [{ type: 'text', text: json({ answer: 'Você pode devolver em até 30 dias.', confidence: 0.8, handoff: false, sources: ['P1'] }) }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      },
    });
    const { engine: fallback } = stubFallback();
    const engine = new LlmEngine({ kind: 'anthropic', model, timeoutMs: 10_000, fallback, logger: pino({ level: 'silent' }) });

    const answer = await engine.answer(conversation([turn('customer', 'Posso devolver? returns policy')]), KB);

    expect(answer).toMatchObject({
      reply: 'Você pode devolver em até 30 dias.',
      sources: [{ kind: 'article', id: 'a-returns', title: 'Returns policy' }],
      engine: 'anthropic',
      model: 'claude-haiku-4-5',
      usage: { inputTokens: 300, outputTokens: 12, costUsd: 0 },
    });
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'agent_answer', schema: { type: 'object' } });
    expect(call.maxOutputTokens).toBeGreaterThan(0);
  });

  it('puts a small knowledge base into the prompt whole, so a question in another language still finds it', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: { content: [{ type: 'text', text: json({ answer: 'Tardamos de 3 a 5 días.', confidence: 0.8, handoff: false, sources: ['P2'] }) }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    });
    const small: KnowledgeBase = { ...KB, entries: KB.entries.slice(0, 2) };
    const engine = new LlmEngine({ kind: 'openai-compatible', model, timeoutMs: 10_000, fallback: stubFallback().engine, logger: pino({ level: 'silent' }) });
    const answer = await engine.answer(conversation([turn('customer', '¿Cuánto tarda el envío?')]), small);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain('Delivery takes 3 to 5 business days.');
    expect(answer.sources.map((s) => s.id)).toEqual(['e-shipping']);
  });

  it('falls back with reason provider_error when the model throws', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('socket hang up');
      },
    });
    const { engine: fallback } = stubFallback();
    const engine = new LlmEngine({ kind: 'openai', model, timeoutMs: 10_000, fallback, logger: pino({ level: 'silent' }) });
    expect(await engine.answer(SHIPPING_QUESTION, KB)).toMatchObject({ engine: 'embedded', fallbackReason: 'provider_error' });
  });

  it("propagates the caller's own abort instead of answering", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: async ({ abortSignal }) => {
        controller.abort(new Error('shutting down'));
        abortSignal?.throwIfAborted();
        throw new Error('unreachable');
      },
    });
    const { engine: fallback, answer: fallbackAnswer } = stubFallback();
    const engine = new LlmEngine({ kind: 'openai', model, timeoutMs: 10_000, fallback, logger: pino({ level: 'silent' }) });
    await expect(engine.answer(SHIPPING_QUESTION, KB, { signal: controller.signal })).rejects.toThrow('shutting down');
    expect(fallbackAnswer).not.toHaveBeenCalled();
  });
});

const SUMMARY_INPUT: SummaryInput = {
  conversationId: 'conv-9',
  status: 'escalated',
  turns: [
    { role: 'customer', text: 'Hola, mi pedido 123 no ha llegado' },
    { role: 'system', text: 'Assigned to Sam' },
    { role: 'ai', text: 'Lo siento, le paso con un compañero.' },
    { role: 'agent', text: 'Hi, Sam here, checking.' },
  ],
};

describe.each(['openai-compatible', 'openai', 'anthropic'] as const)('LlmEngine.summarize through %s', (provider) => {
  it('returns the plain-text summary with its usage and cost, from the transcript and the status', async () => {
    const { engine } = engineFor(provider);
    fake.script({ content: '  The customer says order 123 has not arrived; handed to staff, who are checking.\n', inputTokens: 400, outputTokens: 20 });

    const summary = await engine.summarize(SUMMARY_INPUT);

    expect(summary).toEqual({
      summary: 'The customer says order 123 has not arrived; handed to staff, who are checking.',
      usage: { inputTokens: 400, outputTokens: 20, costUsd: costUsd({ inputTokens: 400, outputTokens: 20 }, PRICES) },
    });
    const [request] = fake.requests;
    expect(request!.body.response_format).toBeUndefined();
    expect(request!.body.tools).toBeUndefined();
    expect(request!.promptText).toContain('Customer: Hola, mi pedido 123 no ha llegado');
    expect(request!.promptText).toContain('AI agent: Lo siento, le paso con un compañero.');
    expect(request!.promptText).toContain('Staff member: Hi, Sam here, checking.');
    expect(request!.promptText).toContain('Conversation status: escalated');
    expect(request!.promptText).toContain('in English');
    expect(request!.promptText).not.toContain('Assigned to Sam');
  });

  it('returns null on a provider error, without logging the key or the conversation', async () => {
    const { engine, log } = engineFor(provider);
    fake.script({ status: 401, message: `Incorrect API key provided: ${API_KEY}` });
    expect(await engine.summarize(SUMMARY_INPUT)).toBeNull();
    expect(log.output()).toContain('provider_error');
    expect(log.output()).not.toContain(API_KEY);
    expect(log.output()).not.toContain('pedido');
  });

  it('returns null on a time-out and on an empty text', async () => {
    const { engine, log } = engineFor(provider, { timeoutMs: 300 });
    fake.script('hang', { content: '   ' });
    expect(await engine.summarize(SUMMARY_INPUT)).toBeNull();
    expect(await engine.summarize(SUMMARY_INPUT)).toBeNull();
    expect(log.output()).toContain('"reason":"timeout"');
    expect(log.output()).toContain('"reason":"invalid_output"');
  });
});

describe('llmSummarySchema', () => {
  it.each([
    ['{"summary": "Wants a refund; answered."}', 'Wants a refund; answered.'],
    ['```\nWants a refund; answered.\n```', 'Wants a refund; answered.'],
    ['Summary: "Wants a refund; answered."', 'Wants a refund; answered.'],
    ['Wants a refund.\n\nAnswered by the AI.', 'Wants a refund. Answered by the AI.'],
  ])('keeps the text of %j', (raw, expected) => {
    expect(llmSummarySchema.parse(raw)).toBe(expected);
  });

  it('refuses an empty summary and cuts a long one', () => {
    expect(llmSummarySchema.safeParse(' "" ').success).toBe(false);
    const long = llmSummarySchema.parse('word '.repeat(300));
    expect(long).toHaveLength(MAX_SUMMARY_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('createLanguageModel', () => {
  it('needs a base URL for an OpenAI-compatible server', () => {
    expect(() => createLanguageModel({ provider: 'openai-compatible', model: 'llama3', fetch: loopbackFetch })).toThrow(/base URL/);
  });
});
