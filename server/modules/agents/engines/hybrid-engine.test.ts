import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../agents.service';
import { engineRegistry } from '../engine-registry';
import { LlmEngine } from './llm/llm-engine';
import type { AgentAnswer, AnswerEngine, ConversationContext, EngineKind, KnowledgeBase } from './answer-engine';
import { HybridEngine, localAnswerStands } from './hybrid-engine';

const answer = (engine: EngineKind, confidence: number, action: AgentAnswer['action'] = 'answer'): AgentAnswer => ({
  reply: `from ${engine}`,
  confidence,
  sources: [],
  action,
  engine,
  model: engine === 'embedded' ? 'embedded' : 'test-model',
  usage: engine === 'embedded' ? { inputTokens: 0, outputTokens: 0, costUsd: 0 } : { inputTokens: 900, outputTokens: 40, costUsd: 0.0002 },
});

/** An engine that answers `result` and counts its calls. */
function engine(kind: EngineKind, result: AgentAnswer): AnswerEngine & { calls: number } {
  const e = {
    kind,
    calls: 0,
    answer: async () => {
      e.calls += 1;
      return result;
    },
  };
  return e;
}

const KB: KnowledgeBase = { version: 1, model: null, entries: [], articles: [] };
const ask = (text: string): ConversationContext => ({
  conversationId: 'c1',
  turns: [{ role: 'customer', text, at: new Date('2026-03-01T10:00:00Z') }],
  businessName: 'Acme',
  agentName: 'Ava',
  agentDescription: '',
});

describe('HybridEngine', () => {
  it('answers with the local engine at or above the threshold, without calling the LLM', async () => {
    const local = engine('embedded', answer('embedded', 0.8));
    const llm = engine('openai', answer('openai', 0.95));
    const hybrid = new HybridEngine({ local, llm, threshold: 0.8 });
    expect(hybrid.kind).toBe('openai');
    expect(await hybrid.answer(ask('when are you open?'), KB)).toMatchObject({ engine: 'embedded', reply: 'from embedded' });
    expect([local.calls, llm.calls]).toEqual([1, 0]);
  });

  it('asks the LLM below the threshold, and when the local engine has no answer (escalate, e.g. no FAQ entries)', async () => {
    for (const local of [engine('embedded', answer('embedded', 0.79)), engine('embedded', answer('embedded', 0, 'escalate'))]) {
      const llm = engine('anthropic', answer('anthropic', 0.9));
      const result = await new HybridEngine({ local, llm, threshold: 0.8 }).answer(ask('do you sell gift cards?'), KB);
      expect(result).toMatchObject({ engine: 'anthropic', usage: { inputTokens: 900, outputTokens: 40, costUsd: 0.0002 } });
      expect(llm.calls).toBe(1);
    }
  });

  it('does not call the LLM when the customer asks for a person (a hand-off whatever it says)', async () => {
    const local = engine('embedded', answer('embedded', 0, 'escalate'));
    const llm = engine('openai', answer('openai', 0.9));
    expect(await new HybridEngine({ local, llm, threshold: 0.8 }).answer(ask('Can I talk to a human please?'), KB)).toMatchObject({ engine: 'embedded', action: 'escalate' });
    // The policy's own rule, passed in, counts too.
    const low = engine('embedded', answer('embedded', 0.3));
    const hybrid = new HybridEngine({ local: low, llm, threshold: 0.8, wantsPerson: (t) => t.includes('manager') });
    expect(await hybrid.answer(ask('get me your manager'), KB)).toMatchObject({ engine: 'embedded' });
    expect(llm.calls).toBe(0);
  });

  it('localAnswerStands: the threshold is inclusive and an escalation is never confident', () => {
    expect(localAnswerStands({ action: 'answer', confidence: 0.9 }, 0.9, 'x')).toBe(true);
    expect(localAnswerStands({ action: 'answer', confidence: 0.899 }, 0.9, 'x')).toBe(false);
    expect(localAnswerStands({ action: 'escalate', confidence: 1 }, 0.7, 'x')).toBe(false);
  });

  it('does not call the LLM once the caller gave up', async () => {
    const local = engine('embedded', answer('embedded', 0.2));
    const llm = engine('openai', answer('openai', 0.9));
    const controller = new AbortController();
    controller.abort();
    await expect(new HybridEngine({ local, llm, threshold: 0.8 }).answer(ask('anything'), KB, { signal: controller.signal })).rejects.toThrow();
    expect(llm.calls).toBe(0);
  });
});

describe('engineRegistry and llmMode', () => {
  const embedded = engine('embedded', answer('embedded', 0.9));
  const registry = engineRegistry({ embedded, logger: pino({ level: 'silent' }), fetch: globalThis.fetch });
  const config = (changes: Partial<AgentConfig>): AgentConfig => ({
    clientId: 'c',
    name: 'Ava',
    description: '',
    enabled: true,
    confidenceThreshold: 0.8,
    escalationEnabled: true,
    responseDelaySeconds: 0,
    disabledChannelIds: [],
    businessHours: null,
    outsideHours: 'answer',
    greetingText: 'hi',
    handoffText: 'h',
    fallbackText: 'f',
    awayText: 'a',
    engine: 'openai',
    llmMode: 'embedded-first',
    llmModel: 'gpt-4o-mini',
    llmBaseUrl: null,
    llmApiKey: 'sk-test-registry-0123456789',
    csatEnabled: true,
    csatQuestion: 'How did we do?',
    ...changes,
  });

  it('embedded-first gives the hybrid engine (summaries stay extractive); llm gives the LLM engine (it also summarises)', () => {
    expect(registry.engineFor(config({}))).toBeInstanceOf(HybridEngine);
    expect(registry.summarizerFor(config({}))).toBeNull();
    expect(registry.engineFor(config({ llmMode: 'llm' }))).toBeInstanceOf(LlmEngine);
    expect(registry.summarizerFor(config({ llmMode: 'llm' }))).toBeInstanceOf(LlmEngine);
  });

  it('the embedded engine, or an unusable LLM configuration, gives the embedded engine in either mode', () => {
    for (const llmMode of ['embedded-first', 'llm'] as const) {
      expect(registry.engineFor(config({ engine: 'embedded', llmMode }))).toBe(embedded);
      expect(registry.engineFor(config({ llmApiKey: null, llmMode }))).toBe(embedded);
    }
  });
});
