/**
 * The one interface every AI engine answers through (issue 4 §3):
 * `answer(conversation, knowledgeBase) → { reply, confidence, sources, action }`.
 *
 * Engines are pure with respect to Parley's data: they get the conversation's recent turns and a
 * trained knowledge base, and return what they would say. Whether that is sent, delayed or turned
 * into a hand-off is the conversation policy's business (agents.policy.ts), not the engine's.
 */

export type EngineKind = 'embedded' | 'openai' | 'anthropic' | 'openai-compatible';

/** One FAQ entry: several example questions, one answer, an optional link. */
export interface KnowledgeEntry {
  id: string;
  questions: readonly string[];
  answer: string;
  link: string | null;
}

/** A free-text article (policies, prices, opening hours…), retrieved by passage. */
export interface KnowledgeArticle {
  id: string;
  title: string;
  body: string;
}

/**
 * What an engine answers from: the client's entries and articles plus, for the embedded engine,
 * the model trained on them (opaque JSON produced by `EmbeddedEngine.train`). `version` changes
 * whenever the content does.
 */
export interface KnowledgeBase {
  version: number;
  entries: readonly KnowledgeEntry[];
  articles: readonly KnowledgeArticle[];
  /** The embedded engine's trained model for this version; null before the first training. */
  model: unknown;
}

export interface ConversationTurn {
  role: 'customer' | 'ai' | 'agent';
  text: string;
  at: Date;
}

export interface ConversationContext {
  conversationId: string;
  /** Oldest first; the last customer turn is the one to answer. */
  turns: readonly ConversationTurn[];
  /** The business's name, for prompts. */
  businessName: string;
  /** The agent's name and description, for prompts. */
  agentName: string;
  agentDescription: string;
}

export interface AnswerSource {
  kind: 'faq' | 'article';
  id: string;
  /** The entry's first question or the article's title. */
  title: string;
  /** The entry's link, if any. */
  link?: string | null;
}

export interface AnswerUsage {
  inputTokens: number;
  outputTokens: number;
  /** Estimated cost in US dollars from the configured per-token prices; 0 for the embedded engine. */
  costUsd: number;
}

export interface AgentAnswer {
  /** What the customer would be told; empty when action is 'escalate' and there is nothing to say. */
  reply: string;
  /** Calibrated probability (0..1) that `reply` is right. */
  confidence: number;
  sources: readonly AnswerSource[];
  /** 'escalate' when the engine itself decides a person should take over (out of scope, asked for a person). */
  action: 'answer' | 'escalate';
  /** The engine that produced the answer (after any fallback). */
  engine: EngineKind;
  /** The model name for LLM engines ('embedded' otherwise). */
  model: string;
  usage: AnswerUsage;
  /** Set when an LLM engine failed and the embedded engine answered instead. */
  fallbackReason?: string;
}

export interface AnswerOptions {
  signal?: AbortSignal;
}

export interface AnswerEngine {
  readonly kind: EngineKind;
  answer(conversation: ConversationContext, knowledgeBase: KnowledgeBase, options?: AnswerOptions): Promise<AgentAnswer>;
}
