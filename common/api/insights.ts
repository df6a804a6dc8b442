/**
 * Insights (issue 16 §2; server: server/modules/insights, docs/insights.md). Every figure comes
 * from the service levels kept per conversation and per client and day; nothing is sampled.
 * Reading: any signed-in user; a client user sees only their own business (a `clientId` naming
 * another client is ignored), managers and admins every client or the one they name.
 *
 *   GET /api/v1/insights?period=24h|7d|30d|custom&from=&to=&clientId=   -> insightsView
 *   GET /api/v1/insights/export.csv?(same query)                        -> text/csv (attachment insights-<from>-<to>.csv)
 *
 * The period covers the conversations *started* in it (a conversation's figures — its first
 * response, its resolution — belong to the period it started in, as in Chatwoot's reports), and
 * is compared with the period of the same length just before it.
 */
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });

export const INSIGHTS_PERIODS = ['24h', '7d', '30d', 'custom'] as const;
export const insightsPeriodKind = z.enum(INSIGHTS_PERIODS, { error: 'Choose 24h, 7d, 30d or custom' });
export type InsightsPeriodKind = z.infer<typeof insightsPeriodKind>;
export const INSIGHTS_PERIOD_LABELS: Record<InsightsPeriodKind, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom range',
};
/** The longest custom period. */
export const MAX_INSIGHTS_PERIOD_DAYS = 366;
/** Months in the Trends tab, the current one included (part 1 §9: a six-month trend window). */
export const TREND_MONTHS = 6;

/** A custom period needs both ends, in order, at most MAX_INSIGHTS_PERIOD_DAYS apart (field messages on `from` / `to`). */
export function checkPeriod(query: { period: InsightsPeriodKind; from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (query.period !== 'custom') return;
  if (!query.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Choose the first day of the period' });
  if (!query.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Choose the last day of the period' });
  if (!query.from || !query.to) return;
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
  if (days <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The period must end after it starts' });
  else if (days > MAX_INSIGHTS_PERIOD_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `Choose at most ${MAX_INSIGHTS_PERIOD_DAYS} days` });
}

export const insightsQuery = z
  .object({
    period: insightsPeriodKind.default('7d'),
    /** custom only: the start, included. */
    from: isoDate.optional(),
    /** custom only: the end, excluded. */
    to: isoDate.optional(),
    /** Managers and admins: one client (omitted: every client). Ignored for a client user. */
    clientId: z.uuid({ error: 'Choose a client' }).optional(),
  })
  .superRefine(checkPeriod);
export type InsightsQuery = z.input<typeof insightsQuery>;

/** A figure of the period and of the period before it (null: nothing to measure, e.g. no conversation answered). */
export const comparedFigure = z.object({ value: z.number().nullable(), previous: z.number().nullable() });
export type ComparedFigure = z.infer<typeof comparedFigure>;

/** Totals of a set of conversations (a period, a client, an agent, a month). */
export const serviceTotals = z.object({
  /** Conversations started. */
  conversations: z.number().int(),
  /** Messages in them: the customers', the AI's and people's. */
  messages: z.number().int(),
  /** Conversations whose customer got a first reply (AI or person). */
  answered: z.number().int(),
  /** Resolved now. */
  resolved: z.number().int(),
  /** Resolved with the AI's answers alone (no person wrote, nobody handed it off). */
  automated: z.number().int(),
  /** Handed to a person at least once. */
  handedOff: z.number().int(),
  reopened: z.number().int(),
  /** Satisfaction surveys answered in them (docs/satisfaction.md). */
  ratings: z.number().int(),
  /** Of those, rated 4 or 5 (the CSAT score is satisfied ÷ ratings). */
  satisfied: z.number().int(),
});
export type ServiceTotals = z.infer<typeof serviceTotals>;

export const agentPerformance = z.object({
  /** `ai:<clientId>` for a client's AI agent, the user's id for a person. */
  id: z.string(),
  kind: z.enum(['ai', 'person']),
  name: z.string(),
  /** The client whose AI agent it is (null for a person). */
  clientName: z.string().nullable(),
  /** AI: conversations it answered first; person: conversations assigned to them (else first replied by them). */
  conversations: z.number().int(),
  resolved: z.number().int(),
  /** resolved ÷ conversations; null without conversations. */
  resolutionRate: z.number().nullable(),
  medianFirstResponseSeconds: z.number().nullable(),
  /** Mean customer rating (1–5) of its conversations; null: no rating. */
  satisfaction: z.number().nullable(),
  ratings: z.number().int(),
});
export type AgentPerformance = z.infer<typeof agentPerformance>;

export const clientInsights = z.object({
  clientId: z.uuid(),
  name: z.string(),
  status: z.string(),
  totals: serviceTotals,
  medianFirstResponseSeconds: z.number().nullable(),
  medianResolutionSeconds: z.number().nullable(),
  /** automated ÷ conversations; null without conversations. */
  automatedResolutionRate: z.number().nullable(),
  /** handedOff ÷ conversations. */
  handoffRate: z.number().nullable(),
  satisfaction: z.number().nullable(),
});
export type ClientInsights = z.infer<typeof clientInsights>;

/** A share of something, by a real attribute (client status, channel). */
export const distributionItem = z.object({ key: z.string(), label: z.string(), count: z.number().int() });

export const trendMonth = z.object({
  /** YYYY-MM (UTC). */
  month: z.string(),
  conversations: z.number().int(),
  messages: z.number().int(),
  /** automated ÷ conversations of the month; null: no conversation. */
  automatedResolutionRate: z.number().nullable(),
  satisfaction: z.number().nullable(),
});
export type TrendMonth = z.infer<typeof trendMonth>;

export const insightsView = z.object({
  period: z.object({ kind: insightsPeriodKind, from: isoDate, to: isoDate }),
  previous: z.object({ from: isoDate, to: isoDate }),
  /** The client the figures cover; null: every client. */
  clientId: z.uuid().nullable(),
  /** The four cards: conversations, median first response, automated resolution rate, satisfaction. */
  metrics: z.object({
    conversations: comparedFigure,
    medianFirstResponseSeconds: comparedFigure,
    automatedResolutionRate: comparedFigure,
    /** Mean customer rating out of 5. */
    satisfaction: comparedFigure,
  }),
  totals: serviceTotals,
  /** Medians of the period (wall clock and within the clients' business hours). */
  medians: z.object({
    firstResponseSeconds: z.number().nullable(),
    firstResponseBusinessSeconds: z.number().nullable(),
    resolutionSeconds: z.number().nullable(),
    resolutionBusinessSeconds: z.number().nullable(),
  }),
  /**
   * Whether customers are asked to rate conversations (CSAT, docs/satisfaction.md); false: the
   * satisfaction figures are null because nothing collects them. Satisfaction figures are null
   * where no rating was given.
   */
  ratingsCollected: z.boolean(),
  /** Top performing agents: each client's AI agent and each person, most conversations first. */
  agents: z.array(agentPerformance),
  /** Per client, most conversations first (a client user: their own only). */
  clients: z.array(clientInsights),
  distribution: z.object({
    /** Clients by status (every client, or the one the figures cover). */
    clientsByStatus: z.array(distributionItem),
    /** The period's conversations by channel. */
    conversationsByChannel: z.array(distributionItem),
  }),
  /** The last TREND_MONTHS months, oldest first; a month without data has zeros. */
  trends: z.array(trendMonth),
  generatedAt: isoDate,
});
export type InsightsView = z.infer<typeof insightsView>;
