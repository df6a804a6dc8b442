/**
 * The LLM answer engines (issue 4 §3): OpenAI, Anthropic or any OpenAI-compatible server through
 * the Vercel AI SDK. Retrieval-augmented: the best knowledge passages (BM25, `../retrieval.ts`)
 * and the recent conversation go into the prompt; the model returns a structured answer that is
 * validated with zod and mapped to an `AgentAnswer`.
 *
 * The engine never throws for provider problems: a time-out, an HTTP or network error, or output
 * that is not the agreed JSON is logged (without the key or the prompt) and answered by the
 * fallback engine, with `fallbackReason` set. Only the caller's own abort propagates.
 *
 * The same model writes conversation summaries (`summarize`, ./summary.ts); a failed summary is
 * logged the same way and returns null, so the caller keeps its extractive one.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, NoObjectGeneratedError, Output, type LanguageModel, type LanguageModelUsage } from 'ai';
import type { Logger } from 'pino';
import type {
  AgentAnswer,
  AnswerEngine,
  AnswerOptions,
  AnswerSource,
  AnswerUsage,
  ConversationContext,
  EngineKind,
  KnowledgeBase,
} from '../answer-engine';
import { allPassages, conversationQuery, topPassages, type Passage } from '../retrieval';
import { buildAnswerPrompt, llmAnswerSchema, type LlmAnswer, type NumberedPassage } from './prompt';
import { buildSummaryPrompt, llmSummarySchema, type ConversationSummarizer, type ConversationSummary, type SummaryInput } from './summary';

export type LlmProvider = Exclude<EngineKind, 'embedded'>;
export type LlmFallbackReason = 'timeout' | 'provider_error' | 'invalid_output';

/** US dollars per million tokens. */
export interface TokenPrices {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** A provider's model object (not a gateway model id string). */
export type LlmModel = Exclude<LanguageModel, string>;

export interface LlmEngineOptions {
  kind: LlmProvider;
  model: LlmModel;
  /** The whole call, retries included, must finish within this; otherwise the fallback answers. */
  timeoutMs: number;
  /** Without prices `costUsd` is 0. */
  prices?: TokenPrices;
  fallback: AnswerEngine;
  logger: Logger;
  /** How many passages go into the prompt (default 6). */
  maxPassages?: number;
  /** The SDK's retries within the time-out: 0 (default) or 1. The policy must answer quickly. */
  maxRetries?: 0 | 1;
  /** Strings that must never reach the log, such as the API key. */
  secrets?: readonly string[];
}

const DEFAULT_MAX_PASSAGES = 6;
/** A knowledge base this small goes into the prompt whole, so a question in another language than the knowledge still finds it. */
const SMALL_KNOWLEDGE_CHARS = 6000;
/** Answers must be grounded: one that cites no passage of the prompt is at most this confident. */
export const UNGROUNDED_CONFIDENCE_CAP = 0.5;
const MAX_OUTPUT_TOKENS = 800;
/** One or two sentences. */
const MAX_SUMMARY_TOKENS = 200;

export function costUsd(usage: { inputTokens: number; outputTokens: number }, prices: TokenPrices | undefined): number {
  if (!prices) return 0;
  const cost = (usage.inputTokens * prices.inputPerMTok + usage.outputTokens * prices.outputPerMTok) / 1_000_000;
  return Math.round(cost * 1e9) / 1e9;
}

/** The passages for the prompt: the best BM25 matches; the whole knowledge base when it is small. */
function selectPassages(kb: KnowledgeBase, conversation: ConversationContext, max: number): Passage[] {
  const ranked: Passage[] = topPassages(kb, conversationQuery(conversation.turns), max);
  const all = allPassages(kb);
  if (all.reduce((n, p) => n + p.text.length, 0) > SMALL_KNOWLEDGE_CHARS) return ranked;
  const chosen = new Set(ranked.map((p) => p.id));
  return [...ranked, ...all.filter((p) => !chosen.has(p.id))];
}

/** A model's "P2", "[P2]", "p2" or the passage's own id → the passage, if it was in the prompt. */
function citedSources(cited: readonly string[], passages: readonly NumberedPassage[]): AnswerSource[] {
  const byKey = new Map<string, Passage>();
  for (const { ref, passage } of passages) {
    byKey.set(ref.toLowerCase(), passage);
    byKey.set(passage.id.toLowerCase(), passage);
  }
  const sources = new Map<string, AnswerSource>();
  for (const id of cited) {
    const passage = byKey.get(id.trim().replace(/^\[(.*)\]$/u, '$1').toLowerCase());
    if (passage) sources.set(`${passage.source.kind}:${passage.source.id}`, passage.source);
  }
  return [...sources.values()];
}

/** Models outside a structured-output mode sometimes wrap the JSON in prose or a code fence. */
function salvage(text: string | undefined): LlmAnswer | null {
  if (!text) return null;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = llmAnswerSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function tokens(usage: LanguageModelUsage | undefined): { inputTokens: number; outputTokens: number } {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}

export class LlmEngine implements AnswerEngine, ConversationSummarizer {
  readonly kind: LlmProvider;
  readonly modelId: string;
  readonly #options: LlmEngineOptions;

  constructor(options: LlmEngineOptions) {
    this.kind = options.kind;
    this.modelId = options.model.modelId;
    this.#options = options;
  }

  async answer(conversation: ConversationContext, knowledgeBase: KnowledgeBase, options: AnswerOptions = {}): Promise<AgentAnswer> {
    options.signal?.throwIfAborted();
    const { model, timeoutMs, maxPassages = DEFAULT_MAX_PASSAGES, maxRetries = 0 } = this.#options;
    const prompt = buildAnswerPrompt(conversation, selectPassages(knowledgeBase, conversation, maxPassages));
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

    let output: LlmAnswer;
    let usage: LanguageModelUsage | undefined;
    try {
      const result = await generateText({
        model,
        system: prompt.system,
        prompt: prompt.prompt,
        output: Output.object({ schema: llmAnswerSchema, name: 'agent_answer', description: "The agent's answer to the customer" }),
        temperature: 0,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        maxRetries,
        abortSignal,
      });
      output = result.output;
      usage = result.totalUsage;
    } catch (error) {
      // The caller gave up (shutdown, a newer message): not a provider problem, so no fallback.
      options.signal?.throwIfAborted();
      const invalid = NoObjectGeneratedError.isInstance(error) ? error : undefined;
      const salvaged = salvage(invalid?.text);
      if (!salvaged) {
        const reason: LlmFallbackReason = timeout.aborted ? 'timeout' : invalid ? 'invalid_output' : 'provider_error';
        return this.#fallback(conversation, knowledgeBase, options, reason, error, invalid?.usage);
      }
      output = salvaged;
      usage = invalid?.usage;
    }

    const reply = output.answer.trim();
    if (!output.handoff && !reply) {
      return this.#fallback(conversation, knowledgeBase, options, 'invalid_output', new Error('The model answered nothing without handing off'), usage);
    }
    const sources = citedSources(output.sources, prompt.passages);
    let confidence = Math.min(1, Math.max(0, output.confidence));
    if (sources.length === 0) confidence = Math.min(confidence, UNGROUNDED_CONFIDENCE_CAP);
    return {
      reply,
      confidence,
      sources,
      action: output.handoff ? 'escalate' : 'answer',
      engine: this.kind,
      model: this.modelId,
      usage: this.#usage(usage),
    };
  }

  async summarize(input: SummaryInput, options: AnswerOptions = {}): Promise<ConversationSummary | null> {
    options.signal?.throwIfAborted();
    const { model, timeoutMs, maxRetries = 0 } = this.#options;
    const prompt = buildSummaryPrompt(input);
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let text: string;
    let usage: LanguageModelUsage | undefined;
    try {
      const result = await generateText({ model, system: prompt.system, prompt: prompt.prompt, temperature: 0, maxOutputTokens: MAX_SUMMARY_TOKENS, maxRetries, abortSignal });
      text = result.text;
      usage = result.totalUsage;
    } catch (error) {
      options.signal?.throwIfAborted();
      this.#summaryFailed(input, timeout.aborted ? 'timeout' : 'provider_error', error);
      return null;
    }
    const parsed = llmSummarySchema.safeParse(text);
    if (!parsed.success) {
      this.#summaryFailed(input, 'invalid_output', new Error(parsed.error.issues[0]?.message ?? 'Invalid summary'));
      return null;
    }
    return { summary: parsed.data, usage: this.#usage(usage) };
  }

  #summaryFailed(input: SummaryInput, reason: LlmFallbackReason, error: unknown): void {
    this.#options.logger.warn(
      { engine: this.kind, model: this.modelId, conversationId: input.conversationId, reason, error: this.#describe(error) },
      `LLM summary failed (${reason})`,
    );
  }

  #usage(usage: LanguageModelUsage | undefined): AnswerUsage {
    const counted = tokens(usage);
    return { ...counted, costUsd: costUsd(counted, this.#options.prices) };
  }

  /**
   * The fallback engine's answer. Tokens the failed call consumed (known when the model answered
   * with the wrong shape) are added to its usage, so cost accounting sees every paid token.
   */
  async #fallback(
    conversation: ConversationContext,
    knowledgeBase: KnowledgeBase,
    options: AnswerOptions,
    reason: LlmFallbackReason,
    error: unknown,
    spent: LanguageModelUsage | undefined,
  ): Promise<AgentAnswer> {
    this.#options.logger.warn(
      { engine: this.kind, model: this.modelId, conversationId: conversation.conversationId, reason, error: this.#describe(error) },
      `LLM engine failed (${reason}); the ${this.#options.fallback.kind} engine answers instead`,
    );
    const answer = await this.#options.fallback.answer(conversation, knowledgeBase, options);
    const wasted = this.#usage(spent);
    return {
      ...answer,
      usage: {
        inputTokens: answer.usage.inputTokens + wasted.inputTokens,
        outputTokens: answer.usage.outputTokens + wasted.outputTokens,
        costUsd: answer.usage.costUsd + wasted.costUsd,
      },
      fallbackReason: reason,
    };
  }

  /** Name, HTTP status and a short message for the log; never the key, the prompt or the response body. */
  #describe(error: unknown): { name: string; status?: number; message: string } {
    const name = error instanceof Error ? error.name : typeof error;
    let message = error instanceof Error ? error.message : String(error);
    for (const secret of this.#options.secrets ?? []) if (secret) message = message.split(secret).join('[redacted]');
    message = message.replace(/\b(sk|key|token)[-_][\w-]{6,}/giu, '[redacted]');
    if (message.length > 300) message = `${message.slice(0, 299)}…`;
    return APICallError.isInstance(error) && error.statusCode !== undefined ? { name, status: error.statusCode, message } : { name, message };
  }
}

export interface CreateLlmEngineOptions {
  provider: LlmProvider;
  model: string;
  apiKey?: string;
  /** The API's base URL up to and including `/v1`; required for 'openai-compatible'. */
  baseUrl?: string;
  /**
   * The guarded client's fetch (server/lib/guarded-http.ts): the base URL is user input, so the
   * provider must not reach this server or its networks. A refused address is a provider error:
   * the fallback answers.
   */
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  prices?: TokenPrices;
  fallback: AnswerEngine;
  logger: Logger;
}

/** The AI SDK model for a provider: chat completions for OpenAI (and compatible servers), Messages for Anthropic. */
export function createLanguageModel(options: Pick<CreateLlmEngineOptions, 'provider' | 'model' | 'apiKey' | 'baseUrl' | 'fetch'>): LlmModel {
  const { provider, model, apiKey, baseUrl, fetch } = options;
  switch (provider) {
    case 'openai':
      // `.chat`: the chat-completions API; `openai(model)` would call /v1/responses.
      return createOpenAI({ apiKey, baseURL: baseUrl, fetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL: baseUrl, fetch }).messages(model);
    case 'openai-compatible':
      if (!baseUrl) throw new Error('An OpenAI-compatible engine needs a base URL');
      // json_schema response format: vLLM, llama.cpp, Ollama, LM Studio and the hosted ones accept it.
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl, apiKey, fetch, supportsStructuredOutputs: true }).chatModel(model);
  }
}

export function createLlmEngine(options: CreateLlmEngineOptions): LlmEngine {
  return new LlmEngine({
    kind: options.provider,
    model: createLanguageModel(options),
    timeoutMs: options.timeoutMs,
    prices: options.prices,
    fallback: options.fallback,
    logger: options.logger,
    secrets: options.apiKey ? [options.apiKey] : [],
  });
}
