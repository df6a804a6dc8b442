/**
 * The client dashboard (issue 17 §2; docs/client-dashboard.md): one business's header, five
 * figures and the daily series of the last 30 UTC days, its recent conversations and its
 * automation settings. Admins and managers read any client's; a client user only their own
 * (another id answers 404, as an unknown one does).
 *
 * Figures (the definitions the page states):
 * - total messages: every message written in the period (the customers', the AI's, people's);
 * - response rate and average response time: over the conversations started in the period, from
 *   the insights module's service levels (its daily rollups: answered / started, and the mean
 *   first response of the answered ones);
 * - leads generated: conversations that became leads in the period (`lead.qualified`), and the
 *   conversion rate the share of those the business marked as converted.
 *
 * The module owns no table: the reads are a view (client-dashboard.repository.ts), the plan comes
 * from onboarding (and billing), the service levels from insights, the agent's settings from agents and lead
 * qualification from clients, through the ports app.ts fills in.
 */
import { contactLabel } from '../../../common/messaging/contact-label';
import { sentimentLabel } from '../../../common/messaging/sentiment';
import type { BusinessHours } from '../../../common/api/agents';
import {
  type AutomationSettingsView,
  type ClientDashboardView,
  DASHBOARD_PERIOD_DAYS,
  type DashboardConversation,
  type DashboardDay,
  type GoLiveView,
  RECENT_CONVERSATIONS_LIMIT,
  type UpdateAgentSettingsInput,
} from '../../../common/api/client-dashboard';
import type { SubscriptionStatus } from '../../../common/api/offers';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { type Bounds, ClientDashboardRepository, type DashboardClientRow, type RecentConversationRow } from './client-dashboard.repository';

const DAY_MS = 86_400_000;

/** A client's plan as the header shows it (its template offer, since when, and whether billing says it is past due). */
export interface DashboardPlan {
  offerId: string;
  offerName: string;
  /** ISO timestamp. */
  activeSince: string;
  pastDue: boolean;
}

/** One UTC day of the client's service levels (the insights module's daily rollup). */
export interface DashboardServiceLevelDay {
  day: string;
  conversations: number;
  answered: number;
  firstResponseSecondsSum: number;
}

/** The client's AI agent settings the dashboard shows and changes. */
export interface DashboardAgentSettings {
  enabled: boolean;
  businessHours: BusinessHours | null;
  outsideHours: 'answer' | 'away';
  awayText: string;
}

/** What the dashboard needs from other modules, filled in by app.ts. */
export interface ClientDashboardPorts {
  /** The client's service-level rollups of the UTC days from..to (InsightsService.dailyRollups). */
  serviceLevels(clientId: string, period: { from: string; to: string }): Promise<readonly DashboardServiceLevelDay[]>;
  /** The client's plan — the offer of its approved onboarding request or its billing subscription — or null without one. */
  plan(clientId: string): Promise<DashboardPlan | null>;
  /** The client's AI agent settings (AgentsService.getConfig). */
  agentSettings(clientId: string): Promise<DashboardAgentSettings>;
  /** Changes them, in one transaction (AgentsService.updateAgent). */
  updateAgentSettings(clientId: string, changes: { enabled?: boolean; businessHours?: BusinessHours | null; outsideHours?: 'answer' | 'away' }): Promise<void>;
  /** What the Going live steps show: the client's active channels and its live knowledge base (ChannelsService, AgentsService.training). */
  goLive(clientId: string): Promise<GoLiveView>;
  /** Lead qualification on or off (ClientStateService.setLeadQualification; it checks the scope again). */
  setLeadQualification(user: SessionUser, clientId: string, enabled: boolean): Promise<void>;
}

export interface ClientDashboardServiceDeps {
  db: Db;
  clock: Clock;
  ports: ClientDashboardPorts;
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The last `days` UTC days up to `now`'s, both included, and their bounds as timestamps. */
export function periodEnding(now: Date, days: number = DASHBOARD_PERIOD_DAYS): { from: string; to: string; days: string[]; bounds: Bounds } {
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  const first = today - (days - 1) * DAY_MS;
  const list = Array.from({ length: days }, (_, i) => dayOf(new Date(first + i * DAY_MS)));
  return { from: list[0] ?? dayOf(now), to: dayOf(now), days: list, bounds: { from: new Date(first), until: new Date(today + DAY_MS) } };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** The badge: past due first (money owed), then paused, then active with a plan; null without a plan. */
export function badgeStatus(plan: DashboardPlan | null, paused: boolean): SubscriptionStatus | null {
  if (plan?.pastDue) return 'past_due';
  if (paused) return 'paused';
  return plan ? 'active' : null;
}

export function toDashboardConversation(row: RecentConversationRow): DashboardConversation {
  return {
    id: row.id,
    customerName: contactLabel({ name: row.contactName, externalId: row.contactExternalId }, row.platform),
    platform: row.platform,
    lastMessage: row.lastMessagePreview,
    timestamp: row.lastMessageAt ? row.lastMessageAt.toISOString() : null,
    status: row.status === 'resolved' ? 'resolved' : row.isLead ? 'lead' : 'active',
    sentiment: sentimentLabel(row.sentiment),
    isLead: row.isLead,
    convertedAt: row.convertedAt ? row.convertedAt.toISOString() : null,
  };
}

export class ClientDashboardService {
  readonly #repository: ClientDashboardRepository;

  constructor(private readonly deps: ClientDashboardServiceDeps) {
    this.#repository = new ClientDashboardRepository(deps.db);
  }

  async #visible(user: SessionUser, clientId: string): Promise<DashboardClientRow> {
    const client = await this.#repository.findClient(clientId, scopeFor(user));
    if (!client) throw notFound('Client');
    return client;
  }

  async getDashboard(user: SessionUser, clientId: string): Promise<ClientDashboardView> {
    const client = await this.#visible(user, clientId);
    const { ports } = this.deps;
    const now = this.deps.clock.now();
    const period = periodEnding(now);
    const levels = await ports.serviceLevels(clientId, { from: period.from, to: period.to });
    const messages = await this.#repository.messagesPerDay(clientId, period.bounds);
    const leads = await this.#repository.leads(clientId, period.bounds);
    const recent = await this.#repository.recentConversations(clientId, RECENT_CONVERSATIONS_LIMIT);
    const plan = await ports.plan(clientId);
    const agent = await ports.agentSettings(clientId);
    const goLive = await ports.goLive(clientId);

    const messagesByDay = new Map(messages.map((m) => [m.day, m.messages]));
    const levelsByDay = new Map<string, DashboardServiceLevelDay>();
    for (const level of levels) {
      const seen = levelsByDay.get(level.day);
      levelsByDay.set(
        level.day,
        seen
          ? { day: level.day, conversations: seen.conversations + level.conversations, answered: seen.answered + level.answered, firstResponseSecondsSum: seen.firstResponseSecondsSum + level.firstResponseSecondsSum }
          : level,
      );
    }
    const daily: DashboardDay[] = period.days.map((day) => {
      const level = levelsByDay.get(day);
      const answered = level?.answered ?? 0;
      return {
        day,
        messages: messagesByDay.get(day) ?? 0,
        conversations: level?.conversations ?? 0,
        answered,
        avgResponseSeconds: answered > 0 && level ? level.firstResponseSecondsSum / answered : null,
      };
    });
    const conversations = daily.reduce((sum, d) => sum + d.conversations, 0);
    const answered = daily.reduce((sum, d) => sum + d.answered, 0);
    const firstResponseSeconds = [...levelsByDay.values()].reduce((sum, l) => sum + l.firstResponseSecondsSum, 0);
    const paused = client.automationPausedAt !== null;

    return {
      client: {
        id: client.id,
        companyName: client.companyName,
        status: client.status,
        createdAt: client.createdAt.toISOString(),
        automationPausedAt: client.automationPausedAt ? client.automationPausedAt.toISOString() : null,
        automationPausedBy: paused ? client.automationPausedBy : null,
      },
      plan,
      subscriptionStatus: badgeStatus(plan, paused),
      period: { from: period.from, to: period.to, days: period.days.length },
      metrics: {
        totalMessages: daily.reduce((sum, d) => sum + d.messages, 0),
        conversations,
        answeredConversations: answered,
        responseRate: ratio(answered, conversations),
        avgResponseSeconds: answered > 0 ? firstResponseSeconds / answered : null,
        leadsGenerated: leads.leads,
        convertedLeads: leads.converted,
        conversionRate: ratio(leads.converted, leads.leads),
      },
      daily,
      recentConversations: recent.map(toDashboardConversation),
      settings: this.#settings(client, agent),
      goLive,
      generatedAt: now.toISOString(),
    };
  }

  /** Auto-response (the agent on/off), business hours and what happens outside them. */
  async updateAgentSettings(user: SessionUser, clientId: string, input: UpdateAgentSettingsInput): Promise<AutomationSettingsView> {
    await this.#visible(user, clientId);
    await this.deps.ports.updateAgentSettings(clientId, {
      ...(input.autoResponse !== undefined ? { enabled: input.autoResponse } : {}),
      ...(input.businessHours !== undefined ? { businessHours: input.businessHours } : {}),
      ...(input.outsideHours !== undefined ? { outsideHours: input.outsideHours } : {}),
    });
    return this.getSettings(user, clientId);
  }

  async setLeadQualification(user: SessionUser, clientId: string, enabled: boolean): Promise<AutomationSettingsView> {
    await this.deps.ports.setLeadQualification(user, clientId, enabled);
    return this.getSettings(user, clientId);
  }

  async getSettings(user: SessionUser, clientId: string): Promise<AutomationSettingsView> {
    const client = await this.#visible(user, clientId);
    return this.#settings(client, await this.deps.ports.agentSettings(clientId));
  }

  #settings(client: DashboardClientRow, agent: DashboardAgentSettings): AutomationSettingsView {
    return {
      autoResponse: agent.enabled,
      leadQualification: client.leadQualification,
      businessHours: agent.businessHours,
      outsideHours: agent.outsideHours,
      awayText: agent.awayText,
    };
  }
}
