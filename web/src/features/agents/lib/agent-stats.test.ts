import { describe, expect, it } from 'vitest';
import type { AgentStats } from '@common/api/agents';
import { formatUsd, questionsHandled, withoutLlmShare } from './agent-stats';

const stats = (changes: Partial<AgentStats> = {}): AgentStats => ({
  clientId: '33333333-3333-4333-8333-333333333333',
  days: 7,
  since: '2026-03-01T00:00:00.000Z',
  answers: { embedded: 6, llm: 2, greeting: 3, away: 1 },
  handoffs: 2,
  fallbacks: 0,
  llmCalls: 3,
  llmFailures: 1,
  inputTokens: 3000,
  outputTokens: 150,
  llmCostUsd: 0.00054,
  automatedResolutions: 5,
  costPerAutomatedResolutionUsd: 0.000108,
  ...changes,
});

describe('agent stats', () => {
  it('counts the questions the engines handled (not greetings or away texts) and the share handled without the LLM', () => {
    expect(questionsHandled(stats())).toBe(10);
    expect(withoutLlmShare(stats())).toBeCloseTo(0.7);
    expect(withoutLlmShare(stats({ answers: { embedded: 0, llm: 0, greeting: 4, away: 0 }, handoffs: 0, llmCalls: 0 }))).toBeNull();
  });

  it('writes dollars with cents, and two significant digits below a cent', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatUsd(0.00018)).toBe('$0.00018');
    expect(formatUsd(null)).toBe('—');
  });
});
