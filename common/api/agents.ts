/**
 * AI agents and their knowledge bases (server: server/modules/agents). One agent per client for
 * now; every client has one (defaults until an admin changes it). Reading: admins and managers
 * any client, client users their own (another client's id answers 404). Changing: admins.
 *
 *   GET    /api/v1/agents                                  -> findAgentsResponse
 *   GET    /api/v1/clients/:clientId/agent                 -> agentView
 *   PUT    /api/v1/clients/:clientId/agent                 updateAgentInput -> agentView (admin)
 *   POST   /api/v1/clients/:clientId/agent/try             tryAgentInput -> tryAgentResult (admin, manager)
 *   GET    /api/v1/clients/:clientId/agent/stats?days=     -> agentStats (answers by engine, hand-offs, LLM cost)
 *   GET    /api/v1/clients/:clientId/knowledge?search=     -> knowledgeView
 *   POST   /api/v1/clients/:clientId/knowledge/entries     knowledgeEntryInput -> knowledgeEntry (201, admin)
 *   PUT    /api/v1/knowledge/entries/:id                   knowledgeEntryInput -> knowledgeEntry (admin)
 *   DELETE /api/v1/knowledge/entries/:id                   -> 204 (admin)
 *   POST   /api/v1/clients/:clientId/knowledge/articles    knowledgeArticleInput -> knowledgeArticle (201, admin)
 *   PUT    /api/v1/knowledge/articles/:id                  knowledgeArticleInput -> knowledgeArticle (admin)
 *   DELETE /api/v1/knowledge/articles/:id                  -> 204 (admin)
 *   POST   /api/v1/clients/:clientId/knowledge/import      knowledgeImportInput -> knowledgeImportResult (admin)
 *   GET    /api/v1/clients/:clientId/knowledge/export?format=csv|json -> the file
 *
 * Every change to the knowledge base bumps its version and retrains the agent in the background;
 * `training` says how far that got and when the newest version went live.
 */
import { z } from 'zod';
import { isKnownTimeZone } from '../business-time';
import { SURVEY_QUESTION_MAX } from '../messaging/satisfaction';

const isoDate = z.iso.datetime({ offset: true });

/** The spec's select (part 1 §3, §9): High 0.9, Medium 0.8 (default), Low 0.7. */
export const CONFIDENCE_THRESHOLDS = [
  { value: 0.9, label: 'High' },
  { value: 0.8, label: 'Medium' },
  { value: 0.7, label: 'Low' },
] as const;
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.8;
export const DEFAULT_RESPONSE_DELAY_SECONDS = 2;
export const MAX_RESPONSE_DELAY_SECONDS = 60;

export const engineKind = z.enum(['embedded', 'openai', 'anthropic', 'openai-compatible']);
export type EngineKindName = z.infer<typeof engineKind>;
export const ENGINE_LABELS: Record<EngineKindName, string> = {
  embedded: 'Embedded (offline)',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
};

/**
 * How an agent with an LLM engine uses it. `embedded-first`: the embedded engine answers what it is
 * confident about (confidence ≥ the agent's threshold) at no cost, and only the other questions go
 * to the LLM. `llm`: every question goes to the LLM. Ignored by the embedded engine.
 */
export const llmMode = z
  .enum(['embedded-first', 'llm'], { error: 'Use embedded-first or llm' })
  .describe(
    "With an LLM engine: 'embedded-first' (the embedded engine answers when its confidence reaches the threshold, at no cost; only the other questions go to the LLM) or 'llm' (every question goes to the LLM). Ignored by the embedded engine.",
  );
export type LlmMode = z.infer<typeof llmMode>;
/** New LLM configurations start embedded-first. */
export const DEFAULT_LLM_MODE: LlmMode = 'embedded-first';
export const LLM_MODE_LABELS: Record<LlmMode, string> = {
  'embedded-first': 'Embedded first, LLM only when needed',
  llm: 'LLM for every question',
};

export const DEFAULT_AGENT_TEXTS = {
  greeting: 'Hi! How can we help you today?',
  handoff: "Thanks for your patience — I'm passing you to a member of our team, who will reply here shortly.",
  fallback: "Sorry, I'm not sure about that one. Could you rephrase your question?",
  away: "Thanks for your message! We're closed right now; our team will reply when we're back.",
} as const;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/u, { error: 'Use a time like 09:00' });

export const businessHoursDay = z
  .object({
    /** 0 = Sunday … 6 = Saturday. */
    day: z.number().int().min(0).max(6),
    open: hhmm,
    close: hhmm,
  })
  .refine((d) => d.open < d.close, { error: 'Closing time must be after opening time', path: ['close'] });

export const businessHours = z.object({
  /** An IANA time zone, e.g. Europe/London. */
  timezone: z.string().refine(isTimeZone, { error: 'Unknown time zone' }),
  days: z.array(businessHoursDay).max(21),
});
export type BusinessHours = z.infer<typeof businessHours>;

function isTimeZone(value: string): boolean {
  return value.length > 0 && isKnownTimeZone(value);
}

/** Outside business hours the agent either keeps answering, or sends the away text and leaves the conversation to people. */
export const outsideHoursMode = z.enum(['answer', 'away']);

export const trainingStatus = z.enum(['idle', 'queued', 'training', 'failed']);
export const trainingView = z.object({
  status: trainingStatus,
  /** 0..1 while training. */
  progress: z.number().min(0).max(1),
  /** The knowledge base's current version; equal to liveVersion once trained. */
  knowledgeVersion: z.number().int(),
  liveVersion: z.number().int().nullable(),
  /** When the live version went live. */
  liveAt: isoDate.nullable(),
  error: z.string().nullable(),
  /** Measured when the live version was trained (cross-validated on its own example questions). */
  metrics: z
    .object({
      entries: z.number().int(),
      examples: z.number().int(),
      trainingMs: z.number(),
      accuracy: z.number().nullable(),
      /** How many held-out example questions the accuracy was measured on (issue 12; absent on older versions). */
      accuracyQuestions: z.number().int().nullable().optional(),
    })
    .nullable(),
});
export type TrainingView = z.infer<typeof trainingView>;

export const agentChannel = z.object({
  channelId: z.uuid(),
  name: z.string(),
  kind: z.enum(['whatsapp', 'messenger', 'instagram', 'webchat', 'api']),
  enabled: z.boolean(),
});

export const agentView = z.object({
  clientId: z.uuid(),
  clientName: z.string(),
  /** The client paused its automation then (docs/client-dashboard.md): the agent does not answer; null while not paused. */
  automationPausedAt: isoDate.nullable().optional(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  confidenceThreshold: z.number(),
  escalationEnabled: z.boolean(),
  responseDelaySeconds: z.number().int(),
  channels: z.array(agentChannel),
  businessHours: businessHours.nullable(),
  outsideHours: outsideHoursMode,
  greetingText: z.string(),
  handoffText: z.string(),
  fallbackText: z.string(),
  awayText: z.string(),
  engine: engineKind,
  llmMode,
  llmModel: z.string().nullable(),
  llmBaseUrl: z.string().nullable(),
  /** Whether an API key is stored (the key itself is never returned). */
  hasLlmApiKey: z.boolean(),
  /** Ask customers for a 1–5 rating when a conversation is resolved (docs/satisfaction.md). */
  csatEnabled: z.boolean(),
  /** The rating request's question (Parley's default until changed). */
  csatQuestion: z.string(),
  training: trainingView,
  /** AI replies and hand-offs in the last 7 days. */
  stats: z.object({ replies: z.number().int(), escalations: z.number().int(), averageConfidence: z.number().nullable() }),
  updatedAt: isoDate.nullable(),
});
export type AgentView = z.infer<typeof agentView>;
export const findAgentsResponse = z.object({ agents: z.array(agentView) });

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

/** Every configurable field (all required here; the PUT body takes any subset). */
export const updateAgentFields = z.object({
  name: text('Name', 100),
  description: z.string().trim().max(1000, { error: 'Description must be at most 1000 characters' }),
  enabled: z.boolean(),
  confidenceThreshold: z.union([z.literal(0.7), z.literal(0.8), z.literal(0.9)], {
    error: 'Confidence threshold must be High (0.9), Medium (0.8) or Low (0.7)',
  }),
  escalationEnabled: z.boolean(),
  responseDelaySeconds: z
    .number({ error: 'Response delay must be a whole number of seconds' })
    .int({ error: 'Response delay must be a whole number of seconds' })
    .min(0, { error: 'Response delay must be between 0 and 60 seconds' })
    .max(MAX_RESPONSE_DELAY_SECONDS, { error: 'Response delay must be between 0 and 60 seconds' }),
  /** Channel ids the agent must not answer on. */
  disabledChannelIds: z.array(z.uuid()).max(100),
  businessHours: businessHours.nullable(),
  outsideHours: outsideHoursMode,
  greetingText: text('Greeting', 1000),
  handoffText: text('Hand-off text', 1000),
  fallbackText: text('Fallback text', 1000),
  awayText: text('Away text', 1000),
  engine: engineKind,
  /** With an LLM engine: embedded first (the LLM only below the threshold) or the LLM for every question. */
  llmMode,
  llmModel: z.string().trim().max(200).nullable(),
  llmBaseUrl: z.url({ protocol: /^https?$/u, error: 'Enter an http(s) URL' }).max(2048).nullable(),
  /** Write-only: a new key, or null to remove the stored one; absent keeps it. */
  llmApiKey: z.string().trim().min(1, { error: 'API key is required' }).max(500).nullable(),
  csatEnabled: z.boolean(),
  csatQuestion: text('Rating question', SURVEY_QUESTION_MAX),
});

export const updateAgentInput = updateAgentFields.partial().refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change' });
export type UpdateAgentInput = z.infer<typeof updateAgentInput>;

export const tryAgentInput = z.object({ message: text('Message', 2000) });
export const answerSource = z.object({ kind: z.enum(['faq', 'article']), id: z.string(), title: z.string(), link: z.string().nullable().optional() });
export const tryAgentResult = z.object({
  reply: z.string(),
  confidence: z.number(),
  action: z.enum(['answer', 'escalate']),
  /** What the policy would do with this answer at the agent's threshold. */
  decision: z.enum(['answer', 'handoff', 'fallback']),
  sources: z.array(answerSource),
  engine: engineKind,
  latencyMs: z.number(),
  /**
   * Exactly what a customer would receive (issue 12 §4): the engine's answer, the greeting text,
   * the hand-off text or the fallback text. `reply` above stays the engine's answer.
   */
  received: z.object({ kind: z.enum(['answer', 'greeting', 'handoff', 'fallback']), text: z.string() }).optional(),
  /** The engine's answer when the policy would not send it: shown apart ("would have answered … at 62 %"). */
  rejected: z.object({ reply: z.string(), confidence: z.number(), reason: z.string(), sources: z.array(answerSource) }).nullable().optional(),
});
export type TryAgentResult = z.infer<typeof tryAgentResult>;

// Answers by engine and cost -------------------------------------------------------------------

/** The periods the agents page offers (any 1–90 days is accepted). */
export const AGENT_STATS_PERIODS = [7, 30] as const;
export const agentStatsQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(7) });

/**
 * The agent's AI messages of the last `days` days (`messages.ai`), by what produced them, and what
 * the LLM cost. An *automated resolution* is a conversation in which the agent sent at least one
 * answer (either engine) in the period, that no person has written in and the agent never handed
 * off, and that is not escalated now: the customer got answers and did not need a person. The
 * cost per automated resolution is the LLM cost of all the period's AI messages (answers,
 * hand-offs and failed LLM calls alike) divided by those conversations; null when there are none.
 */
export const agentStats = z.object({
  clientId: z.uuid(),
  days: z.number().int(),
  since: isoDate,
  /** AI messages by what produced them: `embedded` and `llm` answers, the greeting and away texts. */
  answers: z.object({ embedded: z.number().int(), llm: z.number().int(), greeting: z.number().int(), away: z.number().int() }),
  /** Hand-offs to a person (below the threshold, out of scope, or asked for a person). */
  handoffs: z.number().int(),
  /** "Please rephrase" texts (below the threshold with escalation off). */
  fallbacks: z.number().int(),
  /** Replies for which the LLM was called (answered, handed off, or failed and the embedded engine answered). */
  llmCalls: z.number().int(),
  /** LLM calls that failed (time-out, provider error, invalid output): the embedded engine's answer was used. */
  llmFailures: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Estimated, from the configured prices per million tokens (0 for models without a price). Conversation summaries are not included. */
  llmCostUsd: z.number().describe('Estimated US dollars for the LLM tokens of the period’s AI messages (conversation summaries not included)'),
  automatedResolutions: z
    .number()
    .int()
    .describe('Conversations with an AI answer in the period that no person has written in, the agent never handed off, and that are not escalated'),
  costPerAutomatedResolutionUsd: z.number().nullable().describe('llmCostUsd ÷ automatedResolutions; null when there are none'),
});
export type AgentStats = z.infer<typeof agentStats>;

// Knowledge base ------------------------------------------------------------------------------

export const knowledgeEntry = z.object({
  id: z.uuid(),
  questions: z.array(z.string()),
  answer: z.string(),
  link: z.string().nullable(),
  updatedAt: isoDate,
});
export type KnowledgeEntryView = z.infer<typeof knowledgeEntry>;

export const knowledgeArticle = z.object({ id: z.uuid(), title: z.string(), body: z.string(), updatedAt: isoDate });
export type KnowledgeArticleView = z.infer<typeof knowledgeArticle>;

export const MAX_QUESTIONS_PER_ENTRY = 50;
export const MAX_KNOWLEDGE_ENTRIES = 2000;

export const knowledgeEntryInput = z.object({
  questions: z
    .array(z.string().trim().min(1, { error: 'A question cannot be empty' }).max(500, { error: 'A question must be at most 500 characters' }))
    .min(1, { error: 'Add at least one example question' })
    .max(MAX_QUESTIONS_PER_ENTRY, { error: `At most ${MAX_QUESTIONS_PER_ENTRY} example questions` }),
  answer: text('Answer', 4000),
  link: z.url({ protocol: /^https?$/u, error: 'Enter an http(s) URL' }).max(2048).nullable().optional(),
});
export type KnowledgeEntryInput = z.infer<typeof knowledgeEntryInput>;

export const knowledgeArticleInput = z.object({ title: text('Title', 200), body: text('Text', 50_000) });
export type KnowledgeArticleInput = z.infer<typeof knowledgeArticleInput>;

export const knowledgeQuery = z.object({ search: z.string().trim().max(200).optional() });
export const knowledgeView = z.object({
  entries: z.array(knowledgeEntry),
  articles: z.array(knowledgeArticle),
  /** Totals before the search filter. */
  totals: z.object({ entries: z.number().int(), articles: z.number().int() }),
  training: trainingView,
});
export type KnowledgeView = z.infer<typeof knowledgeView>;

export const knowledgeFormat = z.enum(['csv', 'json']);
export const knowledgeImportInput = z.object({
  format: knowledgeFormat,
  /** The file's text: CSV with a header `question,answer[,link]`, or JSON `[{"questions": [..], "answer": "..", "link"?: ".."}]`. */
  content: z.string().min(1, { error: 'The file is empty' }).max(5_000_000, { error: 'The file is too large (5 MB at most)' }),
  /** replace: the FAQ becomes the file's entries (articles are kept); append: added to it. */
  mode: z.enum(['replace', 'append']).default('replace'),
});
export const knowledgeImportResult = z.object({ entries: z.number().int(), questions: z.number().int(), training: trainingView });
export const knowledgeExportQuery = z.object({ format: knowledgeFormat.default('csv') });
