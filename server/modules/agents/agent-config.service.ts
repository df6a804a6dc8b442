/**
 * An agent's configuration per client (one agent per client; defaults until an admin changes it)
 * and the agent as the API shows it. Reading is scoped: staff see every client, a client user only
 * their own (another client's id answers 404).
 */
import {
  DEFAULT_AGENT_TEXTS,
  DEFAULT_CONFIDENCE_THRESHOLD,
  DEFAULT_LLM_MODE,
  DEFAULT_RESPONSE_DELAY_SECONDS,
  type AgentStats,
  type AgentView,
  type TrainingView,
  type UpdateAgentInput,
} from '../../../common/api/agents';
import { DEFAULT_SURVEY_QUESTION } from '../../../common/messaging/satisfaction';
import type { Db } from '../../db/database';
import type { Agent } from '../../db/schema';
import type { SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { AgentsRepository } from './agents.repository';

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
  /** With an LLM engine: embedded first (the LLM only below the threshold), or the LLM for every question. */
  llmMode: Agent['llmMode'];
  llmModel: string | null;
  llmBaseUrl: string | null;
  llmApiKey: string | null;
  /** Ask customers for a 1–5 rating when a conversation is resolved (docs/satisfaction.md). */
  csatEnabled: boolean;
  /** The rating request's question. */
  csatQuestion: string;
}

export const DEFAULT_AGENT_NAME = 'AI Assistant';

/** The columns of an `agents` row the configuration is made of. */
export type AgentRowFields = Omit<Agent, 'id' | 'clientId' | 'createdAt' | 'updatedAt'>;

export const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const NO_CLIENT = '00000000-0000-0000-0000-000000000000';

/** The client's name, if `user` may see it; 404 otherwise (also for another client's id). */
export async function visibleClient(repo: AgentsRepository, user: SessionUser | null, clientId: string, db?: Db): Promise<string> {
  if (user && user.role === 'client' && (user.clientId ?? NO_CLIENT) !== clientId) throw notFound('Client');
  const name = await repo.clientName(clientId, db);
  if (name === undefined) throw notFound('Client');
  return name;
}

export interface AgentConfigDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  agents: AgentsRepository;
  /** The client's training state (shown with the agent). */
  training(clientId: string): Promise<TrainingView>;
  /**
   * Why an LLM base URL may not be saved (this server, a private or metadata address given as an
   * IP literal or `localhost`; server/lib/guarded-http.ts), or null. The connection is checked again.
   */
  checkOutboundUrl(url: string): string | null;
}

export class AgentConfigService {
  constructor(private readonly deps: AgentConfigDeps) {}

  async getConfig(clientId: string, db: Db = this.deps.db): Promise<AgentConfig> {
    return this.configFromRow(clientId, await this.deps.agents.findAgent(clientId, db));
  }

  /** The configuration from an `agents` row the caller loaded (the defaults when there is none). */
  configFromRow(clientId: string, row: AgentRowFields | undefined): AgentConfig {
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
        llmMode: DEFAULT_LLM_MODE,
        llmModel: null,
        llmBaseUrl: null,
        llmApiKey: null,
        csatEnabled: true,
        csatQuestion: DEFAULT_SURVEY_QUESTION,
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
      llmMode: row.llmMode,
      llmModel: row.llmModel,
      llmBaseUrl: row.llmBaseUrl,
      llmApiKey: row.llmApiKeySealed ? this.deps.secretBox.open(row.llmApiKeySealed) : null,
      csatEnabled: row.csatEnabled,
      csatQuestion: row.csatQuestion ?? DEFAULT_SURVEY_QUESTION,
    };
  }

  async findAgents(user: SessionUser): Promise<AgentView[]> {
    const ids = await this.deps.agents.clientIds(user.role === 'client' ? (user.clientId ?? NO_CLIENT) : undefined);
    return Promise.all(ids.map((id) => this.#view(id)));
  }

  async getAgent(user: SessionUser | null, clientId: string): Promise<AgentView> {
    await visibleClient(this.deps.agents, user, clientId);
    return this.#view(clientId);
  }

  async #view(clientId: string): Promise<AgentView> {
    const repo = this.deps.agents;
    const since = new Date(this.deps.clock.now().getTime() - 7 * 24 * 60 * 60_000);
    const [client, row, channels, training, stats] = await Promise.all([
      repo.getClientHeader(clientId),
      repo.findAgent(clientId),
      repo.channels(clientId),
      this.deps.training(clientId),
      repo.replyStats(clientId, since),
    ]);
    const config = this.configFromRow(clientId, row);
    return {
      clientId,
      clientName: client.companyName,
      automationPausedAt: iso(client.automationPausedAt),
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
      llmMode: config.llmMode,
      llmModel: config.llmModel,
      llmBaseUrl: config.llmBaseUrl,
      hasLlmApiKey: Boolean(row?.llmApiKeySealed),
      csatEnabled: config.csatEnabled,
      csatQuestion: config.csatQuestion,
      training,
      stats,
      updatedAt: iso(row?.updatedAt),
    };
  }

  /** The agent's answers by engine, hand-offs and LLM cost over the last `days` days (see `agentStats` in common/api/agents.ts). */
  async agentStats(user: SessionUser | null, clientId: string, days: number): Promise<AgentStats> {
    await visibleClient(this.deps.agents, user, clientId);
    const since = new Date(this.deps.clock.now().getTime() - days * 24 * 60 * 60_000);
    const stats = await this.deps.agents.engineStats(clientId, since);
    return {
      clientId,
      days,
      since: since.toISOString(),
      ...stats,
      costPerAutomatedResolutionUsd: stats.automatedResolutions > 0 ? stats.llmCostUsd / stats.automatedResolutions : null,
    };
  }

  async updateAgent(clientId: string, input: UpdateAgentInput): Promise<AgentView> {
    await this.deps.db.transaction().execute((trx) => this.updateAgentIn(trx, clientId, input));
    return this.#view(clientId);
  }

  /** `updateAgent` inside the caller's transaction `trx` (an approved onboarding request sets up the new client's agent). */
  async updateAgentIn(trx: Db, clientId: string, input: UpdateAgentInput): Promise<void> {
    const repo = this.deps.agents;
    await visibleClient(repo, null, clientId, trx);
    if (input.disabledChannelIds?.length) {
      const owned = await repo.countOwnedChannels(clientId, input.disabledChannelIds, trx);
      if (owned !== new Set(input.disabledChannelIds).size) {
        throw new AppError('VALIDATION_ERROR', 'Unknown channel', { fields: { disabledChannelIds: "Only this client's channels can be switched off" } });
      }
    }
    const current = this.configFromRow(clientId, await repo.findAgentForUpdate(clientId, trx));
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
    await repo.upsertAgent(
      clientId,
      {
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
        llmMode: next.llmMode,
        llmModel: next.llmModel,
        llmBaseUrl: next.llmBaseUrl,
        llmApiKeySealed: apiKeySealed,
        csatEnabled: next.csatEnabled,
        csatQuestion: next.csatQuestion === DEFAULT_SURVEY_QUESTION ? null : next.csatQuestion,
        updatedAt: this.deps.clock.now(),
      },
      trx,
    );
  }
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
