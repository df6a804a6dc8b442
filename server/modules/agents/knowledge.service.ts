/**
 * A client's knowledge base: FAQ entries and articles, versioned, with CSV/JSON import and export.
 *
 * Every change to the knowledge base bumps `knowledge_bases.version` and enqueues the training
 * job in the same transaction (agent-training.service.ts trains it).
 */
import type { KnowledgeArticleInput, KnowledgeArticleView, KnowledgeEntryInput, KnowledgeEntryView, KnowledgeView, TrainingView } from '../../../common/api/agents';
import type { Db } from '../../db/database';
import type { AgentModelMetrics, KnowledgeBaseRow } from '../../db/schema';
import type { SessionUser } from '../../http/access';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { iso, visibleClient } from './agent-config.service';
import type { AgentsRepository } from './agents.repository';
import type { KnowledgeRepository } from './knowledge.repository';
import { knowledgeToCsv, knowledgeToJson, parseKnowledge } from './knowledge-format';
import { trainAgentJob } from './train-agent.job';

export interface KnowledgeDeps {
  db: Db;
  queue: JobQueue;
  clock: Clock;
  agents: AgentsRepository;
  knowledge: KnowledgeRepository;
}

export class KnowledgeService {
  constructor(private readonly deps: KnowledgeDeps) {}

  async training(clientId: string, db: Db = this.deps.db): Promise<TrainingView> {
    const kb = await this.deps.knowledge.findBase(clientId, db);
    const metrics = kb?.liveVersion ? await this.deps.knowledge.findModelMetrics(clientId, kb.liveVersion, db) : undefined;
    return trainingView(kb, metrics ?? null);
  }

  async getKnowledge(user: SessionUser, clientId: string, search?: string): Promise<KnowledgeView> {
    await visibleClient(this.deps.agents, user, clientId);
    const [[entryRows, articleRows], totals, training] = await Promise.all([
      this.deps.knowledge.search(clientId, search),
      this.deps.knowledge.totals(clientId),
      this.training(clientId),
    ]);
    return { entries: entryRows.map(entryView), articles: articleRows.map(articleView), totals, training };
  }

  async createEntry(clientId: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.deps.db.transaction().execute(async (trx) => {
      await visibleClient(this.deps.agents, null, clientId, trx);
      const row = await this.deps.knowledge.insertEntry(
        { clientId, questions: dedupe(input.questions), answer: input.answer, link: input.link ?? null, createdAt: this.deps.clock.now() },
        trx,
      );
      await this.#changed(trx, clientId);
      return entryView(row);
    });
  }

  async updateEntry(id: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.deps.knowledge.updateEntry(
        id,
        { questions: dedupe(input.questions), answer: input.answer, link: input.link ?? null, updatedAt: this.deps.clock.now() },
        trx,
      );
      if (!row) throw notFound('Knowledge entry');
      await this.#changed(trx, row.clientId);
      return entryView(row);
    });
  }

  async deleteEntry(id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const clientId = await this.deps.knowledge.deleteEntry(id, trx);
      if (clientId === undefined) throw notFound('Knowledge entry');
      await this.#changed(trx, clientId);
    });
  }

  async createArticle(clientId: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.deps.db.transaction().execute(async (trx) => {
      await visibleClient(this.deps.agents, null, clientId, trx);
      const row = await this.deps.knowledge.insertArticle({ clientId, title: input.title, body: input.body, createdAt: this.deps.clock.now() }, trx);
      await this.#changed(trx, clientId);
      return articleView(row);
    });
  }

  async updateArticle(id: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.deps.knowledge.updateArticle(id, { title: input.title, body: input.body, updatedAt: this.deps.clock.now() }, trx);
      if (!row) throw notFound('Knowledge article');
      await this.#changed(trx, row.clientId);
      return articleView(row);
    });
  }

  async deleteArticle(id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const clientId = await this.deps.knowledge.deleteArticle(id, trx);
      if (clientId === undefined) throw notFound('Knowledge article');
      await this.#changed(trx, clientId);
    });
  }

  /**
   * Imports a CSV or JSON file: `replace` makes the FAQ exactly the file's entries (articles are
   * kept), `append` adds them. The file is validated whole first: a bad row stores nothing.
   */
  async importKnowledge(
    clientId: string,
    input: { format: 'csv' | 'json'; content: string; mode: 'replace' | 'append' },
  ): Promise<{ entries: number; questions: number; version: number }> {
    const parsed = parseKnowledge(input.format, input.content);
    return this.deps.db.transaction().execute(async (trx) => {
      await visibleClient(this.deps.agents, null, clientId, trx);
      if (input.mode === 'replace') await this.deps.knowledge.deleteEntriesOf(clientId, trx);
      const now = this.deps.clock.now();
      // created_at steps by a millisecond (ending now) to keep the file's order.
      await this.deps.knowledge.insertEntries(
        parsed.map((e, i) => ({
          clientId,
          questions: dedupe(e.questions),
          answer: e.answer,
          link: e.link,
          createdAt: new Date(now.getTime() - parsed.length + i + 1),
        })),
        trx,
      );
      const version = await this.#changed(trx, clientId);
      return { entries: parsed.length, questions: parsed.reduce((n, e) => n + dedupe(e.questions).length, 0), version };
    });
  }

  async exportKnowledge(user: SessionUser, clientId: string, format: 'csv' | 'json'): Promise<{ filename: string; contentType: string; body: string }> {
    const name = await visibleClient(this.deps.agents, user, clientId);
    const rows = await this.deps.knowledge.entries(clientId);
    const entries = rows.map((r) => ({ questions: r.questions, answer: r.answer, link: r.link }));
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'client';
    return format === 'csv'
      ? { filename: `${slug}-knowledge.csv`, contentType: 'text/csv; charset=utf-8', body: knowledgeToCsv(entries) }
      : { filename: `${slug}-knowledge.json`, contentType: 'application/json; charset=utf-8', body: knowledgeToJson(entries) };
  }

  /** A new knowledge version, and training queued for it (in the caller's transaction). */
  async #changed(trx: Db, clientId: string): Promise<number> {
    const version = await this.deps.knowledge.bumpVersion(clientId, this.deps.clock.now(), trx);
    await this.deps.queue.enqueue(trainAgentJob, { clientId, version }, { db: trx, singletonKey: `${clientId}:${version}` });
    return version;
  }
}

function dedupe(questions: readonly string[]): string[] {
  const seen = new Set<string>();
  return questions.filter((q) => {
    const key = q.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function entryView(row: { id: string; questions: string[]; answer: string; link: string | null; updatedAt: Date }): KnowledgeEntryView {
  return { id: row.id, questions: row.questions, answer: row.answer, link: row.link, updatedAt: new Date(row.updatedAt).toISOString() };
}

function articleView(row: { id: string; title: string; body: string; updatedAt: Date }): KnowledgeArticleView {
  return { id: row.id, title: row.title, body: row.body, updatedAt: new Date(row.updatedAt).toISOString() };
}

export function trainingView(kb: KnowledgeBaseRow | undefined, metrics: AgentModelMetrics | null): TrainingView {
  if (!kb) return { status: 'idle', progress: 0, knowledgeVersion: 0, liveVersion: null, liveAt: null, error: null, metrics: null };
  return {
    status: kb.trainingStatus,
    progress: Math.min(1, Math.max(0, kb.trainingProgress)),
    knowledgeVersion: kb.version,
    liveVersion: kb.liveVersion,
    liveAt: iso(kb.liveAt),
    error: kb.trainingError,
    metrics,
  };
}
