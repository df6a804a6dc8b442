/**
 * The agents page's "answers and cost" figures (`GET /clients/:clientId/agent/stats`, defined in
 * common/api/agents.ts): what each figure means, and how it is written.
 */
import type { AgentStats } from '@common/api/agents';

/** Questions an engine handled: its answers, hand-offs and "please rephrase" texts (not the greeting or away texts). */
export function questionsHandled(stats: AgentStats): number {
  return stats.answers.embedded + stats.answers.llm + stats.handoffs + stats.fallbacks;
}

/** The share of those questions handled without calling the LLM; null when there were none. */
export function withoutLlmShare(stats: AgentStats): number | null {
  const handled = questionsHandled(stats);
  return handled === 0 ? null : Math.max(0, handled - stats.llmCalls) / handled;
}

const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const small = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 2 });

/** US dollars: "$1.25", and two significant digits below a cent ("$0.00018"); "—" for null. */
export function formatUsd(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (value === 0) return cents.format(0);
  return Math.abs(value) < 0.01 ? small.format(value) : cents.format(value);
}

/** 12345 → "12,345". */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** What "automated resolution" means, on screen and in the docs (docs/ARCHITECTURE.md). */
export const AUTOMATED_RESOLUTION_DEFINITION =
  'An automated resolution is a conversation in which the agent sent at least one answer during the period, that no person has written in, that the agent never handed off and that is not escalated. Cost per automated resolution = the LLM cost of all the period’s AI messages ÷ those conversations.';

export const LLM_COST_NOTE = 'LLM cost: estimated from the tokens of each AI answer at the model’s list price (unknown models count as free); conversation summaries written by the LLM are not included.';
