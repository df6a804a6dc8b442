/**
 * "Try the agent" (issue 12 §4): what a customer would receive for a question, exactly as the
 * policy would send it — the engine's answer, the greeting text, the hand-off text (below the
 * threshold, or when they ask for a person) or the fallback text (escalation off) — and, when the
 * policy would not send the engine's answer, that candidate apart, with its confidence.
 */
import type { AgentConfig } from './agents.service';
import type { AgentAnswer } from './engines/answer-engine';

export type ReceivedKind = 'answer' | 'greeting' | 'handoff' | 'fallback';

export interface TryOutcome {
  received: { kind: ReceivedKind; text: string };
  /** The engine's answer the policy would not send; null when it sends it (or a greeting). */
  rejected: {
    reply: string;
    confidence: number;
    /** Why the policy would not send it, in words for the screen. */
    reason: string;
    sources: { kind: 'faq' | 'article'; id: string; title: string; link: string | null }[];
  } | null;
}

export function tryOutcome(
  answer: Pick<AgentAnswer, 'reply' | 'confidence' | 'sources' | 'action'>,
  decision: 'answer' | 'handoff' | 'fallback' | 'greeting',
  config: Pick<AgentConfig, 'greetingText' | 'handoffText' | 'fallbackText' | 'confidenceThreshold'>,
  customerAskedForPerson: boolean,
): TryOutcome {
  if (decision === 'greeting') return { received: { kind: 'greeting', text: config.greetingText }, rejected: null };
  if (decision === 'answer') return { received: { kind: 'answer', text: answer.reply }, rejected: null };
  const text = decision === 'handoff' ? config.handoffText : config.fallbackText;
  const confidence = Number.isFinite(answer.confidence) ? Math.min(1, Math.max(0, answer.confidence)) : 0;
  const reason = customerAskedForPerson
    ? 'the customer asks for a person'
    : answer.action === 'escalate'
      ? 'the engine asked for a person'
      : `its confidence is below the threshold (${Math.round(config.confidenceThreshold * 100)}%)`;
  const rejected =
    answer.reply.trim() === ''
      ? null
      : { reply: answer.reply, confidence, reason, sources: answer.sources.map((s) => ({ kind: s.kind, id: s.id, title: s.title, link: s.link ?? null })) };
  return { received: { kind: decision, text }, rejected };
}
