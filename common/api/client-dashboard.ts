/**
 * The client dashboard (issue 17 §2; spec part 2 "Client dashboard"; docs/client-dashboard.md).
 * Admins and managers read any client's; a client user only their own (another id answers 404).
 *
 *   GET   /api/v1/clients/:clientId/dashboard           -> clientDashboardView
 *   PATCH /api/v1/clients/:clientId/agent-settings      updateAgentSettingsInput -> automationSettingsView
 *   PUT   /api/v1/clients/:clientId/lead-qualification  setLeadQualificationInput -> automationSettingsView
 *
 * Pause / Resume Automation is `PUT /api/v1/clients/:id/automation` (common/api/channels.ts).
 */
import { z } from 'zod';
import { businessHours, outsideHoursMode } from './agents';
import { channelKind, clientStatus } from './channels';
import { subscriptionStatus } from './offers';

const isoDate = z.iso.datetime({ offset: true });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/u);
const count = z.number().int().min(0);

/** The figures cover the last 30 UTC days, today included. */
export const DASHBOARD_PERIOD_DAYS = 30;
/** The Recent Conversations tab lists this many, the latest activity first. */
export const RECENT_CONVERSATIONS_LIMIT = 10;

/** The spec's dashboard conversation statuses: resolved, active (anything open), lead (an open lead). */
export const dashboardConversationStatus = z.enum(['resolved', 'active', 'lead']);
export type DashboardConversationStatus = z.infer<typeof dashboardConversationStatus>;

export const dashboardConversation = z.object({
  id: z.uuid(),
  customerName: z.string(),
  platform: channelKind,
  /** The latest message's preview; null before any. */
  lastMessage: z.string().nullable(),
  /** When the latest message was written; null before any. */
  timestamp: isoDate.nullable(),
  status: dashboardConversationStatus,
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  isLead: z.boolean(),
  convertedAt: isoDate.nullable(),
});
export type DashboardConversation = z.infer<typeof dashboardConversation>;

/** The Automation Settings tab: the AI agent on or off, lead qualification, the agent's business hours. */
export const automationSettingsView = z.object({
  /** Auto-response: the client's AI agent is on. */
  autoResponse: z.boolean(),
  /** Customers' messages can make conversations leads (the lead signals). */
  leadQualification: z.boolean(),
  /** The agent's business hours; null: always on. */
  businessHours: businessHours.nullable(),
  /** Outside them: keep answering, or send the away text and leave the conversation to people. */
  outsideHours: outsideHoursMode,
  awayText: z.string(),
});
export type AutomationSettingsView = z.infer<typeof automationSettingsView>;

export const updateAgentSettingsInput = z
  .object({
    autoResponse: z.boolean().optional(),
    businessHours: businessHours.nullable().optional(),
    outsideHours: outsideHoursMode.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type UpdateAgentSettingsInput = z.infer<typeof updateAgentSettingsInput>;

export const setLeadQualificationInput = z.object({ enabled: z.boolean({ error: 'Say whether lead qualification is on' }) });
export type SetLeadQualificationInput = z.infer<typeof setLeadQualificationInput>;

export const dashboardDay = z.object({
  day,
  /** Messages written that day (the customers', the AI's and people's). */
  messages: count,
  /** Conversations started that day, and how many of them got a first response. */
  conversations: count,
  answered: count,
  /** Mean first response of that day's answered conversations; null when none was answered. */
  avgResponseSeconds: z.number().nullable(),
});
export type DashboardDay = z.infer<typeof dashboardDay>;

/**
 * Going live (docs/client-dashboard.md "Going live"): what stands between the business and an AI
 * agent answering its customers — a channel customers write to, a knowledge base the agent
 * answers from, and auto-response switched on.
 */
export const goLiveView = z.object({
  /** The client's channels that accept messages (status active), of any kind. */
  channels: count,
  /** The kinds among them, each once. */
  channelKinds: z.array(channelKind),
  /** Whether a knowledge base version is live (trained) for the agent to answer from. */
  knowledgeLive: z.boolean(),
  /** Knowledge entries in the live version; 0 before any training. */
  liveEntries: count,
  /** Whether a newer version is queued or training now. */
  training: z.boolean(),
});
export type GoLiveView = z.infer<typeof goLiveView>;

export const clientDashboardView = z.object({
  client: z.object({
    id: z.uuid(),
    companyName: z.string(),
    status: clientStatus,
    createdAt: isoDate,
    automationPausedAt: isoDate.nullable(),
    automationPausedBy: z.string().nullable(),
  }),
  /** The client's plan (its template offer): its approved onboarding request's, or its billing subscription's; null when it has none. */
  plan: z
    .object({
      offerId: z.string(),
      offerName: z.string(),
      /** When the subscription started: the "active since" date. */
      activeSince: isoDate,
      pastDue: z.boolean(),
    })
    .nullable(),
  /** The header's badge: past due (billing), paused, or active (with a plan); null: no plan and running. */
  subscriptionStatus: subscriptionStatus.nullable(),
  /** The UTC days the figures cover, both included. */
  period: z.object({ from: day, to: day, days: z.number().int() }),
  metrics: z.object({
    /** Messages written in the period: the customers', the AI's and people's. */
    totalMessages: count,
    /** Conversations started in the period, and those of them that got a reply. */
    conversations: count,
    answeredConversations: count,
    /** answeredConversations / conversations; null without conversations. */
    responseRate: z.number().nullable(),
    /** Mean first response time of the answered ones, in seconds; null when none was answered. */
    avgResponseSeconds: z.number().nullable(),
    /** Conversations that became leads in the period (`lead.qualified`). */
    leadsGenerated: count,
    /** Of those, the ones the business marked as converted. */
    convertedLeads: count,
    /** convertedLeads / leadsGenerated; null without leads. */
    conversionRate: z.number().nullable(),
  }),
  /** One entry per day of the period, oldest first. */
  daily: z.array(dashboardDay),
  recentConversations: z.array(dashboardConversation),
  settings: automationSettingsView,
  goLive: goLiveView,
  generatedAt: isoDate,
});
export type ClientDashboardView = z.infer<typeof clientDashboardView>;
