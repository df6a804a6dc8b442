/**
 * Training a client's knowledge base and serving the trained (live) version.
 *
 * Training snapshots the knowledge it trains on into `agent_models`, so the live model and the
 * answers it returns always belong together.
 */
import type { AgentModelMetrics } from '../../db/schema';
import { PermanentJobError } from '../../jobs/define-job';
import type { Clock } from '../../lib/clock';
import type { KnowledgeBase, KnowledgeEntry } from './engines/answer-engine';
import type { KnowledgeRepository } from './knowledge.repository';

/** Trains the embedded engine's model on a knowledge base's entries. */
export interface KnowledgeTrainer {
  train(entries: readonly KnowledgeEntry[], onProgress: (fraction: number) => void): Promise<{ model: unknown; accuracy: number | null; accuracyQuestions?: number | null }>;
}

export interface AgentTrainingDeps {
  clock: Clock;
  trainer: KnowledgeTrainer;
  knowledge: KnowledgeRepository;
}

const MODEL_CACHE_SIZE = 32;
/** Older trained versions kept besides the live one (for audit; the rest are deleted). */
const KEEP_OLD_MODELS = 2;

export class AgentTrainingService {
  readonly #models = new Map<string, KnowledgeBase>();

  constructor(private readonly deps: AgentTrainingDeps) {}

  /**
   * Trains knowledge version `version` if it is still the newest and not live yet. A job for an
   * older version returns at once: the job of the newest version (enqueued by the edit that made
   * it) trains instead. The live version only ever moves forward.
   */
  async train(clientId: string, version: number): Promise<void> {
    const repo = this.deps.knowledge;
    const kb = await repo.findBase(clientId);
    if (!kb || kb.version !== version || (kb.liveVersion ?? 0) >= version) return;
    const [entries, articles] = await repo.snapshot(clientId);
    await repo.setTrainingIfNewest(clientId, version, { trainingStatus: 'training', trainingProgress: 0, trainingError: null });
    const started = performance.now();
    let lastWrite = 0;
    let result: { model: unknown; accuracy: number | null; accuracyQuestions?: number | null };
    try {
      result = await this.deps.trainer.train(entries, (fraction) => {
        const now = performance.now();
        if (now - lastWrite < 250) return;
        lastWrite = now;
        void repo.setTrainingIfNewest(clientId, version, { trainingProgress: Math.min(0.99, Math.max(0, fraction)) }).catch(() => undefined);
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await repo.setTrainingIfNewest(clientId, version, { trainingStatus: 'failed', trainingError: message.slice(0, 500) });
      throw new PermanentJobError(`Training failed: ${message}`, { cause: error });
    }
    const metrics: AgentModelMetrics = {
      entries: entries.length,
      examples: entries.reduce((n, e) => n + e.questions.length, 0),
      trainingMs: Math.round(performance.now() - started),
      accuracy: result.accuracy,
      accuracyQuestions: result.accuracyQuestions ?? null,
    };
    await repo.storeModel(clientId, version, { knowledge: { entries, articles }, model: result.model, metrics }, this.deps.clock.now(), KEEP_OLD_MODELS);
  }

  /**
   * The live knowledge base (the trained version), cached per version; null before any training.
   * `liveVersion`: the caller already read it (saves a query).
   */
  async liveKnowledgeBase(clientId: string, liveVersion?: number): Promise<KnowledgeBase | null> {
    const kb = liveVersion !== undefined ? { liveVersion } : await this.deps.knowledge.findLiveVersion(clientId);
    if (!kb?.liveVersion) return null;
    const key = `${clientId}:${kb.liveVersion}`;
    const cached = this.#models.get(key);
    if (cached) {
      this.#models.delete(key);
      this.#models.set(key, cached);
      return cached;
    }
    const row = await this.deps.knowledge.findModel(clientId, kb.liveVersion);
    if (!row) return null;
    const value: KnowledgeBase = { version: row.version, entries: row.knowledge.entries, articles: row.knowledge.articles, model: row.model };
    this.#models.set(key, value);
    while (this.#models.size > MODEL_CACHE_SIZE) this.#models.delete(this.#models.keys().next().value as string);
    return value;
  }
}
