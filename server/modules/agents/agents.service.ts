/**
 * AI agents: the configuration per client (one agent per client; defaults until an admin changes
 * it), the client's knowledge base (FAQ entries and articles, versioned) and its training.
 *
 * Every change to the knowledge base bumps `knowledge_bases.version` and enqueues the training
 * job in the same transaction; training snapshots the knowledge it trains on into `agent_models`,
 * so the live model and the answers it returns always belong together. Reading is scoped: staff
 * see every client, a client user only their own (another client's id answers 404).
 */
import { sql } from 'kysely';
import {
  DEFAULT_AGENT_TEXTS,
  DEFAULT_CONFIDENCE_THRESHOLD,
  DEFAULT_RESPONSE_DELAY_SECONDS,
  type AgentView,
  type KnowledgeArticleInput,
  type KnowledgeArticleView,
  type KnowledgeEntryInput,
  type KnowledgeEntryView,
  type KnowledgeView,
  type TrainingView,
  type UpdateAgentInput,
} from '../../../common/api/agents';
import type { Db } from '../../db/database';
import type { Agent, AgentModelMetrics, KnowledgeBaseRow } from '../../db/schema';
import type { SessionUser } from '../../http/access';
import { PermanentJobError } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { KnowledgeBase, KnowledgeEntry } from './engines/answer-engine';
import { DEMO_KNOWLEDGE } from './demo-knowledge';
import { knowledgeToCsv, knowledgeToJson, parseKnowledge } from './knowledge-format';
import { trainAgentJob } from './train-agent.job';

/** Trains the embedded engine's model on a knowledge base's entries. */
export interface KnowledgeTrainer {
  train(entries: readonly KnowledgeEntry[], onProgress: (fraction: number) => void): Promise<{ model: unknown; accuracy: number | null }>;
}

export interface AgentsServiceDeps {
  db: Db;
  queue: JobQueue;
  clock: Clock;
  secretBox: SecretBox;
  trainer: KnowledgeTrainer;
  /**
   * Why an LLM base URL may not be saved (this server, a private or metadata address given as an
   * IP literal or `localhost`; server/lib/guarded-http.ts), or null. The connection is checked again.
   */
  checkOutboundUrl(url: string): string | null;
}

/** An agent's configuration as the policy and the engines need it (defaults filled in). */
export interface AgentConfig {
  clientId: string;
  name: string;
  description: string;
  enabled: boolean;
  confidenceThreshold: number;
  escalationEnabled: boolean;
  responseDelaySeconds: number;
  disabledChannelIds: readonly string[];
  businessHours: { timezone: string; days: { day: number; open: string; close: string }[] } | null;
  outsideHours: 'answer' | 'away';
  greetingText: string;
  handoffText: string;
  fallbackText: string;
  awayText: string;
  engine: Agent['engine'];
  llmModel: string | null;
  llmBaseUrl: string | null;
  llmApiKey: string | null;
}

export const DEFAULT_AGENT_NAME = 'AI Assistant';

/** The columns of an `agents` row the configuration is made of. */
export type AgentRowFields = Omit<Agent, 'id' | 'clientId' | 'createdAt' | 'updatedAt'>;

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const NO_CLIENT = '00000000-0000-0000-0000-000000000000';
const MODEL_CACHE_SIZE = 32;
/** Older trained versions kept besides the live one (for audit; the rest are deleted). */
const KEEP_OLD_MODELS = 2;

export class AgentsService {
  readonly #models = new Map<string, KnowledgeBase>();

  constructor(private readonly deps: AgentsServiceDeps) {}

  // Access ---------------------------------------------------------------------------------------

  /** The client's name, if `user` may see it; 404 otherwise (also for another client's id). */
  async #visibleClient(user: SessionUser | null, clientId: string, db: Db = this.deps.db): Promise<string> {
    if (user && user.role === 'client' && (user.clientId ?? NO_CLIENT) !== clientId) throw notFound('Client');
    const client = await db.selectFrom('clients').select('companyName').where('id', '=', clientId).executeTakeFirst();
    if (!client) throw notFound('Client');
    return client.companyName;
  }

  // Configuration --------------------------------------------------------------------------------

  async getConfig(clientId: string, db: Db = this.deps.db): Promise<AgentConfig> {
    const row = await db.selectFrom('agents').selectAll().where('clientId', '=', clientId).executeTakeFirst();
    return this.#config(clientId, row);
  }

  /** The configuration from an `agents` row the caller loaded (the defaults when there is none). */
  configFromRow(clientId: string, row: AgentRowFields | undefined): AgentConfig {
    return this.#config(clientId, row);
  }

  #config(clientId: string, row: AgentRowFields | undefined): AgentConfig {
    if (!row) {
      return {
        clientId,
        name: DEFAULT_AGENT_NAME,
        description: '',
        // Off until an admin switches it on: an agent without knowledge would hand every
        // conversation to people with a canned text (docs/DECISIONS.md).
        enabled: false,
        confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD,
        escalationEnabled: true,
        responseDelaySeconds: DEFAULT_RESPONSE_DELAY_SECONDS,
        disabledChannelIds: [],
        businessHours: null,
        outsideHours: 'answer',
        greetingText: DEFAULT_AGENT_TEXTS.greeting,
        handoffText: DEFAULT_AGENT_TEXTS.handoff,
        fallbackText: DEFAULT_AGENT_TEXTS.fallback,
        awayText: DEFAULT_AGENT_TEXTS.away,
        engine: 'embedded',
        llmModel: null,
        llmBaseUrl: null,
        llmApiKey: null,
      };
    }
    return {
      clientId,
      name: row.name,
      description: row.description,
      enabled: row.enabled,
      // real columns come back as 0.800000011920929 from some drivers
      confidenceThreshold: Math.round(row.confidenceThreshold * 100) / 100,
      escalationEnabled: row.escalationEnabled,
      responseDelaySeconds: row.responseDelaySeconds,
      disabledChannelIds: row.disabledChannelIds,
      businessHours: row.businessHours,
      outsideHours: row.outsideHours,
      greetingText: row.greetingText,
      handoffText: row.handoffText,
      fallbackText: row.fallbackText,
      awayText: row.awayText,
      engine: row.engine,
      llmModel: row.llmModel,
      llmBaseUrl: row.llmBaseUrl,
      llmApiKey: row.llmApiKeySealed ? this.deps.secretBox.open(row.llmApiKeySealed) : null,
    };
  }

  async findAgents(user: SessionUser): Promise<AgentView[]> {
    let q = this.deps.db.selectFrom('clients').select('id').orderBy('companyName');
    if (user.role === 'client') q = q.where('id', '=', user.clientId ?? NO_CLIENT);
    const clients = await q.execute();
    return Promise.all(clients.map((c) => this.#view(c.id)));
  }

  async getAgent(user: SessionUser | null, clientId: string): Promise<AgentView> {
    await this.#visibleClient(user, clientId);
    return this.#view(clientId);
  }

  async #view(clientId: string): Promise<AgentView> {
    const db = this.deps.db;
    const [client, row, channels, training, stats] = await Promise.all([
      db.selectFrom('clients').select('companyName').where('id', '=', clientId).executeTakeFirstOrThrow(),
      db.selectFrom('agents').selectAll().where('clientId', '=', clientId).executeTakeFirst(),
      db.selectFrom('channels').select(['id', 'name', 'kind']).where('clientId', '=', clientId).orderBy('createdAt').execute(),
      this.training(clientId),
      this.#stats(clientId),
    ]);
    const config = this.#config(clientId, row);
    return {
      clientId,
      clientName: client.companyName,
      name: config.name,
      description: config.description,
      enabled: config.enabled,
      confidenceThreshold: config.confidenceThreshold,
      escalationEnabled: config.escalationEnabled,
      responseDelaySeconds: config.responseDelaySeconds,
      channels: channels.map((c) => ({ channelId: c.id, name: c.name, kind: c.kind, enabled: !config.disabledChannelIds.includes(c.id) })),
      businessHours: config.businessHours,
      outsideHours: config.outsideHours,
      greetingText: config.greetingText,
      handoffText: config.handoffText,
      fallbackText: config.fallbackText,
      awayText: config.awayText,
      engine: config.engine,
      llmModel: config.llmModel,
      llmBaseUrl: config.llmBaseUrl,
      hasLlmApiKey: Boolean(row?.llmApiKeySealed),
      training,
      stats,
      updatedAt: iso(row?.updatedAt),
    };
  }

  async #stats(clientId: string): Promise<AgentView['stats']> {
    const since = new Date(this.deps.clock.now().getTime() - 7 * 24 * 60 * 60_000);
    const row = await this.deps.db
      .selectFrom('messages')
      .select([
        sql<string>`count(*) filter (where ai->>'decision' = 'answer')`.as('replies'),
        sql<string>`count(*) filter (where ai->>'decision' = 'handoff')`.as('escalations'),
        sql<number | null>`avg(ai_confidence) filter (where ai->>'decision' = 'answer')`.as('confidence'),
      ])
      .where('clientId', '=', clientId)
      .where('senderType', '=', 'ai')
      .where('createdAt', '>=', since)
      .executeTakeFirstOrThrow();
    return {
      replies: Number(row.replies),
      escalations: Number(row.escalations),
      averageConfidence: row.confidence === null ? null : Number(row.confidence),
    };
  }

  async updateAgent(clientId: string, input: UpdateAgentInput): Promise<AgentView> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.#visibleClient(null, clientId, trx);
      if (input.disabledChannelIds?.length) {
        const owned = await trx.selectFrom('channels').select('id').where('clientId', '=', clientId).where('id', 'in', input.disabledChannelIds).execute();
        if (owned.length !== new Set(input.disabledChannelIds).size) {
          throw new AppError('VALIDATION_ERROR', 'Unknown channel', { fields: { disabledChannelIds: "Only this client's channels can be switched off" } });
        }
      }
      const current = this.#config(clientId, await trx.selectFrom('agents').selectAll().where('clientId', '=', clientId).forUpdate().executeTakeFirst());
      const next = { ...current, ...withoutUndefined(input) };
      if (next.engine === 'openai-compatible' && !next.llmBaseUrl) {
        throw new AppError('VALIDATION_ERROR', 'Base URL is required', { fields: { llmBaseUrl: 'An OpenAI-compatible server needs its base URL' } });
      }
      const refused = input.llmBaseUrl ? this.deps.checkOutboundUrl(input.llmBaseUrl) : null;
      if (refused) {
        const message = `${refused}. Enter a public address, or ask the operator to allow this host in OUTBOUND_ALLOWED_HOSTS.`;
        throw new AppError('VALIDATION_ERROR', refused, { fields: { llmBaseUrl: message } });
      }
      const apiKeySealed =
        input.llmApiKey === undefined
          ? current.llmApiKey === null
            ? null
            : this.deps.secretBox.seal(current.llmApiKey)
          : input.llmApiKey === null
            ? null
            : this.deps.secretBox.seal(input.llmApiKey);
      const values = {
        name: next.name,
        description: next.description,
        enabled: next.enabled,
        confidenceThreshold: next.confidenceThreshold,
        escalationEnabled: next.escalationEnabled,
        responseDelaySeconds: next.responseDelaySeconds,
        disabledChannelIds: JSON.stringify([...new Set(next.disabledChannelIds)]),
        businessHours: next.businessHours ? JSON.stringify(next.businessHours) : null,
        outsideHours: next.outsideHours,
        greetingText: next.greetingText,
        handoffText: next.handoffText,
        fallbackText: next.fallbackText,
        awayText: next.awayText,
        engine: next.engine,
        llmModel: next.llmModel,
        llmBaseUrl: next.llmBaseUrl,
        llmApiKeySealed: apiKeySealed,
        updatedAt: this.deps.clock.now(),
      };
      await trx
        .insertInto('agents')
        .values({ clientId, ...values })
        .onConflict((oc) => oc.column('clientId').doUpdateSet(values))
        .execute();
    });
    return this.#view(clientId);
  }

  // Knowledge base -------------------------------------------------------------------------------

  async training(clientId: string, db: Db = this.deps.db): Promise<TrainingView> {
    const kb = await db.selectFrom('knowledgeBases').selectAll().where('clientId', '=', clientId).executeTakeFirst();
    const metrics = kb?.liveVersion
      ? await db.selectFrom('agentModels').select('metrics').where('clientId', '=', clientId).where('version', '=', kb.liveVersion).executeTakeFirst()
      : undefined;
    return trainingView(kb, metrics?.metrics ?? null);
  }

  async getKnowledge(user: SessionUser, clientId: string, search?: string): Promise<KnowledgeView> {
    await this.#visibleClient(user, clientId);
    const db = this.deps.db;
    let entries = db.selectFrom('knowledgeEntries').selectAll().where('clientId', '=', clientId);
    let articles = db.selectFrom('knowledgeArticles').selectAll().where('clientId', '=', clientId);
    if (search) {
      const like = `%${search.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
      entries = entries.where((eb) => eb.or([eb('answer', 'ilike', like), eb(sql`questions::text`, 'ilike', like), eb('link', 'ilike', like)]));
      articles = articles.where((eb) => eb.or([eb('title', 'ilike', like), eb('body', 'ilike', like)]));
    }
    const [entryRows, articleRows, totals, training] = await Promise.all([
      entries.orderBy('createdAt').orderBy('id').execute(),
      articles.orderBy('createdAt').orderBy('id').execute(),
      db
        .selectFrom('clients')
        .select((eb) => [
          eb.selectFrom('knowledgeEntries').select(sql<string>`count(*)`.as('n')).where('clientId', '=', clientId).as('entries'),
          eb.selectFrom('knowledgeArticles').select(sql<string>`count(*)`.as('n')).where('clientId', '=', clientId).as('articles'),
        ])
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow(),
      this.training(clientId),
    ]);
    return {
      entries: entryRows.map(entryView),
      articles: articleRows.map(articleView),
      totals: { entries: Number(totals.entries ?? 0), articles: Number(totals.articles ?? 0) },
      training,
    };
  }

  async createEntry(clientId: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.deps.db.transaction().execute(async (trx) => {
      await this.#visibleClient(null, clientId, trx);
      const row = await trx
        .insertInto('knowledgeEntries')
        .values({ clientId, questions: JSON.stringify(dedupe(input.questions)), answer: input.answer, link: input.link ?? null, createdAt: this.deps.clock.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.#changed(trx, clientId);
      return entryView(row);
    });
  }

  async updateEntry(id: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('knowledgeEntries')
        .set({ questions: JSON.stringify(dedupe(input.questions)), answer: input.answer, link: input.link ?? null, updatedAt: this.deps.clock.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Knowledge entry');
      await this.#changed(trx, row.clientId);
      return entryView(row);
    });
  }

  async deleteEntry(id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('knowledgeEntries').where('id', '=', id).returning('clientId').executeTakeFirst();
      if (!row) throw notFound('Knowledge entry');
      await this.#changed(trx, row.clientId);
    });
  }

  async createArticle(clientId: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.deps.db.transaction().execute(async (trx) => {
      await this.#visibleClient(null, clientId, trx);
      const row = await trx
        .insertInto('knowledgeArticles')
        .values({ clientId, title: input.title, body: input.body, createdAt: this.deps.clock.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.#changed(trx, clientId);
      return articleView(row);
    });
  }

  async updateArticle(id: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('knowledgeArticles')
        .set({ title: input.title, body: input.body, updatedAt: this.deps.clock.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Knowledge article');
      await this.#changed(trx, row.clientId);
      return articleView(row);
    });
  }

  async deleteArticle(id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('knowledgeArticles').where('id', '=', id).returning('clientId').executeTakeFirst();
      if (!row) throw notFound('Knowledge article');
      await this.#changed(trx, row.clientId);
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
      await this.#visibleClient(null, clientId, trx);
      if (input.mode === 'replace') await trx.deleteFrom('knowledgeEntries').where('clientId', '=', clientId).execute();
      const now = this.deps.clock.now();
      // One statement per few hundred rows; created_at steps by a millisecond (ending now) to keep the file's order.
      for (let i = 0; i < parsed.length; i += 500) {
        await trx
          .insertInto('knowledgeEntries')
          .values(
            parsed.slice(i, i + 500).map((e, j) => ({
              clientId,
              questions: JSON.stringify(dedupe(e.questions)),
              answer: e.answer,
              link: e.link,
              createdAt: new Date(now.getTime() - parsed.length + i + j + 1),
            })),
          )
          .execute();
      }
      const version = await this.#changed(trx, clientId);
      return { entries: parsed.length, questions: parsed.reduce((n, e) => n + dedupe(e.questions).length, 0), version };
    });
  }

  async exportKnowledge(user: SessionUser, clientId: string, format: 'csv' | 'json'): Promise<{ filename: string; contentType: string; body: string }> {
    const name = await this.#visibleClient(user, clientId);
    const rows = await this.deps.db.selectFrom('knowledgeEntries').selectAll().where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute();
    const entries = rows.map((r) => ({ questions: r.questions, answer: r.answer, link: r.link }));
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'client';
    return format === 'csv'
      ? { filename: `${slug}-knowledge.csv`, contentType: 'text/csv; charset=utf-8', body: knowledgeToCsv(entries) }
      : { filename: `${slug}-knowledge.json`, contentType: 'application/json; charset=utf-8', body: knowledgeToJson(entries) };
  }

  /** A new knowledge version, and training queued for it (in the caller's transaction). */
  async #changed(trx: Db, clientId: string): Promise<number> {
    const now = this.deps.clock.now();
    const row = await trx
      .insertInto('knowledgeBases')
      .values({ clientId, version: 1, trainingStatus: 'queued', trainingProgress: 0, updatedAt: now })
      .onConflict((oc) =>
        oc.column('clientId').doUpdateSet({
          version: sql`knowledge_bases.version + 1`,
          trainingStatus: sql`case when knowledge_bases.training_status = 'training' then 'training' else 'queued' end`,
          trainingError: null,
          updatedAt: now,
        }),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    await this.deps.queue.enqueue(trainAgentJob, { clientId, version: row.version }, { db: trx, singletonKey: `${clientId}:${row.version}` });
    return row.version;
  }

  /**
   * The demo client's agent (the website widget on the marketing site): its knowledge base from
   * the site's content, switched on and trained — once; an admin's later changes are kept.
   */
  async ensureDemoAgent(widgetId: string, publicUrl: string): Promise<void> {
    const channel = await this.deps.db.selectFrom('channels').select('clientId').where('kind', '=', 'webchat').where('externalId', '=', widgetId).executeTakeFirst();
    if (!channel) return;
    const seeded = await this.deps.db.selectFrom('knowledgeBases').select('clientId').where('clientId', '=', channel.clientId).executeTakeFirst();
    if (seeded) return;
    const { version } = await this.importKnowledge(channel.clientId, { format: 'json', content: JSON.stringify(DEMO_KNOWLEDGE.map((e) => ({ ...e, link: e.link ? new URL(e.link, publicUrl).toString() : null }))), mode: 'replace' });
    await this.updateAgent(channel.clientId, { enabled: true, name: 'Parley Assistant', description: "Answers questions about Parley's services, plans and hours." });
    await this.train(channel.clientId, version);
  }

  // Training -------------------------------------------------------------------------------------

  /**
   * Trains knowledge version `version` if it is still the newest and not live yet. A job for an
   * older version returns at once: the job of the newest version (enqueued by the edit that made
   * it) trains instead. The live version only ever moves forward.
   */
  async train(clientId: string, version: number): Promise<void> {
    const kb = await this.deps.db.selectFrom('knowledgeBases').selectAll().where('clientId', '=', clientId).executeTakeFirst();
    if (!kb || kb.version !== version || (kb.liveVersion ?? 0) >= version) return;
    const [entries, articles] = await Promise.all([
      this.deps.db.selectFrom('knowledgeEntries').select(['id', 'questions', 'answer', 'link']).where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute(),
      this.deps.db.selectFrom('knowledgeArticles').select(['id', 'title', 'body']).where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute(),
    ]);
    const stillNewest = (trx: Db) =>
      trx.updateTable('knowledgeBases').where('clientId', '=', clientId).where('version', '=', version);
    await stillNewest(this.deps.db).set({ trainingStatus: 'training', trainingProgress: 0, trainingError: null }).execute();
    const started = performance.now();
    let lastWrite = 0;
    let result: { model: unknown; accuracy: number | null };
    try {
      result = await this.deps.trainer.train(entries, (fraction) => {
        const now = performance.now();
        if (now - lastWrite < 250) return;
        lastWrite = now;
        void stillNewest(this.deps.db)
          .set({ trainingProgress: Math.min(0.99, Math.max(0, fraction)) })
          .execute()
          .catch(() => undefined);
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await stillNewest(this.deps.db).set({ trainingStatus: 'failed', trainingError: message.slice(0, 500) }).execute();
      throw new PermanentJobError(`Training failed: ${message}`, { cause: error });
    }
    const metrics: AgentModelMetrics = {
      entries: entries.length,
      examples: entries.reduce((n, e) => n + e.questions.length, 0),
      trainingMs: Math.round(performance.now() - started),
      accuracy: result.accuracy,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('agentModels')
        .values({ clientId, version, knowledge: JSON.stringify({ entries, articles }), model: JSON.stringify(result.model ?? null), metrics: JSON.stringify(metrics) })
        .onConflict((oc) => oc.columns(['clientId', 'version']).doNothing())
        .execute();
      await trx
        .updateTable('knowledgeBases')
        .set({
          liveVersion: sql`greatest(coalesce(live_version, 0), ${version}::integer)`,
          liveAt: sql`case when coalesce(live_version, 0) < ${version}::integer then ${this.deps.clock.now()}::timestamptz else live_at end`,
          trainingProgress: sql`case when version = ${version}::integer then 1 else training_progress end`,
          trainingStatus: sql`case when version = ${version}::integer then 'idle' else training_status end`,
        })
        .where('clientId', '=', clientId)
        .execute();
      await trx.deleteFrom('agentModels').where('clientId', '=', clientId).where('version', '<', version - KEEP_OLD_MODELS).execute();
    });
  }

  /**
   * The live knowledge base (the trained version), cached per version; null before any training.
   * `liveVersion`: the caller already read it (saves a query).
   */
  async liveKnowledgeBase(clientId: string, liveVersion?: number): Promise<KnowledgeBase | null> {
    const kb = liveVersion !== undefined ? { liveVersion } : await this.deps.db.selectFrom('knowledgeBases').select('liveVersion').where('clientId', '=', clientId).executeTakeFirst();
    if (!kb?.liveVersion) return null;
    const key = `${clientId}:${kb.liveVersion}`;
    const cached = this.#models.get(key);
    if (cached) {
      this.#models.delete(key);
      this.#models.set(key, cached);
      return cached;
    }
    const row = await this.deps.db
      .selectFrom('agentModels')
      .select(['knowledge', 'model', 'version'])
      .where('clientId', '=', clientId)
      .where('version', '=', kb.liveVersion)
      .executeTakeFirst();
    if (!row) return null;
    const value: KnowledgeBase = { version: row.version, entries: row.knowledge.entries, articles: row.knowledge.articles, model: row.model };
    this.#models.set(key, value);
    while (this.#models.size > MODEL_CACHE_SIZE) this.#models.delete(this.#models.keys().next().value as string);
    return value;
  }
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
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
