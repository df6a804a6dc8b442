/**
 * The embedded answer engine (issue 4): answers the last customer turn with the FAQ entry its own
 * offline classifier picks, with a calibrated confidence. The conversation policy decides what a
 * confidence is worth; this engine escalates by itself only when the customer asks for a person
 * or there is nothing to answer from.
 */
import type { AgentAnswer, AnswerEngine, ConversationContext, KnowledgeBase, KnowledgeEntry } from '../answer-engine';
import { asksForPerson } from './human-request';
import { type EmbeddedModel, type EmbeddedTrainOverrides, loadEmbeddedModel, trainEmbeddedModel } from './model';
import { hashStrings } from './text';

export interface EmbeddedEngineOptions {
  /** Training options for knowledge bases without a stored model. */
  train?: EmbeddedTrainOverrides;
  /** How many trained or loaded models to keep in memory (least recently used go first). */
  cacheSize?: number;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, costUsd: 0 } as const;

export class EmbeddedEngine implements AnswerEngine {
  readonly kind = 'embedded' as const;
  private readonly cache = new Map<string, EmbeddedModel>();
  /** Fast path when the caller passes the same stored-model object again. */
  private readonly loaded = new WeakMap<object, EmbeddedModel>();
  private readonly cacheSize: number;

  constructor(private readonly options: EmbeddedEngineOptions = {}) {
    this.cacheSize = options.cacheSize ?? 32;
  }

  async answer(conversation: ConversationContext, knowledgeBase: KnowledgeBase): Promise<AgentAnswer> {
    const question = lastCustomerText(conversation);
    if (!question || asksForPerson(question)) return escalation();
    const entries = knowledgeBase.entries.filter((e) => e.questions.some((q) => q.trim()));
    if (!entries.length) return escalation();
    const prediction = this.modelFor(knowledgeBase, entries).predict(question);
    const entry = prediction && entries.find((e) => e.id === prediction.entryId);
    if (!prediction || !entry) return escalation();
    return {
      reply: entry.link ? `${entry.answer}\n${entry.link}` : entry.answer,
      confidence: prediction.confidence,
      sources: [{ kind: 'faq', id: entry.id, title: entry.questions[0] ?? '', link: entry.link }],
      action: 'answer',
      engine: 'embedded',
      model: 'embedded',
      usage: { ...NO_USAGE },
    };
  }

  /** The stored model when it covers these entries, else one trained here (cached per version and entry ids). */
  modelFor(knowledgeBase: KnowledgeBase, entries: readonly KnowledgeEntry[]): EmbeddedModel {
    const stored = knowledgeBase.model;
    if (stored !== null && typeof stored === 'object') {
      const model = this.loadStored(stored);
      if (model && coversEntries(model, entries)) return model;
    }
    const key = `v${knowledgeBase.version}:${hashStrings(entries.map((e) => e.id))}`;
    return this.remember(key, () => trainEmbeddedModel(entries, this.options.train));
  }

  private loadStored(stored: object): EmbeddedModel | null {
    const known = this.loaded.get(stored);
    if (known) return known;
    const fingerprint = (stored as { fingerprint?: unknown }).fingerprint;
    try {
      const model = typeof fingerprint === 'string' ? this.remember(`m:${fingerprint}`, () => loadEmbeddedModel(stored)) : loadEmbeddedModel(stored);
      this.loaded.set(stored, model);
      return model;
    } catch {
      // A model from another format version or a corrupted row: train from the entries instead.
      return null;
    }
  }

  private remember(key: string, build: () => EmbeddedModel): EmbeddedModel {
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const model = build();
    this.cache.set(key, model);
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return model;
  }
}

function lastCustomerText(conversation: ConversationContext): string | null {
  for (let i = conversation.turns.length - 1; i >= 0; i--) {
    const turn = conversation.turns[i]!;
    if (turn.role === 'customer') return turn.text.trim() || null;
  }
  return null;
}

/** Every label of the model is a current entry, so a prediction always maps to an answer. */
function coversEntries(model: EmbeddedModel, entries: readonly KnowledgeEntry[]): boolean {
  const ids = new Set(entries.map((e) => e.id));
  return model.labels.length > 0 && model.labels.every((id) => ids.has(id));
}

function escalation(): AgentAnswer {
  return { reply: '', confidence: 0, sources: [], action: 'escalate', engine: 'embedded', model: 'embedded', usage: { ...NO_USAGE } };
}
