/**
 * The hybrid engine (issue 12 §3, the agent's `llmMode: 'embedded-first'`): local first, the LLM
 * only when needed.
 *
 *   embedded answer ─ confident (≥ the agent's threshold, action 'answer') ─▶ that answer, cost 0
 *          │          the customer asks for a person ─▶ that (a hand-off whatever the LLM says)
 *          └─ otherwise ─▶ the LLM engine (retrieval over the same knowledge base, cited sources);
 *                          when it fails it falls back to the embedded answer, as on its own
 *
 * The answer says which engine produced it (`engine`), with its tokens and cost, so
 * `messages.ai` records it. Stateless and cheap: the registry makes one per call.
 */
import type { AgentAnswer, AnswerEngine, AnswerOptions, ConversationContext, EngineKind, KnowledgeBase } from './answer-engine';
import { asksForPerson } from './embedded';

export interface HybridEngineOptions {
  /** Answers first; must be free (the embedded engine). */
  local: AnswerEngine;
  /** Answers what `local` is not confident about. */
  llm: AnswerEngine;
  /** The agent's confidence threshold: a local answer at or above it is sent without calling the LLM. */
  threshold: number;
  /**
   * The policy's own "asks for a person" rule (intelligence.ts): such a message is handed off
   * whatever the LLM would say, so it is not worth a call. The embedded engine's rule always applies.
   */
  wantsPerson?: (text: string) => boolean;
}

/** The last customer turn's text, if any. */
function lastCustomerText(conversation: ConversationContext): string {
  for (let i = conversation.turns.length - 1; i >= 0; i--) {
    const turn = conversation.turns[i]!;
    if (turn.role === 'customer') return turn.text;
  }
  return '';
}

/** Whether the embedded answer stands without the LLM: confident enough, or the customer wants a person anyway. */
export function localAnswerStands(
  answer: Pick<AgentAnswer, 'action' | 'confidence'>,
  threshold: number,
  customerText: string,
  wantsPerson: (text: string) => boolean = () => false,
): boolean {
  if (asksForPerson(customerText) || wantsPerson(customerText)) return true;
  return answer.action === 'answer' && answer.confidence >= threshold;
}

export class HybridEngine implements AnswerEngine {
  /** The LLM's kind: what the agent is configured with. Each answer says which engine produced it. */
  readonly kind: EngineKind;

  constructor(private readonly options: HybridEngineOptions) {
    this.kind = options.llm.kind;
  }

  async answer(conversation: ConversationContext, knowledgeBase: KnowledgeBase, options?: AnswerOptions): Promise<AgentAnswer> {
    const local = await this.options.local.answer(conversation, knowledgeBase, options);
    if (localAnswerStands(local, this.options.threshold, lastCustomerText(conversation), this.options.wantsPerson)) return local;
    options?.signal?.throwIfAborted();
    return this.options.llm.answer(conversation, knowledgeBase, options);
  }
}
