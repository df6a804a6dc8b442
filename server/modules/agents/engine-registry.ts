/**
 * Which engine answers for an agent's configuration, and which LLM writes its conversations'
 * summaries. One engine per distinct configuration, reused across replies (provider clients are
 * built once). Keys include a digest of the API key, never the key itself.
 *
 * An LLM configuration in `llmMode: 'embedded-first'` answers through the hybrid engine (the
 * embedded engine first, the LLM below the agent's threshold); its conversation summaries stay
 * extractive, so a question the embedded engine answers costs no LLM call at all.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { AgentConfig } from './agents.service';
import type { AnswerEngine } from './engines/answer-engine';
import { createAnswerEngine, DEFAULT_LLM_TIMEOUT_MS } from './engines/create-engine';
import { HybridEngine } from './engines/hybrid-engine';
import { LlmEngine } from './engines/llm/llm-engine';
import type { ConversationSummarizer } from './engines/llm/summary';
import { asksForPerson } from './intelligence';

const MAX_ENGINES = 64;

export interface EngineRegistryDeps {
  embedded: AnswerEngine;
  logger: Logger;
  /** How LLM providers reach their API: the guarded client's fetch (server/lib/guarded-http.ts). */
  fetch: typeof globalThis.fetch;
  /** Each LLM call (an answer, a summary) must finish within this (default DEFAULT_LLM_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface EngineRegistry {
  /**
   * The engine that answers for this configuration: the embedded one, an LLM that falls back to
   * it, or (embedded-first) the hybrid of both.
   */
  engineFor: (config: AgentConfig) => AnswerEngine;
  /** The LLM that summarises conversations, or null when the embedded engine answers first or alone (the summary is extractive then). */
  summarizerFor: (config: AgentConfig) => ConversationSummarizer | null;
}

export function engineRegistry(deps: EngineRegistryDeps): EngineRegistry {
  const engines = new Map<string, AnswerEngine>();
  const timeoutMs = deps.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const llmFor = (config: AgentConfig): AnswerEngine => {
    if (config.engine === 'embedded') return deps.embedded;
    const keyDigest = config.llmApiKey ? createHash('sha256').update(config.llmApiKey).digest('base64url').slice(0, 16) : '';
    const key = [config.engine, config.llmModel ?? '', config.llmBaseUrl ?? '', keyDigest].join('\u0000');
    let engine = engines.get(key);
    if (!engine) {
      engine = createAnswerEngine({ engine: config.engine, model: config.llmModel, apiKey: config.llmApiKey, baseUrl: config.llmBaseUrl, timeoutMs }, deps);
      engines.set(key, engine);
      if (engines.size > MAX_ENGINES) engines.delete(engines.keys().next().value as string);
    }
    return engine;
  };
  const engineFor = (config: AgentConfig): AnswerEngine => {
    const llm = llmFor(config);
    // An unusable LLM configuration gives the embedded engine: nothing to combine.
    if (llm === deps.embedded || config.llmMode === 'llm') return llm;
    return new HybridEngine({ local: deps.embedded, llm, threshold: config.confidenceThreshold, wantsPerson: asksForPerson });
  };
  return {
    engineFor,
    // An unusable LLM configuration gives the embedded engine, so no summarizer either; nor does
    // the hybrid engine (embedded first): its summaries are extractive.
    summarizerFor: (config) => {
      const engine = engineFor(config);
      return engine instanceof LlmEngine ? engine : null;
    },
  };
}
