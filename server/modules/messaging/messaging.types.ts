/**
 * The messaging module's public types and constants: what MessagingService takes and returns, the
 * channel rules it applies (the 24-hour window, who may write first, whose profiles are fetched)
 * and the JSON its database functions accept. Exported through messaging.service.ts and index.ts.
 */
import type { Priority } from '../../../common/api/conversations';
import { keywordSummary, priorityKeyword } from '../../../common/messaging/keyword-rules';
import type { AiMessageInfo, Channel, ChannelKind, Message, MessageMedia, MessageType, SenderType } from '../../db/schema';
import type { PerformedBy } from '../../events/domain-events';
import type { JobCompletion } from '../../jobs/define-job';
import { cleanJson, mightNeedCleaning } from '../../http/json-body';

/** Channels where Meta's 24-hour customer-service window applies to free text. */
export const WINDOW_CHANNELS: ReadonlySet<ChannelKind> = new Set(['whatsapp', 'messenger', 'instagram']);
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Channels whose webhooks name a customer only by an id: a new contact's name and picture come
 * from the Graph API's user profile endpoint, by a job (fetch-contact-profile.job.ts).
 */
export const PROFILE_CHANNELS: ReadonlySet<ChannelKind> = new Set(['messenger', 'instagram']);
/** Channels where a business may write first. */
export const BUSINESS_FIRST_CHANNELS: ReadonlySet<ChannelKind> = new Set(['webchat', 'api']);

/** A platform's word on a message the business sent (webhook statuses, the API channel's receipts). */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What a platform tells about a contact; null where it says nothing. */
export interface ContactProfile {
  name: string | null;
  avatarUrl: string | null;
}

/** A customer's answer to a satisfaction survey (docs/satisfaction.md). */
export interface SurveyAnswer {
  rating: number;
  comment: string | null;
  /** The survey answered (the widget's stars name it); absent: the conversation's pending one. */
  surveyId?: string;
}

export interface InboundMessageInput {
  contact: { externalId: string; name?: string | null; avatarUrl?: string | null };
  message: {
    externalId: string;
    type: MessageType;
    text: string;
    media?: MessageMedia;
    /**
     * A rating the channel gave (the widget's stars, the API channel's field); absent: read from
     * the text (`parseRating`). It answers the pending survey only while the conversation is
     * resolved; otherwise the message is an ordinary one.
     */
    rating?: SurveyAnswer | null;
  };
}

export interface RecordResult {
  created: boolean;
  messageId: string;
  conversationId: string;
  /** The satisfaction survey this message answered. */
  surveyId?: string;
}

export interface SendInput {
  text: string;
  senderType: Exclude<SenderType, 'customer'>;
  senderId: string | null;
  aiConfidence?: number | null;
  /** AI messages: what produced them (engine, decision, sources, latency, usage). */
  ai?: AiMessageInfo | null;
}

/** What Parley derives from a customer's message as it is stored (the AI agent's intelligence). */
export interface InboundAnnotation {
  priority: Priority;
  /** What raised the priority (`Keyword “urgent”`, `Negative tone`); null or absent when nothing did. */
  priorityReason?: string | null;
  /** The message's summary (the spec's category). */
  aiSummary: string;
  /** -1 … 1, or null when not measured. */
  sentiment: number | null;
}

export type AnnotateInbound = (text: string, type: MessageType) => InboundAnnotation;

/** The spec's keyword rules (§9), the default until the agents module provides more. */
export const keywordAnnotation: AnnotateInbound = (text) => {
  const { priority, keyword } = priorityKeyword(text);
  return { priority, priorityReason: keyword === null ? null : `Keyword “${keyword}”`, aiSummary: keywordSummary(text), sentiment: null };
};

export interface RecordInboundOptions {
  performedBy?: PerformedBy;
  /** Raw deliveries to mark processed (with their errors) in the same transaction. */
  processed?: readonly { id: number; error: string | null }[];
  /** The job to complete in the same transaction. */
  completeJob?: JobCompletion;
}

/** A satisfaction survey to ask with a system message (MessagingService.requestSatisfaction). */
export interface SurveyRequest {
  /** The resolution it asks about: one survey per resolution. */
  resolvedAt: Date;
  question: string;
  expiresAt: Date;
}

export interface SendOptions {
  /** The conversation's new summary (the AI agent's), written with the reply. */
  conversationSummary?: string | null;
  /** The answered message's new summary (the topic the agent recognised). */
  inboundSummary?: { messageId: string; aiSummary: string } | null;
  /** The job to complete in the same transaction. */
  completeJob?: JobCompletion;
}

/** What a send job claimed where its reply was queued gets in memory (`JobContext.hint`). */
export interface SendJobHint {
  message: Message;
  channel: Channel;
  /** The contact's id on the channel. */
  recipient: string;
}

/** What a person reads on a send whose outcome is unknown (MessagingService.markOutcomeUnknown). */
export const OUTCOME_UNKNOWN_REASON =
  'Parley was interrupted while sending this message, so it may or may not have reached the customer. Resend it if they did not get it.';

/** `parley_begin_send`'s answer (MessagingService.beginSend). */
export type BeginSend =
  | { state: 'send'; resent: boolean; found?: SendJobHint }
  | { state: 'settled' }
  | { state: 'unknown' }
  | { state: 'missing' };

/** A send marked unknown: what the team's notification names. */
export interface UnknownOutcome {
  messageId: string;
  conversationId: string;
  clientId: string;
  content: string;
  kind: ChannelKind;
  contactName: string | null;
  contactExternalId: string;
  companyName: string;
}

/**
 * A payload as JSON PostgreSQL accepts. Text written here may come from an LLM or a person, not
 * only through the HTTP edge that cleans request bodies: a lone surrogate (JSON.stringify writes
 * it as an escape jsonb refuses) becomes U+FFFD and U+0000 is dropped, so a reply is stored
 * rather than failed. The check is one regular expression over the text; only then a walk.
 */
export function storableJson(payload: object): string {
  const json = JSON.stringify(payload);
  if (!mightNeedCleaning(json)) return json;
  return JSON.stringify(cleanJson(structuredClone(payload), { nul: 'strip', maxDepth: Infinity }).value);
}
