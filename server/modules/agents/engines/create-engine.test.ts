import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../../../test/helpers/fake-openai';
import { createGuardedHttp } from '../../../lib/guarded-http';
import { capturingLogger } from '../../../../test/helpers/logger';
import { loopbackFetch } from '../../../../test/helpers/outbound';
import type { AgentAnswer, AnswerEngine, ConversationContext, KnowledgeBase } from './answer-engine';
import { createAnswerEngine, DEFAULT_MODELS, DEFAULT_PRICES, llmConfigProblem } from './create-engine';
import { LlmEngine } from './llm/llm-engine';

const EMBEDDED_ANSWER: AgentAnswer = {
  reply: 'From the embedded engine',
  confidence: 0.6,
  sources: [],
  action: 'answer',
  engine: 'embedded',
  model: 'embedded',
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
};
const embedded: AnswerEngine = { kind: 'embedded', answer: async () => EMBEDDED_ANSWER };

const KB: KnowledgeBase = {
  version: 1,
  model: null,
  entries: [{ id: 'e-hours', questions: ['What are your opening hours?'], answer: 'We are open 9:00 to 17:00.', link: null }],
  articles: [],
};
const CONVERSATION: ConversationContext = {
  conversationId: 'conv-1',
  turns: [{ role: 'customer', text: 'When are you open?', at: new Date('2026-03-01T10:00:00Z') }],
  businessName: 'Acme',
  agentName: 'Ava',
  agentDescription: '',
};

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe('createAnswerEngine', () => {
  it('returns the embedded engine for the embedded configuration', () => {
    expect(createAnswerEngine({ engine: 'embedded' }, { embedded, fetch: loopbackFetch, logger: pino({ level: 'silent' }) })).toBe(embedded);
  });

  it.each([
    [{ engine: 'openai' as const }, 'The OpenAI engine needs an API key'],
    [{ engine: 'anthropic' as const, apiKey: '  ' }, 'The Anthropic engine needs an API key'],
    [{ engine: 'openai-compatible' as const, model: 'llama3.1' }, 'The OpenAI-compatible engine needs a base URL'],
    [{ engine: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:11434/v1', model: null }, 'The OpenAI-compatible engine needs a model name'],
  ])('keeps answering with the embedded engine and says why for %j', (config, why) => {
    const log = capturingLogger();
    expect(llmConfigProblem(config)).toBe(why);
    expect(createAnswerEngine(config, { embedded, fetch: loopbackFetch, logger: log.logger })).toBe(embedded);
    expect(log.output()).toContain(why);
  });

  it.each(['openai', 'anthropic'] as const)('builds a %s engine on its default model with its estimated prices', (engine) => {
    const created = createAnswerEngine({ engine, apiKey: 'sk-test' }, { embedded, fetch: loopbackFetch, logger: pino({ level: 'silent' }) });
    expect(created).toBeInstanceOf(LlmEngine);
    expect(created.kind).toBe(engine);
    expect((created as LlmEngine).modelId).toBe(DEFAULT_MODELS[engine]);
    expect(DEFAULT_PRICES[DEFAULT_MODELS[engine]]).toBeDefined();
  });

  it('answers through OpenAI with the default model, costed at its default price', async () => {
    const engine = createAnswerEngine({ engine: 'openai', apiKey: 'sk-test', baseUrl: fake.baseUrl }, { embedded, fetch: loopbackFetch, logger: pino({ level: 'silent' }) });
    fake.script({ content: JSON.stringify({ answer: 'We are open 9:00 to 17:00.', confidence: 0.9, handoff: false, sources: ['P1'] }), inputTokens: 1_000_000, outputTokens: 1_000_000 });
    const answer = await engine.answer(CONVERSATION, KB);
    expect(answer).toMatchObject({ engine: 'openai', model: 'gpt-4o-mini', usage: { costUsd: 0.75 } });
    expect(fake.requests[0]!.body.model).toBe('gpt-4o-mini');
  });

  it('uses an OpenAI-compatible server without a key (a local model), costed at 0', async () => {
    const engine = createAnswerEngine({ engine: 'openai-compatible', baseUrl: fake.baseUrl, model: 'llama3.1' }, { embedded, fetch: loopbackFetch, logger: pino({ level: 'silent' }) });
    fake.script({ content: JSON.stringify({ answer: 'We are open 9:00 to 17:00.', confidence: 0.9, handoff: false, sources: ['P1'] }) });
    const answer = await engine.answer(CONVERSATION, KB);
    expect(answer).toMatchObject({ engine: 'openai-compatible', model: 'llama3.1', usage: { costUsd: 0 } });
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('falls back to the embedded engine it was given', async () => {
    const engine = createAnswerEngine({ engine: 'anthropic', apiKey: 'sk-ant-test', baseUrl: fake.baseUrl, timeoutMs: 5000 }, { embedded, fetch: loopbackFetch, logger: pino({ level: 'silent' }) });
    fake.script({ status: 500 });
    expect(await engine.answer(CONVERSATION, KB)).toEqual({ ...EMBEDDED_ANSWER, fallbackReason: 'provider_error' });
  });

  it.each(['openai', 'anthropic', 'openai-compatible'] as const)(
    'refuses a %s base URL on this machine when loopback is not allowed, and the embedded engine answers as on a provider error',
    async (kind) => {
      const log = capturingLogger();
      // The app's client with the default configuration: nothing private allowed.
      const guarded = createGuardedHttp();
      const engine = createAnswerEngine({ engine: kind, apiKey: 'sk-test', baseUrl: fake.baseUrl, model: 'm' }, { embedded, fetch: guarded.fetch, logger: log.logger });
      fake.script({ content: JSON.stringify({ answer: 'from the internal service', confidence: 1, handoff: false, sources: ['P1'] }) });
      expect(await engine.answer(CONVERSATION, KB)).toEqual({ ...EMBEDDED_ANSWER, fallbackReason: 'provider_error' });
      expect(fake.requests).toEqual([]);
      expect(log.output()).toContain('Refused: the address resolves to the loopback network (127.0.0.1)');
      await guarded.close();
    },
  );
});
