/**
 * A conversation's service levels from its stored facts (docs/insights.md, "What each figure
 * means"): pure, so the same facts always give the same row — the job that recomputes it may run
 * twice or out of order.
 */
import { businessSeconds, isKnownTimeZone, type OpeningHours } from '../../../common/business-time';
import type { ChannelKind, ConversationStatus, FirstResponder, HandledBy } from '../../db/schema';

/** What InsightsRepository.facts reads about one conversation. */
export interface ServiceLevelFacts {
  conversationId: string;
  clientId: string;
  channelKind: ChannelKind;
  createdAt: Date;
  /** When the conversation last changed (the resolution time of history recorded before 0027). */
  updatedAt: Date;
  status: ConversationStatus;
  handledBy: HandledBy;
  /** The AI agent's hand-off reason (or 'a person escalated it'): set by every escalation, never cleared. */
  escalated: boolean;
  /** The client's AI agent's business hours; null: none set, always open. */
  businessHours: OpeningHours | null;
  /** The customer's first message. */
  firstInboundAt: Date | null;
  /** The first AI or person message after the customer's first. */
  firstResponseAt: Date | null;
  firstResponseSender: 'ai' | 'agent' | null;
  aiReplies: number;
  personReplies: number;
  customerMessages: number;
  /** Answered satisfaction surveys: how many, the sum of their ratings, how many were 4 or 5. */
  ratings: number;
  ratingSum: number;
  satisfied: number;
  /** The conversation's assignee, and the first person who replied in it. */
  assignedAgentId: string | null;
  firstPersonId: string | null;
  /** Recorded hand-offs, reopenings and the latest recorded resolution (service_level_events). */
  handoffs: number;
  reopenings: number;
  lastResolutionAt: Date | null;
}

export interface ServiceLevel {
  conversationId: string;
  clientId: string;
  channelKind: ChannelKind;
  createdAt: Date;
  firstInboundAt: Date | null;
  firstResponseAt: Date | null;
  firstResponder: FirstResponder | null;
  firstResponseSeconds: number | null;
  firstResponseBusinessSeconds: number | null;
  resolvedAt: Date | null;
  resolutionSeconds: number | null;
  resolutionBusinessSeconds: number | null;
  automated: boolean;
  handoffs: number;
  reopenings: number;
  personReplies: number;
  aiReplies: number;
  customerMessages: number;
  ratings: number;
  ratingSum: number;
  satisfied: number;
  /** The person the conversation counts for: its assignee, else the first person who replied. */
  agentId: string | null;
}

/** Hours whose time zone this runtime cannot use count as none (always open) rather than failing every recompute. */
export function usableHours(hours: OpeningHours | null | undefined): OpeningHours | null {
  if (!hours || typeof hours.timezone !== 'string' || !Array.isArray(hours.days)) return null;
  return isKnownTimeZone(hours.timezone) ? hours : null;
}

const seconds = (from: Date, to: Date): number => Math.max(0, (to.getTime() - from.getTime()) / 1000);

export function computeServiceLevel(facts: ServiceLevelFacts): ServiceLevel {
  const hours = usableHours(facts.businessHours);
  const asked = facts.firstInboundAt;
  // The facts' first response is after the customer's first message by construction.
  const answer = asked !== null ? facts.firstResponseAt : null;
  // Resolved now: the latest recorded resolution; history from before the record (0027) has none,
  // and then the conversation's last change is the best time known.
  const resolvedAt = facts.status === 'resolved' ? (facts.lastResolutionAt ?? facts.updatedAt) : null;
  // A hand-off recorded before 0027 left only the escalation reason: at least one.
  const handoffs = Math.max(facts.handoffs, facts.escalated ? 1 : 0);
  return {
    conversationId: facts.conversationId,
    clientId: facts.clientId,
    channelKind: facts.channelKind,
    createdAt: facts.createdAt,
    firstInboundAt: asked,
    firstResponseAt: answer,
    firstResponder: answer === null ? null : facts.firstResponseSender === 'agent' ? 'person' : 'ai',
    firstResponseSeconds: asked !== null && answer !== null ? seconds(asked, answer) : null,
    firstResponseBusinessSeconds: asked !== null && answer !== null ? businessSeconds(hours, asked, answer) : null,
    resolvedAt,
    resolutionSeconds: resolvedAt === null ? null : seconds(facts.createdAt, resolvedAt),
    resolutionBusinessSeconds: resolvedAt === null ? null : businessSeconds(hours, facts.createdAt, resolvedAt),
    // Resolved with the AI's answers alone: it replied, no person wrote in it, nobody handed it to a
    // person (the AI's hand-off, a person escalating it or taking it over) and it is not with people now.
    automated: resolvedAt !== null && facts.aiReplies > 0 && facts.personReplies === 0 && handoffs === 0 && facts.handledBy === 'ai',
    handoffs,
    reopenings: facts.reopenings,
    personReplies: facts.personReplies,
    aiReplies: facts.aiReplies,
    customerMessages: facts.customerMessages,
    ratings: facts.ratings,
    ratingSum: facts.ratingSum,
    satisfied: facts.satisfied,
    agentId: facts.assignedAgentId ?? facts.firstPersonId,
  };
}

/** A row's share of its day's rollup (`service_level_daily`), `sign` −1 to take it out. */
export interface DayShare {
  clientId: string;
  /** YYYY-MM-DD, the UTC day of the conversation's creation. */
  day: string;
  conversations: number;
  answered: number;
  firstResponseSecondsSum: number;
  firstResponseBusinessSecondsSum: number;
  resolved: number;
  resolutionSecondsSum: number;
  resolutionBusinessSecondsSum: number;
  automated: number;
  handedOff: number;
  handoffs: number;
  reopenings: number;
  messages: number;
  ratings: number;
  ratingSum: number;
  satisfied: number;
}

export function dayShare(level: ServiceLevel, sign: 1 | -1 = 1): DayShare {
  return {
    clientId: level.clientId,
    day: level.createdAt.toISOString().slice(0, 10),
    conversations: sign,
    answered: level.firstResponseAt ? sign : 0,
    firstResponseSecondsSum: sign * (level.firstResponseSeconds ?? 0),
    firstResponseBusinessSecondsSum: sign * (level.firstResponseBusinessSeconds ?? 0),
    resolved: level.resolvedAt ? sign : 0,
    resolutionSecondsSum: sign * (level.resolutionSeconds ?? 0),
    resolutionBusinessSecondsSum: sign * (level.resolutionBusinessSeconds ?? 0),
    automated: level.automated ? sign : 0,
    handedOff: level.handoffs > 0 ? sign : 0,
    handoffs: sign * level.handoffs,
    reopenings: sign * level.reopenings,
    messages: sign * (level.customerMessages + level.aiReplies + level.personReplies),
    ratings: sign * level.ratings,
    ratingSum: sign * level.ratingSum,
    satisfied: sign * level.satisfied,
  };
}

const SUMMED = [
  'conversations',
  'answered',
  'firstResponseSecondsSum',
  'firstResponseBusinessSecondsSum',
  'resolved',
  'resolutionSecondsSum',
  'resolutionBusinessSecondsSum',
  'automated',
  'handedOff',
  'handoffs',
  'reopenings',
  'messages',
  'ratings',
  'ratingSum',
  'satisfied',
] as const satisfies readonly (keyof DayShare)[];

/** Plain messages a mark counted, added to the conversation's row without a recompute (InsightsRepository.addCounts). */
export interface CountedMark {
  conversationId: string;
  clientId: string;
  createdAt: Date;
  customerMessages: number;
  aiReplies: number;
}

/** What a counted mark adds to its day's rollup: only messages. */
export function countedShare(counted: CountedMark): DayShare {
  const zeros = Object.fromEntries(SUMMED.map((field) => [field, 0])) as Record<(typeof SUMMED)[number], number>;
  return { ...zeros, clientId: counted.clientId, day: counted.createdAt.toISOString().slice(0, 10), messages: counted.customerMessages + counted.aiReplies };
}

/**
 * What replacing rows changes in their days' rollups: per (client, day), the new rows' shares
 * minus the old ones', plus any `added` shares (counts added to rows); days where nothing moved are left out.
 */
export function dayChanges(changes: readonly { before: ServiceLevel | undefined; after: ServiceLevel }[], added: readonly DayShare[] = []): DayShare[] {
  const days = new Map<string, DayShare>();
  const add = (share: DayShare) => {
    const key = `${share.clientId}:${share.day}`;
    const sum = days.get(key);
    if (!sum) days.set(key, share);
    else for (const field of SUMMED) sum[field] += share[field];
  };
  for (const { before, after } of changes) {
    if (before) add(dayShare(before, -1));
    add(dayShare(after));
  }
  for (const share of added) add({ ...share });
  return [...days.values()].filter((day) => SUMMED.some((field) => day[field] !== 0));
}
