/**
 * AI agents: the configuration per client (agent-config.service.ts), the client's knowledge base
 * (knowledge.service.ts) and its training (agent-training.service.ts); the SQL is in
 * agents.repository.ts and knowledge.repository.ts. This facade keeps one object for the routes,
 * the CLI, the policy and the jobs, and seeds the demo agent (which needs all three).
 */
import type {
  AgentStats,
  AgentView,
  KnowledgeArticleInput,
  KnowledgeArticleView,
  KnowledgeEntryInput,
  KnowledgeEntryView,
  KnowledgeView,
  TrainingView,
  UpdateAgentInput,
} from '../../../common/api/agents';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { AgentConfigService, type AgentConfig, type AgentRowFields } from './agent-config.service';
import { AgentTrainingService, type KnowledgeTrainer } from './agent-training.service';
import { AgentsRepository } from './agents.repository';
import { DEMO_KNOWLEDGE } from './demo-knowledge';
import type { KnowledgeBase } from './engines/answer-engine';
import { KnowledgeRepository } from './knowledge.repository';
import { KnowledgeService } from './knowledge.service';

export { DEFAULT_AGENT_NAME, type AgentConfig, type AgentRowFields } from './agent-config.service';
export type { KnowledgeTrainer } from './agent-training.service';
export { trainingView } from './knowledge.service';

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

export class AgentsService {
  readonly #agentsRepo: AgentsRepository;
  readonly #knowledgeRepo: KnowledgeRepository;
  readonly #config: AgentConfigService;
  readonly #knowledge: KnowledgeService;
  readonly #training: AgentTrainingService;

  constructor(deps: AgentsServiceDeps) {
    this.#agentsRepo = new AgentsRepository(deps.db);
    this.#knowledgeRepo = new KnowledgeRepository(deps.db);
    this.#knowledge = new KnowledgeService({ db: deps.db, queue: deps.queue, clock: deps.clock, agents: this.#agentsRepo, knowledge: this.#knowledgeRepo });
    this.#config = new AgentConfigService({
      db: deps.db,
      clock: deps.clock,
      secretBox: deps.secretBox,
      agents: this.#agentsRepo,
      training: (clientId) => this.#knowledge.training(clientId),
      checkOutboundUrl: (url) => deps.checkOutboundUrl(url),
    });
    this.#training = new AgentTrainingService({ clock: deps.clock, trainer: deps.trainer, knowledge: this.#knowledgeRepo });
  }

  // Configuration --------------------------------------------------------------------------------

  getConfig(clientId: string, db?: Db): Promise<AgentConfig> {
    return this.#config.getConfig(clientId, db);
  }

  /** The configuration from an `agents` row the caller loaded (the defaults when there is none). */
  configFromRow(clientId: string, row: AgentRowFields | undefined): AgentConfig {
    return this.#config.configFromRow(clientId, row);
  }

  findAgents(user: SessionUser): Promise<AgentView[]> {
    return this.#config.findAgents(user);
  }

  getAgent(user: SessionUser | null, clientId: string): Promise<AgentView> {
    return this.#config.getAgent(user, clientId);
  }

  updateAgent(clientId: string, input: UpdateAgentInput): Promise<AgentView> {
    return this.#config.updateAgent(clientId, input);
  }

  /** Changes the client's agent inside the caller's transaction `trx` (an approved onboarding request sets it up). */
  updateAgentIn(trx: Db, clientId: string, input: UpdateAgentInput): Promise<void> {
    return this.#config.updateAgentIn(trx, clientId, input);
  }

  /** Answers by engine, hand-offs and LLM cost over the last `days` days (scoped like getAgent). */
  agentStats(user: SessionUser | null, clientId: string, days: number): Promise<AgentStats> {
    return this.#config.agentStats(user, clientId, days);
  }

  // Knowledge base -------------------------------------------------------------------------------

  training(clientId: string, db?: Db): Promise<TrainingView> {
    return this.#knowledge.training(clientId, db);
  }

  getKnowledge(user: SessionUser, clientId: string, search?: string): Promise<KnowledgeView> {
    return this.#knowledge.getKnowledge(user, clientId, search);
  }

  createEntry(clientId: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.#knowledge.createEntry(clientId, input);
  }

  updateEntry(id: string, input: KnowledgeEntryInput): Promise<KnowledgeEntryView> {
    return this.#knowledge.updateEntry(id, input);
  }

  deleteEntry(id: string): Promise<void> {
    return this.#knowledge.deleteEntry(id);
  }

  createArticle(clientId: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.#knowledge.createArticle(clientId, input);
  }

  updateArticle(id: string, input: KnowledgeArticleInput): Promise<KnowledgeArticleView> {
    return this.#knowledge.updateArticle(id, input);
  }

  deleteArticle(id: string): Promise<void> {
    return this.#knowledge.deleteArticle(id);
  }

  importKnowledge(
    clientId: string,
    input: { format: 'csv' | 'json'; content: string; mode: 'replace' | 'append' },
  ): Promise<{ entries: number; questions: number; version: number }> {
    return this.#knowledge.importKnowledge(clientId, input);
  }

  exportKnowledge(user: SessionUser, clientId: string, format: 'csv' | 'json'): Promise<{ filename: string; contentType: string; body: string }> {
    return this.#knowledge.exportKnowledge(user, clientId, format);
  }

  /**
   * The demo client's agent (the website widget on the marketing site): its knowledge base from
   * the site's content, switched on and trained — once; an admin's later changes are kept.
   */
  async ensureDemoAgent(widgetId: string, publicUrl: string): Promise<void> {
    const clientId = await this.#agentsRepo.webchatClientId(widgetId);
    if (clientId === undefined) return;
    if (await this.#knowledgeRepo.hasBase(clientId)) return;
    const { version } = await this.importKnowledge(clientId, { format: 'json', content: JSON.stringify(DEMO_KNOWLEDGE.map((e) => ({ ...e, link: e.link ? new URL(e.link, publicUrl).toString() : null }))), mode: 'replace' });
    await this.updateAgent(clientId, { enabled: true, name: 'Parley Assistant', description: "Answers questions about Parley's services, plans and hours." });
    await this.train(clientId, version);
  }

  // Training -------------------------------------------------------------------------------------

  /** Trains knowledge version `version` if it is still the newest and not live yet (agent-training.service.ts). */
  train(clientId: string, version: number): Promise<void> {
    return this.#training.train(clientId, version);
  }

  /** The live knowledge base (the trained version), cached per version; null before any training. */
  liveKnowledgeBase(clientId: string, liveVersion?: number): Promise<KnowledgeBase | null> {
    return this.#training.liveKnowledgeBase(clientId, liveVersion);
  }
}
