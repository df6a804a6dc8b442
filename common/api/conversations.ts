/**
 * Conversations, messages and contacts (server: server/modules/conversations). Client users see
 * only their own client's data; another client's id answers 404. Managers and admins see all.
 *
 *   GET   /api/v1/conversations                    findConversationsQuery -> findConversationsResponse
 *   POST  /api/v1/conversations                    startConversationInput -> conversationView (201)
 *          409 CONFLICT details.reason "business_cannot_start" (WhatsApp/Messenger/Instagram)
 *   GET   /api/v1/conversations/:id                -> conversationView
 *   PATCH /api/v1/conversations/:id                updateConversationInput -> conversationView
 *   PUT   /api/v1/conversations/:id/conversion     setConversionInput -> conversationView (409 not_a_lead)
 *   POST  /api/v1/conversations/:id/read           -> 204 (unread count to 0, inbound messages read)
 *   GET   /api/v1/conversations/:id/messages       findThreadQuery -> threadResponse (oldest first)
 *   POST  /api/v1/conversations/:id/messages       sendMessageInput -> messageView (201, status queued)
 *          409 CONFLICT details.reason "window_closed" outside the 24-hour customer-service window
 *   POST  /api/v1/conversations/:id/messages/:messageId/retry -> messageView (a failed or unconfirmed outbound message: Retry / Resend)
 *   GET   /api/v1/contacts                         findContactsQuery -> findContactsResponse
 *   GET   /api/v1/messages                         findMessagesQuery -> findMessagesResponse (latest 50)
 *   POST  /api/v1/messages/:id/read                -> 204 ("Marked as Read")
 *   POST  /api/v1/messages/read-all                findMessagesQuery (filter, search) -> { updated }
 *   POST  /api/v1/messages/:id/respond             sendMessageInput -> messageView (201)
 *   GET   /api/v1/messages/export.csv              exportMessagesQuery -> text/csv (attachment messages-<date>.csv)
 */
import { z } from 'zod';
import { channelKind } from './channels';

const isoDate = z.iso.datetime({ offset: true });

export const conversationStatus = z.enum(['active', 'pending', 'escalated', 'resolved']);
export type ConversationStatus = z.infer<typeof conversationStatus>;
export const handledBy = z.enum(['ai', 'human']);
export const priority = z.enum(['low', 'medium', 'high']);
export type Priority = z.infer<typeof priority>;
export const senderType = z.enum(['customer', 'ai', 'agent', 'system']);
export const messageType = z.enum(['text', 'image', 'audio', 'video', 'document', 'location', 'sticker', 'reaction', 'unsupported']);
/** `unknown`: Parley was interrupted while sending; it may not have reached the customer (resend). */
export const messageStatus = z.enum(['received', 'queued', 'unknown', 'sent', 'delivered', 'read', 'failed']);
export type MessageStatus = z.infer<typeof messageStatus>;

export const contactView = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  channelId: z.uuid(),
  platform: channelKind,
  externalId: z.string(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** A business may write first on this channel (website chat, API). */
  canStart: z.boolean(),
  conversationId: z.uuid().nullable(),
  createdAt: isoDate,
});
export type ContactView = z.infer<typeof contactView>;

/** A knowledge-base entry or article an AI reply came from. */
export const answerSourceView = z.object({ kind: z.enum(['faq', 'article']), id: z.string(), title: z.string(), link: z.string().nullable().optional() });
export type AnswerSourceView = z.infer<typeof answerSourceView>;

export const conversationView = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  clientName: z.string(),
  channelId: z.uuid(),
  channelName: z.string(),
  platform: channelKind,
  contact: z.object({ id: z.uuid(), name: z.string().nullable(), externalId: z.string(), avatarUrl: z.string().nullable() }),
  title: z.string().nullable(),
  status: conversationStatus,
  handledBy,
  assignedAgentId: z.uuid().nullable(),
  assignedAgentName: z.string().nullable(),
  priority,
  aiSummary: z.string().nullable(),
  /** Confidence of the latest AI reply, 0–1; null until the AI has answered. */
  aiConfidence: z.number().nullable(),
  unreadCount: z.number().int(),
  messageCount: z.number().int(),
  lastMessageAt: isoDate.nullable(),
  lastMessagePreview: z.string().nullable(),
  /** Whether free text may be sent now (24-hour window on Meta channels; always on others). */
  canSendFreeText: z.boolean(),
  /** When the 24-hour window closes (Meta channels), null otherwise. */
  windowClosesAt: isoDate.nullable(),
  /** First response time in seconds (first reply after the first customer message), null until then. */
  responseTimeSeconds: z.number().nullable(),
  /** Average time from a customer's first unanswered message to the reply, in seconds; null until a reply. */
  averageResponseSeconds: z.number().nullable(),
  /** The customer's mood over the conversation (from the messages' sentiment); null before any message. */
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  /**
   * What the agent understood (issue 12 §4; optional only for older servers). `request`: one line,
   * what the customer wants now (the summary of their latest message: the knowledge entry matched,
   * else its key phrase). `priorityReason`: what raised the priority (`Keyword “urgent”`,
   * `Negative tone`, `Handed to a person: …`, `Set by a person`), null when nothing did.
   * `escalationReason`: why it was escalated (the AI agent's hand-off reason or a person's).
   * `matchedEntry`: the knowledge the AI agent's latest answer came from (its first source).
   */
  request: z.string().nullable().optional(),
  priorityReason: z.string().nullable().optional(),
  escalationReason: z.string().nullable().optional(),
  matchedEntry: answerSourceView.nullable().optional(),
  /**
   * A lead (issue 14 §1, docs/events.md "Lead signals"): the customer shared an e-mail address or a
   * phone number, or showed purchase intent. The captured details and every signal seen so far.
   */
  isLead: z.boolean(),
  leadEmail: z.string().nullable(),
  leadPhone: z.string().nullable(),
  leadSignals: z.array(z.enum(['email', 'phone', 'purchase_intent'])),
  /** The business marked the lead as converted then ("Mark as converted", docs/client-dashboard.md); null while not. */
  convertedAt: isoDate.nullable().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type ConversationView = z.infer<typeof conversationView>;

export const messageMedia = z.object({
  id: z.string().optional(),
  url: z.string().optional(),
  mimeType: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
});

export const surveyView = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'answered', 'expired']),
  rating: z.number().int().min(1).max(5).nullable(),
  comment: z.string().nullable(),
  answeredAt: isoDate.nullable(),
  /** A pending survey can be answered until then. */
  expiresAt: isoDate,
});
export type SurveyView = z.infer<typeof surveyView>;

export const messageView = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  clientId: z.uuid(),
  clientName: z.string(),
  contactName: z.string().nullable(),
  platform: channelKind,
  direction: z.enum(['inbound', 'outbound']),
  senderType,
  senderId: z.uuid().nullable(),
  senderName: z.string().nullable(),
  content: z.string(),
  messageType,
  media: messageMedia.nullable(),
  status: messageStatus,
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  externalMessageId: z.string().nullable(),
  priority,
  /** Customer messages: what raised the priority (a keyword, the mood, the hand-off); null when nothing did (issue 12; optional for older servers). */
  priorityReason: z.string().nullable().optional(),
  aiSummary: z.string().nullable(),
  aiConfidence: z.number().nullable(),
  /** AI messages: the engine, what the policy decided (answer, handoff, fallback, away, greeting) and the knowledge it used. */
  ai: z
    .object({
      engine: z.string(),
      decision: z.enum(['answer', 'handoff', 'fallback', 'away', 'greeting']),
      sources: z.array(answerSourceView),
      latencyMs: z.number(),
    })
    .nullable(),
  /** Customer messages: sentiment. */
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  read: z.boolean(),
  /** Seconds from this customer message to the next reply in its conversation; null if none yet. */
  responseTimeSeconds: z.number().nullable(),
  /**
   * The satisfaction survey this message asks (a system message) or answers (the customer's), with
   * its state: pending (until `expiresAt`), answered (rating 1–5 and the optional comment) or
   * expired (a later resolution asked again). Null otherwise.
   */
  survey: surveyView.nullable().optional(),
  createdAt: isoDate,
});
export type MessageView = z.infer<typeof messageView>;

export const conversationTab = z.enum(['all', 'active', 'pending', 'escalated', 'resolved']);

export const findConversationsQuery = z.object({
  tab: conversationTab.default('all'),
  search: z.string().trim().max(200).optional(),
  clientId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque cursor from the previous page. */
  cursor: z.string().max(200).optional(),
});
export const conversationCounts = z.object({
  all: z.number().int(),
  active: z.number().int(),
  pending: z.number().int(),
  escalated: z.number().int(),
  resolved: z.number().int(),
  /** Conversations a person handles (the spec's "needs human" tile). */
  human: z.number().int(),
  unread: z.number().int(),
});
/**
 * The message a conversation search matched (full-text, ranked), as an excerpt in plain-text
 * segments; `match` marks the words that matched. Never HTML: the list renders the segments as text.
 */
export const conversationSearchMatch = z.object({
  messageId: z.uuid(),
  segments: z.array(z.object({ text: z.string(), match: z.boolean() })),
});
export type ConversationSearchMatch = z.infer<typeof conversationSearchMatch>;
/** A row of the list: the conversation and, while searching, the message that matched (if one did). */
export const conversationListItem = conversationView.extend({ searchMatch: conversationSearchMatch.nullable().optional() });
export type ConversationListItem = z.infer<typeof conversationListItem>;
export const findConversationsResponse = z.object({
  conversations: z.array(conversationListItem),
  counts: conversationCounts,
  nextCursor: z.string().nullable(),
});

export const updateConversationInput = z
  .object({
    status: conversationStatus.optional(),
    handledBy: handledBy.optional(),
    /** null unassigns. */
    assignedAgentId: z.uuid().nullable().optional(),
    priority: priority.optional(),
    title: z.string().trim().max(200).nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type UpdateConversationInput = z.infer<typeof updateConversationInput>;

/** "Mark as converted" on a lead, or undo it (`PUT /api/v1/conversations/:id/conversion`). */
export const setConversionInput = z.object({ converted: z.boolean({ error: 'Say whether the lead converted' }) });
export type SetConversionInput = z.infer<typeof setConversionInput>;
/** The answer when the conversation is not a lead (409, details.reason `not_a_lead`). */
export const NOT_A_LEAD_MESSAGE = 'Only a lead can be marked as converted.';

export const MESSAGE_MAX = 4096;
export const sendMessageInput = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: 'Message cannot be empty' })
    .max(MESSAGE_MAX, { error: `Message is too long (at most ${MESSAGE_MAX} characters)` }),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

export const startConversationInput = z.object({
  contactId: z.uuid({ error: 'Please select a contact' }),
  text: sendMessageInput.shape.text,
});

export const findThreadQuery = z.object({
  /** Messages created before this message id (older page). */
  before: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const threadResponse = z.object({ messages: z.array(messageView), hasMore: z.boolean() });

export const findContactsQuery = z.object({
  clientId: z.uuid().optional(),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const findContactsResponse = z.object({ contacts: z.array(contactView) });

/** /messages and the dashboard inbox: "all", unread, or a priority. */
export const messageFilter = z.enum(['all', 'unread', 'high', 'medium', 'low']);
export const findMessagesQuery = z.object({
  filter: messageFilter.default('all'),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const findMessagesResponse = z.object({ messages: z.array(messageView), unreadCount: z.number().int() });
/** The CSV export: the same filter and search, every matching message newest first (up to `limit`). */
export const exportMessagesQuery = findMessagesQuery.extend({
  limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
});

export const CONVERSATION_MESSAGES = {
  windowClosed:
    'More than 24 hours have passed since the customer last wrote. This channel only allows template messages now, which are not available yet.',
  businessCannotStart:
    'WhatsApp, Messenger and Instagram only let a business write first with an approved message template. Start conversations there from the customer side, or use website chat or the API channel.',
} as const;
