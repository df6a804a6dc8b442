/**
 * The conversation policy (issue 4 §4): what the AI agent does with a customer's message.
 *
 *  message.created (inbound, customer) ──tx──▶ agents.inbound job (at once)
 *        sentiment, priority; typing indicator; agents.reply job at receivedAt + response delay
 *  agents.reply ──▶ still AI-handled, still the newest customer message, nobody answered it,
 *        24-hour window open, business hours ─▶ engine.answer ─▶ answer | hand-off | fallback
 *
 * The agent only ever reacts to customers' messages, so it never answers itself or a person. A
 * job that runs twice (a crash after sending) finds the reply already there and does nothing.
 */
import { contactLabel } from '../../../common/messaging/contact-label';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { AiMessageInfo, ChannelKind, ChannelStatus, ConversationStatus, HandledBy, Priority, SenderType } from '../../db/schema';
import type { EventBus } from '../../events/event-bus';
import { hintOf, type JobCompletion } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { type EmailService, escalationEmail } from '../email';
import type { ClientsService } from '../clients';
import type { MessagingService } from '../messaging';
import type { UsersService } from '../users';
import type { NotificationsService } from '../notifications';
import { agentInboundJob, agentReplyJob } from './agent-jobs';
import { AgentsRepository } from './agents.repository';
import type { AgentConfig, AgentRowFields, AgentsService } from './agents.service';
import type { AgentAnswer, AnswerEngine, ConversationTurn, KnowledgeBase } from './engines/answer-engine';
import type { ConversationSummarizer } from './engines/llm/summary';
import { asksForPerson, extractiveSummary, isGreeting, messageSummary, withinBusinessHours } from './intelligence';
import { tryOutcome } from './try-result';

export type EngineFor = (config: AgentConfig) => AnswerEngine;
/** The LLM that summarises the agent's conversations; null for the embedded engine (extractive summaries). */
export type SummarizerFor = (config: AgentConfig) => ConversationSummarizer | null;

export interface AgentPolicyDeps {
  db: Db;
  events: EventBus;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  agents: AgentsService;
  messaging: MessagingService;
  users: UsersService;
  clients: ClientsService;
  notifications: NotificationsService;
  emails: EmailService;
  engineFor: EngineFor;
  summarizerFor: SummarizerFor;
  publicUrl: string;
  /** Shows "typing…" where the channel has it (best effort; failures are only logged). */
  typing?: (input: { channelId: string; contactExternalId: string; inboundExternalId: string | null }) => Promise<void>;
}

export type Decision = AiMessageInfo['decision'];

/** What the policy does with an engine's answer at the agent's settings. */
export function decide(answer: Pick<AgentAnswer, 'confidence' | 'action'>, config: Pick<AgentConfig, 'confidenceThreshold' | 'escalationEnabled'>, customerText: string): Decision {
  const wantsPerson = answer.action === 'escalate' || asksForPerson(customerText);
  if (!wantsPerson && answer.confidence >= config.confidenceThreshold) return 'answer';
  return config.escalationEnabled ? 'handoff' : 'fallback';
}

const EMPTY_KB: KnowledgeBase = { version: 0, entries: [], articles: [], model: null };
const HISTORY = 10;
const AWAY_REPEAT_MS = 12 * 60 * 60_000;
/** The hand-off's reason while the client's automation is paused. */
export const PAUSED_HANDOFF_REASON = 'the business paused its automation';

/**
 * Everything the policy needs about one customer message (`parley_agent_context`, agents.sql.ts):
 * the message, its conversation, channel, contact and client, the client's agent and live
 * knowledge version, whether a newer customer message or an answer exists, and the
 * conversation's recent messages.
 */
export interface InboundContext {
  id: string;
  content: string;
  createdAt: Date;
  externalMessageId: string | null;
  conversationId: string;
  clientId: string;
  channelId: string;
  priority: Priority;
  status: ConversationStatus;
  handledBy: HandledBy;
  lastInboundAt: Date | null;
  kind: ChannelKind;
  channelStatus: ChannelStatus;
  contactExternalId: string;
  contactName: string | null;
  companyName: string;
  liveVersion: number | null;
  agent: AgentRowFields | null;
  /** The client paused its automation (docs/client-dashboard.md): the agent does not answer. */
  automationPaused: boolean;
  superseded: boolean;
  /** Newest first. */
  recent: { senderType: SenderType; content: string; createdAt: Date }[];
}

type ContextJson = Omit<InboundContext, 'createdAt' | 'lastInboundAt' | 'recent'> & {
  createdAt: string;
  lastInboundAt: string | null;
  recent: { senderType: SenderType; content: string; createdAt: string }[];
};

/** The function's JSON (keys camelCased by Kysely's plugin, or already camelCase) with real dates. */
export function contextFromJson(json: unknown): InboundContext | undefined {
  if (json === null || typeof json !== 'object') return undefined;
  const c = json as ContextJson;
  return {
    ...c,
    automationPaused: c.automationPaused === true,
    createdAt: new Date(c.createdAt),
    lastInboundAt: c.lastInboundAt ? new Date(c.lastInboundAt) : null,
    recent: c.recent.map((r) => ({ senderType: r.senderType, content: r.content, createdAt: new Date(r.createdAt) })),
  };
}

type InboundRow = InboundContext;

/** The conversation's recent messages, oldest first. */
function recentOf(row: InboundRow): { senderType: SenderType; content: string; createdAt: Date }[] {
  return [...row.recent].reverse();
}

export class AgentPolicy {
  readonly #logger: Logger;
  readonly #repository: AgentsRepository;

  constructor(private readonly deps: AgentPolicyDeps) {
    this.#logger = deps.logger.child({ component: 'agent' });
    this.#repository = new AgentsRepository(deps.db);
  }

  async #loadInbound(messageId: string): Promise<InboundContext | undefined> {
    return contextFromJson(await this.#repository.agentContext(messageId));
  }

  /** Subscribes to customers' messages and registers the jobs. */
  register(): void {
    this.deps.events.subscribe({ event: 'message.created', where: { direction: 'inbound', senderType: 'customer' }, job: agentInboundJob, keys: ['messageId'] });
    this.deps.queue.register(agentInboundJob, async ({ messageId }, ctx) => {
      // Claimed where the message was stored, the job comes with its context (read in that transaction).
      const hinted = contextFromJson(hintOf(ctx));
      if (await this.onInbound(messageId, ctx.completion, hinted?.id === messageId ? hinted : undefined)) ctx.completedInline();
    });
    this.deps.queue.register(agentReplyJob, async ({ messageId }, ctx) => {
      if (await this.reply(messageId, ctx.completion)) ctx.completedInline();
    });
  }

  /**
   * Every customer message (sentiment and priority were recorded with it): the reply — at once
   * when the agent answers without delay, else scheduled after the response delay — or, when no
   * reply is coming, the conversation's new summary. Resolves true when its last statement also
   * completed the job (`completion`).
   */
  async onInbound(messageId: string, completion?: JobCompletion, context?: InboundContext): Promise<boolean> {
    const message = context ?? (await this.#loadInbound(messageId));
    if (!message) return false;
    const config = this.deps.agents.configFromRow(message.clientId, message.agent ?? undefined);
    if (!this.#mayAnswer(config, message)) {
      // The LLM summarises only when no reply is coming; otherwise the reply does, after it was sent.
      return this.#summarise(message, config, completion);
    }
    if (message.automationPaused) return this.#whilePaused(message, config, completion);
    if (config.responseDelaySeconds === 0) return this.#reply(message, config, completion);
    const dueAt = new Date(message.createdAt.getTime() + config.responseDelaySeconds * 1000);
    if (this.deps.typing) {
      await this.deps
        .typing({ channelId: message.channelId, contactExternalId: message.contactExternalId, inboundExternalId: message.externalMessageId })
        .catch((error: unknown) => this.#logger.info({ err: error, channelId: message.channelId }, 'typing indicator not shown'));
    }
    await this.deps.queue.enqueue(agentReplyJob, { messageId }, { runAt: dueAt, singletonKey: messageId });
    return false;
  }

  #mayAnswer(config: AgentConfig, message: { handledBy: string; status: string; channelId: string; channelStatus: string }): boolean {
    return (
      config.enabled &&
      message.handledBy === 'ai' &&
      message.status !== 'escalated' &&
      // A resolved conversation's customer message is the satisfaction survey's answer (any other
      // message reopens it): nothing to answer.
      message.status !== 'resolved' &&
      message.channelStatus === 'active' &&
      !config.disabledChannelIds.includes(message.channelId)
    );
  }

  /** The reply after the response delay, when it is still the agent's to give. */
  async reply(messageId: string, completion?: JobCompletion): Promise<boolean> {
    const message = await this.#loadInbound(messageId);
    if (!message) return false;
    const config = this.deps.agents.configFromRow(message.clientId, message.agent ?? undefined);
    if (!this.#mayAnswer(config, message)) return false;
    // Paused during the response delay: no answer either.
    if (message.automationPaused) return this.#whilePaused(message, config, completion);
    return this.#reply(message, config, completion);
  }

  /**
   * The client paused its automation (docs/client-dashboard.md): the agent does not answer. The
   * customer gets the away text (at most once in 12 hours, as outside business hours; not outside
   * the 24-hour window) and the conversation goes to people as a hand-off does — escalated, staff
   * told; then its summary, extractive (no LLM while paused).
   */
  async #whilePaused(message: InboundRow, config: AgentConfig, completion?: JobCompletion): Promise<boolean> {
    if (message.superseded) return false;
    const now = this.deps.clock.now();
    if (this.deps.messaging.windowOpen(message.kind, message.lastInboundAt, now)) await this.#sendAway(message, config, now);
    await this.#handOff(message, PAUSED_HANDOFF_REASON);
    return this.#summarise(await this.#reload(message), config, completion);
  }

  async #reply(message: InboundRow, config: AgentConfig, completion?: JobCompletion): Promise<boolean> {
    if (message.superseded) return false;
    const now = this.deps.clock.now();
    if (!this.deps.messaging.windowOpen(message.kind, message.lastInboundAt, now)) {
      this.#logger.info({ conversationId: message.conversationId }, 'not answering: the 24-hour window is closed');
      return false;
    }

    if (!withinBusinessHours(config.businessHours, now) && config.outsideHours === 'away') {
      await this.#away(message, config, now);
      return false;
    }

    const started = performance.now();
    const recent = recentOf(message);
    const turns: ConversationTurn[] = recent
      .filter((r) => r.senderType !== 'system')
      .slice(-HISTORY)
      .map((r) => ({ role: r.senderType as ConversationTurn['role'], text: r.content, at: r.createdAt }));
    const kb = (message.liveVersion ? await this.deps.agents.liveKnowledgeBase(message.clientId, message.liveVersion) : null) ?? EMPTY_KB;
    let answer: AgentAnswer;
    if (isGreeting(message.content)) {
      answer = { reply: config.greetingText, confidence: 1, sources: [], action: 'answer', engine: config.engine, model: 'greeting', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } };
    } else {
      answer = await this.deps.engineFor(config).answer(
        { conversationId: message.conversationId, turns, businessName: message.companyName, agentName: config.name, agentDescription: config.description },
        kb,
      );
    }
    const greeting = answer.model === 'greeting';
    const decision: Decision = greeting ? 'greeting' : decide(answer, config, message.content);
    const info: AiMessageInfo = {
      engine: answer.engine,
      model: answer.model,
      decision,
      confidence: answer.confidence,
      sources: answer.sources.map((s) => ({ ...s })),
      latencyMs: Math.round(performance.now() - started),
      usage: answer.usage,
      ...(answer.fallbackReason ? { fallbackReason: answer.fallbackReason } : {}),
      knowledgeVersion: kb.version || null,
    };
    const text = decision === 'answer' || decision === 'greeting' ? answer.reply : decision === 'handoff' ? config.handoffText : config.fallbackText;
    const top = answer.sources[0];
    const handoff = decision === 'handoff';
    const summarizer = this.deps.summarizerFor(config);
    // Without an LLM the summary is extractive and goes out with the reply: the reply, its
    // summaries and (when nothing follows) the job done, in one round trip.
    const conversationSummary = summarizer
      ? null
      : this.#extractive([...recent, { senderType: 'ai', content: text, createdAt: now }], handoff || message.status === 'escalated');
    const sent = await this.deps.messaging.sendAgentReply(
      message.conversationId,
      message.id,
      { text, senderType: 'ai', senderId: null, aiConfidence: clamp01(answer.confidence), ai: info },
      {
        conversationSummary,
        // The topic is named only when the agent answered from it; a hand-off quotes the customer.
        inboundSummary: { messageId: message.id, aiSummary: messageSummary(message.content, top && decision === 'answer' ? { title: top.title, confidence: answer.confidence } : null) },
        ...(completion && !handoff && !summarizer ? { completeJob: completion } : {}),
      },
    );
    // A newer message (or a person) came first: its own job answers.
    if (!sent) return completion !== undefined && !handoff && !summarizer;
    if (handoff) {
      const asked = asksForPerson(message.content) || answer.action === 'escalate';
      await this.#handOff(
        message,
        asked ? 'the customer asked for a person' : `the AI was not confident enough (${Math.round(clamp01(answer.confidence) * 100)}%)`,
        asked ? 'escalations' : 'lowConfidence',
      );
    }
    if (summarizer) return this.#summarise(await this.#reload(message), config, completion);
    return completion !== undefined && !handoff;
  }

  /** The message again, after the agent changed its conversation. */
  async #reload(message: InboundRow): Promise<InboundRow> {
    return (await this.#loadInbound(message.id)) ?? message;
  }

  /** What the agent would answer to `text` now, and what the policy would do with it (the "Try the agent" box). */
  async tryAnswer(clientId: string, text: string) {
    const companyName = await this.deps.clients.findCompanyName(clientId);
    if (companyName === undefined) throw notFound('Client');
    const config = await this.deps.agents.getConfig(clientId);
    const kb = (await this.deps.agents.liveKnowledgeBase(clientId)) ?? EMPTY_KB;
    const started = performance.now();
    const answer = await this.deps.engineFor(config).answer(
      { conversationId: 'try', turns: [{ role: 'customer', text, at: this.deps.clock.now() }], businessName: companyName, agentName: config.name, agentDescription: config.description },
      kb,
    );
    const decided = decide(answer, config, text);
    const decision = decided === 'answer' ? ('answer' as const) : decided === 'handoff' ? ('handoff' as const) : ('fallback' as const);
    // What the customer would receive, as #reply sends it (a greeting gets the greeting text).
    const outcome = tryOutcome(answer, isGreeting(text) ? 'greeting' : decision, config, asksForPerson(text));
    return {
      ...outcome,
      reply: answer.reply,
      confidence: clamp01(answer.confidence),
      action: answer.action,
      decision,
      sources: answer.sources.map((s) => ({ kind: s.kind, id: s.id, title: s.title, link: s.link ?? null })),
      engine: answer.engine,
      latencyMs: Math.round(performance.now() - started),
    };
  }

  async #away(message: InboundRow, config: AgentConfig, now: Date): Promise<void> {
    await this.#sendAway(message, config, now);
    await this.deps.messaging.markAway({ conversationId: message.conversationId, clientId: message.clientId }, { kind: 'ai' }, now);
  }

  /** The away text, unless the agent sent it in this conversation in the last 12 hours. */
  async #sendAway(message: InboundRow, config: AgentConfig, now: Date): Promise<void> {
    if (!(await this.deps.messaging.aiDecidedSince(message.conversationId, 'away', new Date(now.getTime() - AWAY_REPEAT_MS)))) {
      const info: AiMessageInfo = {
        engine: config.engine,
        model: 'away',
        decision: 'away',
        confidence: null,
        sources: [],
        latencyMs: 0,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        knowledgeVersion: null,
      };
      await this.deps.messaging.sendMessage(message.conversationId, { text: config.awayText, senderType: 'ai', senderId: null, ai: info }, { kind: 'ai' });
    }
  }

  /** Escalated: people handle it now, at high priority; staff are told in the app (and by e-mail if they want). */
  /**
   * `preference`: the administrators' switch that decides whether they are told (Admin Settings →
   * Notifications, docs/admin-settings.md): `lowConfidence` for a hand-off below the confidence
   * threshold, `escalations` for every other. An administrator who turned it off gets neither the
   * notification nor the e-mail; one who keeps it gets the e-mail when they take e-mail
   * notifications. Managers are told as before (their e-mail also needs Message Alerts).
   */
  async #handOff(message: InboundRow, reason: string, preference: 'escalations' | 'lowConfidence' = 'escalations'): Promise<void> {
    const now = this.deps.clock.now();
    const contact = contactLabel({ name: message.contactName, externalId: message.contactExternalId }, message.kind);
    const link = `/conversations?conversation=${message.conversationId}`;
    const excerpt = message.content.length > 200 ? `${message.content.slice(0, 199)}…` : message.content;
    // The reason is recorded with the hand-off: the thread and the list show why it was escalated.
    const conversation = { conversationId: message.conversationId, clientId: message.clientId, messageId: message.id, reason };
    await this.deps.messaging.escalate(conversation, { kind: 'ai' }, async (trx) => {
      const staff = await this.deps.users.findRecipients({}, trx);
      for (const user of staff) {
        const prefs = user.notificationPreferences;
        const admin = user.role === 'admin';
        if (admin && !prefs[preference]) continue;
        await this.deps.notifications.notify(
          user.id,
          { kind: 'conversation.escalated', title: `Escalated: ${contact} (${message.companyName})`.slice(0, 200), body: `${reason}: “${excerpt}”`, link },
          trx,
        );
        if (admin ? prefs.emailNotifications : prefs.emailNotifications && prefs.messageAlerts) {
          await this.deps.emails.send(
            user.email,
            escalationEmail(user.fullName || 'there', { clientName: message.companyName, contactName: contact, reason, excerpt, url: new URL(link, this.deps.publicUrl).toString() }),
            { db: trx },
          );
        }
      }
    }, now);
  }

  #extractive(recent: readonly { senderType: SenderType; content: string }[], escalated: boolean): string {
    const turns = recent.map((r) => ({ role: r.senderType, text: r.content }));
    return extractiveSummary(turns, {
      escalated,
      aiReplies: turns.filter((t) => t.role === 'ai').length,
      agentReplies: turns.filter((t) => t.role === 'agent').length,
    });
  }

  /**
   * The conversation's summary: the LLM's when the agent is on with an LLM engine, else (and
   * whenever the LLM fails) extractive from its recent messages. Resolves true when the same
   * statement completed the job (`completion`).
   */
  async #summarise(message: InboundRow, config: AgentConfig, completion?: JobCompletion): Promise<boolean> {
    const recent = recentOf(message);
    // No LLM while the client's automation is paused.
    const summarizer = config.enabled && !message.automationPaused ? this.deps.summarizerFor(config) : null;
    const llm = summarizer
      ? await summarizer
          .summarize({ conversationId: message.conversationId, turns: recent.map((r) => ({ role: r.senderType, text: r.content })), status: message.status })
          .catch((error: unknown) => {
            this.#logger.warn({ err: error, conversationId: message.conversationId }, 'LLM summary failed');
            return null;
          })
      : null;
    if (llm) this.#logger.debug({ conversationId: message.conversationId, usage: llm.usage }, 'conversation summarised by the LLM');
    const summary = llm?.summary ?? this.#extractive(recent, message.status === 'escalated');
    await this.deps.messaging.setConversationSummary(message.conversationId, summary, { kind: 'ai' }, completion);
    return completion !== undefined;
  }
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
