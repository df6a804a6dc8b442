/**
 * The AI Summary page (issue 16 §3; spec part 2 "AI Summary page", §3 AI summary entity; server:
 * server/modules/insights, docs/insights.md). Reading: any signed-in user; a client user sees only
 * their own business, managers and admins every client or the one they name.
 *
 *   GET /api/v1/summary?period=24h|7d|30d|custom&from=&to=&clientId=&timeZone=   -> summaryView
 *
 * Everything is computed from the period's conversations and the AI agent's replies: what the
 * customers asked is read from the knowledge-base entry the agent matched to each question (its
 * top candidate, even when it handed the question to a person); the questions it matched to none
 * are grouped by their words (docs/insights.md, "Topics of unanswered questions").
 */
import { z } from 'zod';
import { isKnownTimeZone } from '../business-time';
import { checkPeriod, insightsPeriodKind } from './insights';

const isoDate = z.iso.datetime({ offset: true });

export const summaryQuery = z
  .object({
    period: insightsPeriodKind.default('24h'),
    from: isoDate.optional(),
    to: isoDate.optional(),
    clientId: z.uuid({ error: 'Choose a client' }).optional(),
    /** The viewer's IANA time zone, for "by time of day" (default UTC). */
    timeZone: z.string().max(64).refine(isKnownTimeZone, { message: 'Unknown time zone' }).default('UTC'),
  })
  .superRefine(checkPeriod);
export type SummaryQuery = z.input<typeof summaryQuery>;

export const SUMMARY_TOPIC_TYPES = ['trending', 'common', 'escalation'] as const;
export const summaryTopicType = z.enum(SUMMARY_TOPIC_TYPES);

/**
 * A topic customers raised: one knowledge-base entry the agent matched, a group of alike questions
 * it matched to none (clustered by the agent's text features), or the rest of those questions.
 */
export const summaryTopic = z.object({
  /** `faq:<entry id>` / `article:<id>`, `unmatched:<reply id>` for a group of alike questions no entry matched, `unmatched` for the rest of those. */
  id: z.string(),
  /** The entry's title; for a group of unmatched questions its most representative question. */
  title: z.string(),
  /** escalation: most of its questions went to a person; trending: at least half as many again as the period before; common: the rest. */
  type: summaryTopicType,
  /** Customer questions in the period. */
  count: z.number().int(),
  /** Change against the period before, as a fraction (0.5 = +50 %); null when it had none. */
  trend: z.number().nullable(),
  /** Mean confidence of the agent on these questions, 0–1. */
  confidence: z.number().nullable(),
  answered: z.number().int(),
  handedOff: z.number().int(),
  /** One line, from the figures. */
  summary: z.string(),
  /** A group of unmatched questions asked often enough (3 times in the period) to deserve an FAQ entry of its own. */
  missingFromKnowledgeBase: z.boolean(),
  /** A few of the customers' own words: a group's most representative, the rest's newest first; none for an entry. */
  examples: z.array(z.string()),
  /** The client whose customers asked: a group's own; for an entry the summary's client (null when it spans every client). */
  clientId: z.uuid().nullable().default(null),
  /** A group of unmatched questions: the question a new FAQ entry for it would start from (its most representative); else null. */
  suggestedQuestion: z.string().nullable().default(null),
  /** The group's other wordings, most representative first: the new entry's other example questions. */
  variants: z.array(z.string()).default([]),
});
export type SummaryTopic = z.infer<typeof summaryTopic>;
/** The id of the rest of the unmatched questions (in no group). */
export const OTHER_UNMATCHED_TOPIC = 'unmatched';

export const summaryBucket = z.object({
  key: z.string(),
  label: z.string(),
  conversations: z.number().int(),
  /** Mean confidence of the AI's replies, 0–1; null without any. */
  confidence: z.number().nullable(),
});

export const summaryView = z.object({
  period: z.object({ kind: insightsPeriodKind, from: isoDate, to: isoDate }),
  clientId: z.uuid().nullable(),
  timeZone: z.string(),
  overview: z.object({
    totalConversations: z.number().int(),
    /** Mean time to the first reply (AI or person), seconds; null when nothing was answered. */
    averageResponseTime: z.number().nullable(),
    /** Mean confidence of the AI's replies, 0–1. */
    aiConfidence: z.number().nullable(),
    /** Conversations handed to a person ÷ conversations, 0–1. */
    escalationRate: z.number().nullable(),
    /** Mean customer rating out of 5; null while ratings are not collected. */
    customerSatisfaction: z.number().nullable(),
  }),
  ratingsCollected: z.boolean(),
  /** Topics, most questions first (the rest of the unmatched questions last among equals). */
  insights: z.array(summaryTopic),
  performance: z.object({
    /** 24 hours of the day in `timeZone`, 0 to 23. */
    byTimeOfDay: z.array(summaryBucket),
    byChannel: z.array(summaryBucket),
  }),
  generatedAt: isoDate,
});
export type SummaryView = z.infer<typeof summaryView>;
