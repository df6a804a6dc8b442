/**
 * TypeScript view of the tables created by ./migrations (camelCase here, snake_case in SQL; the
 * CamelCasePlugin maps between them). `server/db/schema.test.ts` checks that every column declared
 * here exists in the migrated database.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { AutomationEventTrigger } from '../../common/api/automations';
import type { BlogCategory, BlogPostStatus, ContentSectionKey } from '../../common/api/content';
import type { NotificationPreferences } from '../../common/api/me';
import type { Role } from '../../common/roles';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read as parsed JSON, written as a JSON string (see `json()` in server/db/sql.ts). */
type Json<T> = ColumnType<T, string, string>;

export interface AppSettingsTable {
  key: string;
  value: string;
  createdAt: CreatedAt;
}

export type ClientStatus = 'active' | 'inactive';
export interface ClientsTable {
  id: Generated<string>;
  companyName: string;
  contactPerson: string | null;
  email: string | null;
  phone: string | null;
  status: ColumnType<ClientStatus, ClientStatus | undefined, ClientStatus>;
  /** The client's automation (AI agent, event-triggered automations) is paused since then (0034). */
  automationPausedAt: Timestamp | null;
  /** Who paused it; null once that account is gone (0034). */
  automationPausedBy: string | null;
  /** Whether customers' messages can make this client's conversations leads (0034). */
  leadQualification: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface UsersTable {
  id: Generated<string>;
  fullName: string;
  email: string;
  emailVerified: ColumnType<boolean, boolean | undefined, boolean>;
  avatarUrl: string | null;
  phone: string | null;
  company: string | null;
  twoFactorEnabled: ColumnType<boolean, boolean | undefined, boolean>;
  clientId: string | null;
  notificationPreferences: ColumnType<NotificationPreferences, string | undefined, string>;
  lastLoginAt: Timestamp | null;
  disabledAt: Timestamp | null;
  /** Last heartbeat of a realtime connection (chat presence). */
  lastSeenAt: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  userId: string;
  token: string;
  expiresAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface AccountsTable {
  id: Generated<string>;
  userId: string;
  accountId: string;
  providerId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface VerificationsTable {
  id: Generated<string>;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface TwoFactorsTable {
  id: Generated<string>;
  userId: string;
  secret: string;
  backupCodes: string;
  verified: boolean | null;
  failedVerificationCount: number | null;
  lockedUntil: Timestamp | null;
}

export interface UserRolesTable {
  userId: string;
  role: Role;
  assignedBy: string | null;
  assignedAt: UpdatedAt;
}

export interface RoleChangesTable {
  id: Generated<string>;
  userId: string;
  oldRole: Role | null;
  newRole: Role;
  assignedBy: string | null;
  createdAt: CreatedAt;
}

export interface LoginAttemptsTable {
  email: string;
  failedCount: number;
  windowStartedAt: Timestamp | null;
  lastFailedAt: Timestamp | null;
  lockedUntil: Timestamp | null;
  severity: number;
  updatedAt: UpdatedAt;
}

export type SecuritySeverity = 'info' | 'warning' | 'critical';
export interface SecurityEventsTable {
  id: Generated<string>;
  type: string;
  severity: ColumnType<SecuritySeverity, SecuritySeverity | undefined, SecuritySeverity>;
  userId: string | null;
  email: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  createdAt: CreatedAt;
}

export type EmailStatus = 'queued' | 'sent' | 'stored' | 'failed';
export interface EmailsTable {
  id: Generated<string>;
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  status: ColumnType<EmailStatus, EmailStatus | undefined, EmailStatus>;
  transport: 'smtp' | 'outbox' | null;
  attempts: ColumnType<number, number | undefined, number>;
  lastError: string | null;
  providerMessageId: string | null;
  createdAt: CreatedAt;
  sentAt: Timestamp | null;
  /** Extra headers (List-Unsubscribe, Reply-To); cleared once SMTP delivered the message, like its body. */
  headers: ColumnType<Record<string, string>, string | undefined, string> | null;
}

/** Contact form messages (server/modules/contact). */
export interface ContactMessagesTable {
  id: Generated<string>;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  message: string;
  createdAt: CreatedAt;
  readAt: Timestamp | null;
  readBy: string | null;
}

/** Parley's e-mailed answers to a contact message; `emailId` is the outbox row that carried it. */
export interface ContactRepliesTable {
  id: Generated<string>;
  messageId: string;
  body: string;
  sentAt: ColumnType<Date, Date | string | undefined, Date | string>;
  sentBy: string | null;
  emailId: string | null;
}

export type NewsletterStatus = 'pending' | 'subscribed' | 'unsubscribed';
/** Newsletter addresses (double opt-in); tokens only as sha256 hex. */
export interface NewsletterSubscribersTable {
  id: Generated<string>;
  email: string;
  status: ColumnType<NewsletterStatus, NewsletterStatus | undefined, NewsletterStatus>;
  confirmTokenHash: string | null;
  confirmExpiresAt: Timestamp | null;
  confirmSentAt: Timestamp | null;
  unsubscribeTokenHash: string;
  createdAt: CreatedAt;
  confirmedAt: Timestamp | null;
  unsubscribedAt: Timestamp | null;
}

/** The public forms' per-IP counters (key: purpose and an HMAC of the IP). */
export interface ContactRateLimitsTable {
  key: string;
  windowStartedAt: Timestamp;
  hits: number;
}

export interface NotificationsTable {
  id: Generated<string>;
  userId: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  readAt: Timestamp | null;
  createdAt: CreatedAt;
}

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';
/** A recurring job's period that ran to the end (server/jobs/schedule.ts). */
export interface ScheduledRunsTable {
  name: string;
  period: string;
  ranAt: ColumnType<Date, Date | string | undefined, never>;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: Json<unknown>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  maxAttempts: ColumnType<number, number | undefined, number>;
  runAt: ColumnType<Date, Date | string | undefined, Date | string>;
  lockedUntil: Timestamp | null;
  lockedBy: string | null;
  lastError: string | null;
  singletonKey: string | null;
  /** At most one queued job per (name, key): a later one is not inserted while it waits (0026). */
  coalesceKey: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  completedAt: Timestamp | null;
}

/** The public events' outbox (server/modules/events, common/api/events.ts). */
export interface EventsTable {
  id: Generated<string>;
  /** bigserial (int8 reads as a number; the service hands it on as text). */
  seq: ColumnType<number, never, never>;
  type: string;
  /** Makes a retried materialiser job a no-op: one source, one event of a type. */
  dedupeKey: string;
  clientId: string | null;
  conversationId: string | null;
  performedBy: Json<unknown>;
  envelope: Json<unknown>;
  createdAt: CreatedAt;
}

export type ChannelKind = 'whatsapp' | 'messenger' | 'instagram' | 'webchat' | 'api';
export type ChannelStatus = 'active' | 'disabled';
export interface ChannelsTable {
  id: Generated<string>;
  clientId: string;
  kind: ChannelKind;
  name: string;
  status: ColumnType<ChannelStatus, ChannelStatus | undefined, ChannelStatus>;
  externalId: string | null;
  callbackUrl: string | null;
  secrets: string | null;
  verifyTokenHash: string | null;
  appSecretHash: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface ContactsTable {
  id: Generated<string>;
  clientId: string;
  channelId: string;
  externalId: string;
  name: string | null;
  avatarUrl: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export type ConversationStatus = 'active' | 'pending' | 'escalated' | 'resolved';
export type HandledBy = 'ai' | 'human';
export type Priority = 'low' | 'medium' | 'high';
export interface ConversationsTable {
  id: Generated<string>;
  clientId: string;
  channelId: string;
  contactId: string;
  userId: string | null;
  title: string | null;
  status: ColumnType<ConversationStatus, ConversationStatus | undefined, ConversationStatus>;
  handledBy: ColumnType<HandledBy, HandledBy | undefined, HandledBy>;
  assignedAgentId: string | null;
  externalConversationId: string | null;
  priority: ColumnType<Priority, Priority | undefined, Priority>;
  /** What raised the priority (a keyword, the mood, the hand-off, a person); null when nothing did. */
  priorityReason: string | null;
  /** Why it was escalated: the AI agent's hand-off reason, or a person's. */
  escalationReason: string | null;
  aiSummary: string | null;
  unreadCount: ColumnType<number, number | undefined, number>;
  lastMessageAt: Timestamp | null;
  lastMessagePreview: string | null;
  lastInboundAt: Timestamp | null;
  firstResponseAt: Timestamp | null;
  /** The first customer message not answered yet (response times). */
  awaitingSince: Timestamp | null;
  responseCount: ColumnType<number, number | undefined, number>;
  responseSecondsTotal: ColumnType<number, number | undefined, number>;
  /** Average sentiment of the customer's messages, -1..1. */
  sentiment: number | null;
  /** A lead: the customer shared an e-mail address or phone number, or showed purchase intent (docs/events.md). */
  isLead: ColumnType<boolean, boolean | undefined, boolean>;
  leadEmail: string | null;
  leadPhone: string | null;
  /** The signals seen so far: 'email' | 'phone' | 'purchase_intent'. */
  leadSignals: ColumnType<LeadSignal[], string | undefined, string>;
  /** When it became a lead (the first signal). */
  leadAt: Timestamp | null;
  /** The business marked the lead as converted then (0034); only a lead can be. */
  convertedAt: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export type LeadSignal = 'email' | 'phone' | 'purchase_intent';

export type MessageDirection = 'inbound' | 'outbound';
export type SenderType = 'customer' | 'ai' | 'agent' | 'system';
export type MessageType = 'text' | 'image' | 'audio' | 'video' | 'document' | 'location' | 'sticker' | 'reaction' | 'unsupported';
/** `unknown`: a send interrupted between its start and its result (a crash) — not repeated blindly. */
export type MessageStatus = 'received' | 'queued' | 'unknown' | 'sent' | 'delivered' | 'read' | 'failed';
export interface MessageMedia {
  /** The platform's media id (WhatsApp) or URL (Messenger/Instagram attachments). */
  id?: string;
  url?: string;
  mimeType?: string;
  caption?: string;
  sha256?: string;
  filename?: string;
  latitude?: number;
  longitude?: number;
}
export interface MessagesTable {
  id: Generated<string>;
  conversationId: string;
  clientId: string;
  channelId: string;
  direction: MessageDirection;
  senderType: SenderType;
  senderId: string | null;
  content: ColumnType<string, string | undefined, string>;
  messageType: ColumnType<MessageType, MessageType | undefined, MessageType>;
  media: ColumnType<MessageMedia, string | undefined, string> | null;
  status: MessageStatus;
  errorCode: string | null;
  errorMessage: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  externalMessageId: string | null;
  priority: ColumnType<Priority, Priority | undefined, Priority>;
  /** Customer messages: what raised the priority (a keyword, the mood, the hand-off); null when nothing did. */
  priorityReason: string | null;
  aiSummary: string | null;
  aiConfidence: number | null;
  /** AI messages: what produced them (engine, decision, sources, latency, usage). */
  ai: ColumnType<AiMessageInfo, string | undefined, string> | null;
  /** Customer messages: sentiment -1..1. */
  sentiment: number | null;
  readAt: Timestamp | null;
  sentAt: Timestamp | null;
  deliveredAt: Timestamp | null;
  seenAt: Timestamp | null;
  /** Set right before the platform call, cleared with its result: still set after a crash = outcome unknown. */
  sendStartedAt: Timestamp | null;
  /** The satisfaction survey this message asks (a system message) or answers (the customer's), 0028. */
  surveyId: string | null;
  createdAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type InboundProvider = 'whatsapp' | 'messenger' | 'instagram' | 'api' | 'webchat';
export interface InboundEventsTable {
  id: Generated<number>;
  provider: InboundProvider;
  channelIds: ColumnType<string[], string[], string[]>;
  body: string;
  receivedAt: CreatedAt;
  processedAt: Timestamp | null;
  error: string | null;
}

export interface ChannelDeliveriesTable {
  id: Generated<number>;
  channelId: string;
  messageId: string | null;
  attempt: number;
  url: string;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: ColumnType<number, number | undefined, number>;
  createdAt: CreatedAt;
}

export interface ChatThreadsTable {
  id: Generated<string>;
  createdBy: string | null;
  lastMessageAt: Timestamp | null;
  lastMessagePreview: string | null;
  createdAt: CreatedAt;
}

export interface ChatParticipantsTable {
  threadId: string;
  userId: string;
  lastReadAt: Timestamp | null;
}

export interface ChatMessagesTable {
  id: Generated<string>;
  threadId: string;
  senderId: string | null;
  body: string;
  createdAt: CreatedAt;
}

export type AgentEngine = 'embedded' | 'openai' | 'anthropic' | 'openai-compatible';
export type AgentLlmMode = 'embedded-first' | 'llm';

export interface AiMessageInfo {
  engine: AgentEngine;
  model: string;
  /** answer: the engine's reply; handoff / fallback / away / greeting: the configured text. */
  decision: 'answer' | 'handoff' | 'fallback' | 'away' | 'greeting';
  confidence: number | null;
  sources: { kind: 'faq' | 'article'; id: string; title: string; link?: string | null }[];
  latencyMs: number;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  fallbackReason?: string;
  knowledgeVersion: number | null;
}

export interface BusinessHoursJson {
  timezone: string;
  days: { day: number; open: string; close: string }[];
}

export interface AgentsTable {
  id: Generated<string>;
  clientId: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  confidenceThreshold: ColumnType<number, number | undefined, number>;
  escalationEnabled: ColumnType<boolean, boolean | undefined, boolean>;
  responseDelaySeconds: ColumnType<number, number | undefined, number>;
  disabledChannelIds: ColumnType<string[], string | undefined, string>;
  businessHours: ColumnType<BusinessHoursJson, string | undefined, string> | null;
  outsideHours: ColumnType<'answer' | 'away', 'answer' | 'away' | undefined, 'answer' | 'away'>;
  greetingText: string;
  handoffText: string;
  fallbackText: string;
  awayText: string;
  engine: ColumnType<AgentEngine, AgentEngine | undefined, AgentEngine>;
  /** With an LLM engine: embedded first, the LLM only below the threshold; or the LLM for every question (0011). */
  llmMode: ColumnType<AgentLlmMode, AgentLlmMode | undefined, AgentLlmMode>;
  llmModel: string | null;
  llmBaseUrl: string | null;
  llmApiKeySealed: string | null;
  /** Ask customers for a rating when a conversation is resolved (0028). */
  csatEnabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** The rating request's question; null: Parley's default. */
  csatQuestion: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export type TrainingStatus = 'idle' | 'queued' | 'training' | 'failed';

export interface KnowledgeBasesTable {
  clientId: string;
  version: ColumnType<number, number | undefined, number>;
  liveVersion: number | null;
  liveAt: Timestamp | null;
  trainingStatus: ColumnType<TrainingStatus, TrainingStatus | undefined, TrainingStatus>;
  trainingProgress: ColumnType<number, number | undefined, number>;
  trainingError: string | null;
  updatedAt: UpdatedAt;
}

export interface KnowledgeEntriesTable {
  id: Generated<string>;
  clientId: string;
  questions: Json<string[]>;
  answer: string;
  link: string | null;
  createdAt: ColumnType<Date, Date | string | undefined, never>;
  updatedAt: UpdatedAt;
}

export interface KnowledgeArticlesTable {
  id: Generated<string>;
  clientId: string;
  title: string;
  body: string;
  createdAt: ColumnType<Date, Date | string | undefined, never>;
  updatedAt: UpdatedAt;
}

export interface AgentModelMetrics {
  entries: number;
  examples: number;
  trainingMs: number;
  accuracy: number | null;
  /** The held-out example questions the accuracy was measured on (absent on versions trained before issue 12). */
  accuracyQuestions?: number | null;
}

export interface AgentModelsTable {
  clientId: string;
  version: number;
  knowledge: Json<{ entries: { id: string; questions: string[]; answer: string; link: string | null }[]; articles: { id: string; title: string; body: string }[] }>;
  model: Json<unknown>;
  metrics: Json<AgentModelMetrics>;
  trainedAt: CreatedAt;
}

/** The n8n instance this installation drives (0015; one row, owned by the n8n module). */
export interface N8nConnectionsTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  baseUrl: string;
  /** Sealed with SECRETS_KEY, never returned. */
  apiKeySealed: string;
  updatedBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  lastTestOk: boolean | null;
  lastTestMessage: string | null;
  lastTestWorkflowCount: number | null;
  lastTestedAt: Timestamp | null;
}

/** What server/db/routines.ts applied: one row per SQL routine source file. */
export interface SqlRoutinesTable {
  name: string;
  hash: string;
  appliedAt: Timestamp;
}

export type AutomationStatus = 'active' | 'paused' | 'inactive' | 'error';
export type AutomationExecutionStatus = 'success' | 'error' | 'running' | 'waiting' | 'canceled';
export type AutomationStartedHow = 'manual' | 'template' | 'api' | 'schedule' | 'event';

export interface AutomationsTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  workflowId: string | null;
  workflowUrl: string | null;
  status: ColumnType<AutomationStatus, AutomationStatus | undefined, AutomationStatus>;
  config: ColumnType<Record<string, unknown>, string | undefined, string>;
  clientId: string | null;
  createdBy: string | null;
  /** Sealed (server/lib/secret-box.ts). */
  signingSecret: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  /** Generated from `config.triggers` (migration 0019): the event types that may start it. */
  triggerEvents: ColumnType<string[], never, never>;
}

export interface AutomationExecutionsTable {
  id: Generated<string>;
  automationId: string;
  status: ColumnType<AutomationExecutionStatus, AutomationExecutionStatus | undefined, AutomationExecutionStatus>;
  startedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  finishedAt: Timestamp | null;
  durationMs: number | null;
  errorMessage: string | null;
  executionId: string | null;
  startedHow: ColumnType<AutomationStartedHow, AutomationStartedHow | undefined, AutomationStartedHow>;
  startedBy: string | null;
  callbackTokenHash: string;
  callbackTokenExpiresAt: Timestamp | null;
  lastHeardAt: ColumnType<Date, Date | string | undefined, Date | string>;
  triggeredAt: Timestamp | null;
  /** The public event that started it (started_how 'event', migration 0019). */
  triggerEventId: string | null;
  triggerEventType: string | null;
  /** The event's envelope, sent as the request's `trigger.data`. */
  triggerEvent: Json<Record<string, unknown>> | null;
}

export interface AutomationMessagesTable {
  id: Generated<string>;
  automationId: string;
  executionId: string | null;
  messageType: ColumnType<string, string | undefined, string>;
  stepName: string | null;
  content: string;
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  timestamp: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type WorkflowKind = 'n8n' | 'zapier';
export type WorkflowStatus = 'draft' | 'active' | 'paused';
/** n8n workflows and Zapier zaps (migration 0014). */
export interface WorkflowsTable {
  id: Generated<string>;
  kind: WorkflowKind;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  status: ColumnType<WorkflowStatus, WorkflowStatus | undefined, WorkflowStatus>;
  webhookUrl: string;
  /** text[]: zaps only. */
  appIntegrations: ColumnType<string[], string[] | undefined, string[]>;
  /** The linked workflow's id on the connected n8n instance. */
  n8nWorkflowId: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface WorkflowClientsTable {
  workflowId: string;
  clientId: string;
  assignedAt: CreatedAt;
}

export interface TemplateWorkflowConfig {
  webhookUrl: string;
  /** `{event, filters?}` (common/api/automations.ts `automationEventTrigger`; strings before migration 0019). */
  triggers: AutomationEventTrigger[];
}
export interface TemplatesTable {
  id: Generated<string>;
  type: WorkflowKind;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  status: ColumnType<WorkflowStatus, WorkflowStatus | undefined, WorkflowStatus>;
  workflowConfig: Json<TemplateWorkflowConfig>;
  /** An importable n8n workflow (n8n templates only). */
  n8nWorkflowJson: Json<Record<string, unknown>> | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface TemplateClientsTable {
  templateId: string;
  clientId: string;
  assignedAt: CreatedAt;
  /** The automation the assignment created (owned by the automations module; no foreign key). */
  automationId: string | null;
}

export interface ApiKeysTable {
  id: Generated<string>;
  userId: string;
  name: string;
  service: ColumnType<boolean, boolean | undefined, boolean>;
  prefix: string;
  keyHash: string;
  scopes: ColumnType<string[], string[], string[]>;
  expiresAt: Timestamp | null;
  createdAt: CreatedAt;
  lastUsedAt: Timestamp | null;
  lastUsedIp: string | null;
  revokedAt: Timestamp | null;
  revokedBy: string | null;
}

export type WebhookSubscriptionStatus = 'active' | 'inactive';
export type WebhookSubscriptionSource = 'portal' | 'rest_hook';
export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** Outbound webhook subscriptions (migration 0017, server/modules/hooks). */
export interface WebhookSubscriptionsTable {
  id: Generated<string>;
  name: string;
  url: string;
  /** null: every event type. */
  events: ColumnType<string[], string, string> | null;
  clientId: string | null;
  status: ColumnType<WebhookSubscriptionStatus, WebhookSubscriptionStatus | undefined, WebhookSubscriptionStatus>;
  disabledReason: string | null;
  source: ColumnType<WebhookSubscriptionSource, WebhookSubscriptionSource | undefined, WebhookSubscriptionSource>;
  createdBy: string | null;
  /** Sealed (server/lib/secret-box.ts). */
  signingSecret: string;
  secretPrefix: string;
  lastTriggeredAt: Timestamp | null;
  totalCalls: ColumnType<number, number | undefined, number>;
  successCount: ColumnType<number, number | undefined, number>;
  failureCount: ColumnType<number, number | undefined, number>;
  consecutiveFailures: ColumnType<number, number | undefined, number>;
  failingSince: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  subscriptionId: string;
  eventId: string | null;
  eventType: string;
  conversationId: string | null;
  seq: ColumnType<number, string | number, string | number> | null;
  body: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  firstAttemptAt: Timestamp | null;
  nextAttemptAt: Timestamp | null;
  lastStatus: number | null;
  lastError: string | null;
  finishedAt: Timestamp | null;
  redeliveryOf: string | null;
  jobToken: string | null;
  parked: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<string>;
  deliveryId: string;
  attemptedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  requestHeaders: ColumnType<Record<string, string>, string | undefined, string>;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

/** Page content sections (migration 0023, server/modules/content): the stored version of each section. */
export interface ContentSectionsTable {
  section: ContentSectionKey;
  data: Json<Record<string, unknown>>;
  version: number;
  updatedAt: UpdatedAt;
  updatedBy: string | null;
}

export type ContentRevisionKind = 'save' | 'reset' | 'restore';
/** Every version a section had (save, reset to defaults, restore of an earlier one). */
export interface ContentRevisionsTable {
  id: Generated<string>;
  section: ContentSectionKey;
  version: number;
  kind: ContentRevisionKind;
  restoredFrom: number | null;
  data: Json<Record<string, unknown>>;
  createdAt: CreatedAt;
  createdBy: string | null;
}

/** The landing page's stats (spec part 1 §3 hero stat). */
export interface HeroStatsTable {
  id: Generated<string>;
  number: string;
  label: string;
  orderPosition: number;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface BlogPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  category: BlogCategory;
  image: string;
  body: ColumnType<string, string | undefined, string>;
  /** The body rendered and sanitised at save; null only for a never-saved draft (the seeded samples). */
  bodyHtml: string | null;
  status: ColumnType<BlogPostStatus, BlogPostStatus | undefined, BlogPostStatus>;
  publishedAt: Timestamp | null;
  version: ColumnType<number, number | undefined, number>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  createdBy: string | null;
  updatedBy: string | null;
}

/** One row, bumped by every content write (the rendered-page cache's version). */
export interface ContentStateTable {
  id: ColumnType<number, number | undefined, never>;
  version: ColumnType<number, number | undefined, number>;
  updatedAt: UpdatedAt;
}

/** Who answered a conversation first (server/modules/insights, docs/insights.md). */
export type FirstResponder = 'ai' | 'person';
/** One row per conversation: its service levels, recomputed from the stored facts (0027). */
export interface ConversationServiceLevelsTable {
  conversationId: string;
  clientId: string;
  channelKind: ChannelKind;
  /** The conversation's. */
  createdAt: ColumnType<Date, Date | string, Date | string>;
  firstInboundAt: Timestamp | null;
  firstResponseAt: Timestamp | null;
  firstResponder: FirstResponder | null;
  firstResponseSeconds: number | null;
  firstResponseBusinessSeconds: number | null;
  /** The latest resolution while resolved; null while open. */
  resolvedAt: Timestamp | null;
  resolutionSeconds: number | null;
  resolutionBusinessSeconds: number | null;
  automated: ColumnType<boolean, boolean | undefined, boolean>;
  handoffs: ColumnType<number, number | undefined, number>;
  reopenings: ColumnType<number, number | undefined, number>;
  personReplies: ColumnType<number, number | undefined, number>;
  aiReplies: ColumnType<number, number | undefined, number>;
  customerMessages: ColumnType<number, number | undefined, number>;
  /** Answered satisfaction surveys, the sum of their ratings and those rated 4 or 5 (0028). */
  ratings: ColumnType<number, number | undefined, number>;
  ratingSum: ColumnType<number, number | undefined, number>;
  satisfied: ColumnType<number, number | undefined, number>;
  /** The person it is counted for: its assignee, else the first person who replied; null: none. */
  agentId: string | null;
  updatedAt: UpdatedAt;
}

export type ServiceLevelEventKind = 'handoff' | 'reopening' | 'resolution';
/** Hand-offs, reopenings and resolutions as the insights module recorded them, once per job (0027). */
export interface ServiceLevelEventsTable {
  /** The `insights.service-level` job that recorded it: a job run twice records it once. */
  jobId: number;
  conversationId: string;
  kind: ServiceLevelEventKind;
  at: ColumnType<Date, Date | string, Date | string>;
}

/** A conversation whose service levels are due to be recomputed (0038; `parley_insights_mark`, the `insights.recompute` job). */
export interface ServiceLevelMarksTable {
  conversationId: string;
  /** Moved on by every mark of a conversation already marked: a recompute clears only the version it read. */
  version: ColumnType<string | number, never, never>;
  /** Recompute from the facts (0039); false: the counts below are all that changed. */
  recompute: ColumnType<boolean, boolean | undefined, boolean>;
  customerMessages: ColumnType<number, number | undefined, number>;
  aiReplies: ColumnType<number, number | undefined, number>;
}

/** Per client and UTC day of the conversations' creation, the sums of their service levels (0027). */
export interface ServiceLevelDailyTable {
  clientId: string;
  /** A `date`: select it as text (`day::text`); the two drivers read dates differently. */
  day: ColumnType<Date | string, string, string>;
  conversations: ColumnType<number, number | undefined, number>;
  answered: ColumnType<number, number | undefined, number>;
  firstResponseSecondsSum: ColumnType<number, number | undefined, number>;
  firstResponseBusinessSecondsSum: ColumnType<number, number | undefined, number>;
  resolved: ColumnType<number, number | undefined, number>;
  resolutionSecondsSum: ColumnType<number, number | undefined, number>;
  resolutionBusinessSecondsSum: ColumnType<number, number | undefined, number>;
  automated: ColumnType<number, number | undefined, number>;
  /** Conversations with at least one hand-off. */
  handedOff: ColumnType<number, number | undefined, number>;
  handoffs: ColumnType<number, number | undefined, number>;
  reopenings: ColumnType<number, number | undefined, number>;
  /** Every message of the day's conversations: the customer's, the AI's and people's. */
  messages: ColumnType<number, number | undefined, number>;
  /** The day's conversations' ratings: how many, their sum, how many were 4 or 5 (0028). */
  ratings: ColumnType<number, number | undefined, number>;
  ratingSum: ColumnType<number, number | undefined, number>;
  satisfied: ColumnType<number, number | undefined, number>;
  updatedAt: UpdatedAt;
}

export type SurveyStatus = 'pending' | 'answered' | 'expired';
/** A rating request per resolution and its answer (0028, owned by the messaging module). */
export interface SatisfactionSurveysTable {
  id: Generated<string>;
  clientId: string;
  conversationId: string;
  channelId: string;
  /** The resolution it asks about. */
  resolvedAt: ColumnType<Date, Date | string, Date | string>;
  question: string;
  status: ColumnType<SurveyStatus, SurveyStatus | undefined, SurveyStatus>;
  rating: number | null;
  comment: string | null;
  answeredAt: Timestamp | null;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  createdAt: CreatedAt;
}

/** A read-only link to one period's AI Summary (0031, owned by the insights module); only the token's sha256 is kept. */
export interface SummarySharesTable {
  id: Generated<string>;
  tokenHash: string;
  createdBy: string;
  /** null: every client. */
  clientId: string | null;
  periodKind: 'custom' | '24h' | '7d' | '30d';
  /** The period the summary covers, frozen when the link was made. */
  periodFrom: Timestamp;
  periodTo: Timestamp;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
}

/** Production readiness (0030, owned by the readiness module; docs/readiness.md). */
export type ReadinessStatus = 'complete' | 'needs-attention' | 'critical';
/** An item that got worse than in the run before. */
export interface ReadinessChange {
  key: string;
  from: ReadinessStatus;
  to: ReadinessStatus;
}
export interface ReadinessRunsTable {
  id: Generated<number>;
  checkedAt: CreatedAt;
  trigger: 'page' | 'daily';
  score: number;
  complete: number;
  attention: number;
  critical: number;
  worsened: ColumnType<ReadinessChange[], string | undefined, string>;
  notifiedAt: Timestamp | null;
}
export interface ReadinessItemsTable {
  key: string;
  category: string;
  status: ReadinessStatus;
  reason: string;
  checkedAt: Timestamp;
  statusSince: Timestamp;
}
export interface ReadinessTestEmailsTable {
  emailId: string;
  smtpFingerprint: string;
  sentTo: string;
  requestedBy: string | null;
  createdAt: CreatedAt;
}

/** A report e-mailed to one person for one period (0032, owned by the report-emails module; docs/insights.md). */
export interface ReportDeliveriesTable {
  kind: 'daily' | 'weekly';
  /** The period the report covers: `2026-11-27`, `2026-W48`. */
  period: string;
  userId: string;
  /** Whose figures it carried; null: every client. */
  clientId: string | null;
  emailId: string | null;
  createdAt: CreatedAt;
}

/** One error alert that went out: its cause and UTC day (0036, the notifications module's). */
export interface ErrorAlertsTable {
  /** `job:<name>` or `webhook:<subscription id>`. */
  cause: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  title: string;
  createdAt: CreatedAt;
}

/** Onboarding (0033, owned by the onboarding module; docs/onboarding.md). */
export type OnboardingRequestStatus = 'pending' | 'approved' | 'declined';
/** What the approval did with the applicant's account: linked it, invited the address, or neither (a staff account, another client's). */
export type OnboardingAccountOutcome = 'linked' | 'invited' | 'not-linked';
export interface OnboardingRequestsTable {
  id: Generated<string>;
  offerId: 'instagram-dm' | 'facebook-leads' | 'whatsapp-business';
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  industry: 'restaurant' | 'retail' | 'healthcare' | 'education' | 'real-estate' | 'other';
  /** The applicant's browser time zone (the agent's business hours are in it). */
  timeZone: ColumnType<string, string | undefined, string>;
  /** The signed-in account that sent it. */
  userId: string | null;
  status: ColumnType<OnboardingRequestStatus, OnboardingRequestStatus | undefined, OnboardingRequestStatus>;
  decidedAt: Timestamp | null;
  decidedBy: string | null;
  declineReason: string | null;
  /** The client the approval created. */
  clientId: string | null;
  /** The template the approval applied (the workflows module's; no foreign key) and its name then. */
  templateId: string | null;
  templateName: string | null;
  /** The automation that template gave the client (the automations module's; no foreign key). */
  automationId: string | null;
  accountOutcome: OnboardingAccountOutcome | null;
  createdAt: CreatedAt;
}
export interface OnboardingOfferTemplatesTable {
  offerId: 'instagram-dm' | 'facebook-leads' | 'whatsapp-business';
  templateId: string;
  updatedBy: string | null;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}
export interface ClientInvitationsTable {
  id: Generated<string>;
  clientId: string;
  email: string;
  tokenHash: string;
  invitedBy: string | null;
  onboardingRequestId: string | null;
  createdAt: CreatedAt;
  /** When the current link was sent (resending renews it). */
  sentAt: Timestamp;
  expiresAt: Timestamp;
  acceptedAt: Timestamp | null;
  acceptedUserId: string | null;
  revokedAt: Timestamp | null;
}

/** Billing (0037, owned by the billing module; docs/billing.md). Dates (`date` columns) are read as text (`::text`). */
export interface SubscriptionsTable {
  clientId: string;
  offerId: 'instagram-dm' | 'facebook-leads' | 'whatsapp-business';
  priceMinor: number;
  currency: string;
  startedAt: Timestamp;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}
export interface InvoiceCountersTable {
  year: number;
  lastNumber: ColumnType<number, number | undefined, number>;
}
export type InvoiceStatus = 'open' | 'overdue' | 'paid' | 'void';
export interface InvoicesTable {
  id: Generated<string>;
  number: string;
  numberYear: number;
  numberSeq: number;
  clientId: string;
  /** `YYYY-MM`. */
  period: string;
  /** `date`: select as text. */
  periodStart: ColumnType<Date | string, string, string>;
  periodEnd: ColumnType<Date | string, string, string>;
  offerId: 'instagram-dm' | 'facebook-leads' | 'whatsapp-business';
  description: string;
  amountMinor: number;
  paidMinor: ColumnType<number, number | undefined, number>;
  currency: string;
  issuedOn: ColumnType<Date | string, string, string>;
  dueOn: ColumnType<Date | string, string, string>;
  status: ColumnType<InvoiceStatus, InvoiceStatus | undefined, InvoiceStatus>;
  overdueAt: Timestamp | null;
  paidAt: Timestamp | null;
  voidedAt: Timestamp | null;
  voidedBy: string | null;
  voidReason: string | null;
  createdAt: CreatedAt;
}
export interface InvoicePaymentsTable {
  id: Generated<string>;
  invoiceId: string;
  amountMinor: number;
  currency: string;
  paidOn: ColumnType<Date | string, string, string>;
  note: string | null;
  recordedBy: string | null;
  createdAt: CreatedAt;
}
export interface InvoiceRemindersTable {
  invoiceId: string;
  recipients: ColumnType<number, number | undefined, number>;
  createdAt: CreatedAt;
}

export interface DB {
  apiKeys: ApiKeysTable;
  webhookSubscriptions: WebhookSubscriptionsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookDeliveryAttempts: WebhookDeliveryAttemptsTable;
  automations: AutomationsTable;
  automationExecutions: AutomationExecutionsTable;
  automationMessages: AutomationMessagesTable;
  agents: AgentsTable;
  knowledgeBases: KnowledgeBasesTable;
  knowledgeEntries: KnowledgeEntriesTable;
  knowledgeArticles: KnowledgeArticlesTable;
  agentModels: AgentModelsTable;
  appSettings: AppSettingsTable;
  clients: ClientsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  twoFactors: TwoFactorsTable;
  userRoles: UserRolesTable;
  roleChanges: RoleChangesTable;
  loginAttempts: LoginAttemptsTable;
  securityEvents: SecurityEventsTable;
  errorAlerts: ErrorAlertsTable;
  emails: EmailsTable;
  notifications: NotificationsTable;
  jobs: JobsTable;
  events: EventsTable;
  channels: ChannelsTable;
  contacts: ContactsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  inboundEvents: InboundEventsTable;
  channelDeliveries: ChannelDeliveriesTable;
  chatThreads: ChatThreadsTable;
  chatParticipants: ChatParticipantsTable;
  chatMessages: ChatMessagesTable;
  sqlRoutines: SqlRoutinesTable;
  workflows: WorkflowsTable;
  workflowClients: WorkflowClientsTable;
  templates: TemplatesTable;
  templateClients: TemplateClientsTable;
  n8nConnections: N8nConnectionsTable;
  contentSections: ContentSectionsTable;
  contentRevisions: ContentRevisionsTable;
  heroStats: HeroStatsTable;
  blogPosts: BlogPostsTable;
  contentState: ContentStateTable;
  contactMessages: ContactMessagesTable;
  contactReplies: ContactRepliesTable;
  newsletterSubscribers: NewsletterSubscribersTable;
  contactRateLimits: ContactRateLimitsTable;
  conversationServiceLevels: ConversationServiceLevelsTable;
  serviceLevelEvents: ServiceLevelEventsTable;
  serviceLevelDaily: ServiceLevelDailyTable;
  serviceLevelMarks: ServiceLevelMarksTable;
  satisfactionSurveys: SatisfactionSurveysTable;
  scheduledRuns: ScheduledRunsTable;
  reportDeliveries: ReportDeliveriesTable;
  summaryShares: SummarySharesTable;
  readinessRuns: ReadinessRunsTable;
  readinessItems: ReadinessItemsTable;
  readinessTestEmails: ReadinessTestEmailsTable;
  onboardingRequests: OnboardingRequestsTable;
  onboardingOfferTemplates: OnboardingOfferTemplatesTable;
  clientInvitations: ClientInvitationsTable;
  subscriptions: SubscriptionsTable;
  invoiceCounters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoicePayments: InvoicePaymentsTable;
  invoiceReminders: InvoiceRemindersTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Client = Selectable<ClientsTable>;
export type Job = Selectable<JobsTable>;
export type Email = Selectable<EmailsTable>;
export type Notification = Selectable<NotificationsTable>;
export type Channel = Selectable<ChannelsTable>;
export type Contact = Selectable<ContactsTable>;
export type Conversation = Selectable<ConversationsTable>;
export type Message = Selectable<MessagesTable>;
export type Agent = Selectable<AgentsTable>;
export type KnowledgeEntryRow = Selectable<KnowledgeEntriesTable>;
export type KnowledgeArticleRow = Selectable<KnowledgeArticlesTable>;
export type KnowledgeBaseRow = Selectable<KnowledgeBasesTable>;
