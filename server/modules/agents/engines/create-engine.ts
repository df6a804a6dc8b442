/**
 * The engine for an agent's configuration: the embedded engine, or an LLM engine that falls back
 * to it. A configuration the LLM cannot work with (no API key for OpenAI or Anthropic, no base URL
 * or model for an OpenAI-compatible server) gives the embedded engine, with a warning saying why,
 * so the product keeps answering.
 */
import type { Logger } from 'pino';
import type { AnswerEngine, EngineKind } from './answer-engine';
import { createLlmEngine, type LlmProvider, type TokenPrices } from './llm/llm-engine';

export interface EngineConfig {
  engine: EngineKind;
  model?: string | null;
  apiKey?: string | null;
  baseUrl?: string | null;
  timeoutMs?: number;
}

export interface EngineDeps {
  embedded: AnswerEngine;
  logger: Logger;
  /** How LLM providers reach their API: the guarded client's fetch (server/lib/guarded-http.ts). */
  fetch: typeof globalThis.fetch;
}

/** Small, fast models: an agent's answer is a few sentences from retrieved passages. */
export const DEFAULT_MODELS: Readonly<Record<Exclude<LlmProvider, 'openai-compatible'>, string>> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
};

/**
 * Estimated list prices in US dollars per million tokens (input / output, no cache discounts),
 * from the providers' public price pages; they change, so costs computed with them are estimates.
 * A model not listed here (every OpenAI-compatible model) is accounted at 0.
 */
export const DEFAULT_PRICES: Readonly<Record<string, TokenPrices>> = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
};

/** An LLM call must leave the policy time to answer; past this the embedded engine answers. */
export const DEFAULT_LLM_TIMEOUT_MS = 8000;

/** Why an LLM configuration cannot be used (the embedded engine answers then), or null when it can. */
export function llmConfigProblem(config: EngineConfig): string | null {
  switch (config.engine) {
    case 'embedded':
      return null;
    case 'openai':
    case 'anthropic':
      return config.apiKey?.trim() ? null : `The ${config.engine === 'openai' ? 'OpenAI' : 'Anthropic'} engine needs an API key`;
    case 'openai-compatible':
      if (!config.baseUrl?.trim()) return 'The OpenAI-compatible engine needs a base URL';
      if (!config.model?.trim()) return 'The OpenAI-compatible engine needs a model name';
      return null;
  }
}

export function createAnswerEngine(config: EngineConfig, deps: EngineDeps): AnswerEngine {
  if (config.engine === 'embedded') return deps.embedded;
  const problem = llmConfigProblem(config);
  if (problem) {
    deps.logger.warn({ engine: config.engine }, `${problem}; the embedded engine answers instead`);
    return deps.embedded;
  }
  const provider = config.engine;
  const model = config.model?.trim() || (provider === 'openai-compatible' ? '' : DEFAULT_MODELS[provider]);
  return createLlmEngine({
    provider,
    model,
    apiKey: config.apiKey?.trim() || undefined,
    baseUrl: config.baseUrl?.trim() || undefined,
    fetch: deps.fetch,
    timeoutMs: config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    prices: provider === 'openai-compatible' ? undefined : DEFAULT_PRICES[model],
    fallback: deps.embedded,
    logger: deps.logger,
  });
}
