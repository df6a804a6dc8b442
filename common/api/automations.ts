/**
 * Automations (issue 13; spec part 2 "Automations screen", §3 entities, §7 calls) — server:
 * server/modules/automations. Field names are the spec's own (snake_case), in views, inputs, the
 * trigger request and the callbacks alike, so a workflow author reads one vocabulary.
 *
 *   GET    /api/v1/automations                       -> automationsResponse (newest first by created_at; client users: their client's)
 *   POST   /api/v1/automations                       createAutomationInput -> createdAutomation (201, admin; the signing secret shown once)
 *   GET    /api/v1/automations/:id                   -> automationView
 *   PATCH  /api/v1/automations/:id                   updateAutomationInput -> automationView (admin)
 *   DELETE /api/v1/automations/:id                   204 (admin)
 *   POST   /api/v1/automations/:id/status            automationStatusInput -> automationView (admin, manager, the client's users)
 *   POST   /api/v1/automations/:id/rotate-secret     -> createdAutomation (admin; the new secret shown once)
 *   POST   /api/v1/automations/:id/run               -> executionView (201; 'Workflow URL not configured', refused when inactive)
 *   GET    /api/v1/automations/:id/executions        -> executionsResponse (newest first by started_at, 50 at most)
 *   GET    /api/v1/automations/:id/messages          -> automationMessagesResponse (newest first by timestamp, 100 at most)
 *   GET    /api/v1/automation-executions/:id         -> executionView
 *
 * The workflow's side (no session: `Authorization: Bearer <callback.token>` of the run):
 *   POST   /api/v1/automation-executions/:id/messages  stepMessageInput -> automationMessageView (201)
 *   PATCH  /api/v1/automation-executions/:id           executionUpdateInput -> executionView
 *
 * A client user gets 404 for another client's automation, execution and messages, and for an
 * automation without a client.
 */
import { z } from 'zod';
import { channelKind } from './channels';
import { conversationStatus } from './conversations';
import { installationEventRefusal, isInstallationEvent, PUBLIC_EVENT_TYPES, type PublicEventType, publicEventEnvelope, publicEventType } from './events';

const isoDate = z.iso.datetime({ offset: true });

export const AUTOMATION_STATUSES = ['active', 'paused', 'inactive', 'error'] as const;
export const automationStatus = z.enum(AUTOMATION_STATUSES);
export type AutomationStatus = z.infer<typeof automationStatus>;
/** What the form and the toggle may set ('error' is Parley's own). */
export const settableAutomationStatus = z.enum(['active', 'paused', 'inactive'], { error: 'Status must be active, paused or inactive' });

export const EXECUTION_STATUSES = ['success', 'error', 'running', 'waiting', 'canceled'] as const;
export const executionStatus = z.enum(EXECUTION_STATUSES);
export type ExecutionStatus = z.infer<typeof executionStatus>;
/** Statuses only move forward: running → waiting → success | error | canceled. */
export const EXECUTION_STATUS_RANK: Readonly<Record<ExecutionStatus, number>> = { running: 0, waiting: 1, success: 2, error: 2, canceled: 2 };
export const FINAL_EXECUTION_STATUSES: readonly ExecutionStatus[] = ['success', 'error', 'canceled'];

/** 'event': a public event matched one of the automation's triggers (`trigger_event_type` says which). */
export const startedHow = z.enum(['manual', 'template', 'api', 'schedule', 'event']);

/** The largest `metadata` a step message may carry, as JSON (UTF-8 bytes). */
export const MESSAGE_METADATA_MAX_BYTES = 16 * 1024;
export const MESSAGE_CONTENT_MAX = 10_000;
/** How long after its execution finished a callback token still works (late step messages). */
export const CALLBACK_GRACE_MS = 10 * 60_000;

export const automationConfig = z.record(z.string(), z.unknown());

/**
 * Event triggers (issue 14 §3): `config.triggers` of an automation (and `workflowConfig.triggers` of
 * a template). Each matching public event starts one execution, whose request's `trigger` carries
 * the event. Filters are ANDed; within one filter the values are alternatives; an absent (or empty)
 * filter matches everything. The automation's own client scope always applies first: an automation
 * of a client only ever receives that client's events. A string entry is short for `{event: <string>}`.
 */
export const MAX_AUTOMATION_TRIGGERS = 20;
/** The events that concern a conversation: only these can be filtered by channel or conversation status. */
export const CONVERSATION_EVENT_TYPES: readonly PublicEventType[] = PUBLIC_EVENT_TYPES.filter(
  (t) => t.startsWith('message.') || t.startsWith('conversation.') || t === 'lead.qualified',
);

export const automationTriggerFilters = z.strictObject(
  {
    /** The conversation's channel (`data.conversation.platform`). */
    channel: z
      .array(z.enum(channelKind.options, { error: `Channel must be one of ${channelKind.options.join(', ')}` }), { error: 'Channel must be a list' })
      .max(20, { error: 'Too many channels' })
      .optional(),
    /** The event's client (for automations without a client; one with a client only sees its own). */
    client_id: z.uuid({ error: 'Client must be a valid id' }).optional(),
    /** The conversation's status when the event happened (`data.conversation.status`). */
    conversation_status: z
      .array(z.enum(conversationStatus.options, { error: `Conversation status must be one of ${conversationStatus.options.join(', ')}` }), {
        error: 'Conversation status must be a list',
      })
      .max(20, { error: 'Too many statuses' })
      .optional(),
  },
  { error: 'Filters must be an object with channel, client_id or conversation_status' },
);
export type AutomationTriggerFilters = z.output<typeof automationTriggerFilters>;

export const automationEventTrigger = z.preprocess(
  (v) => (typeof v === 'string' ? { event: v.trim() } : v),
  z
    .strictObject(
      {
        event: z.enum(PUBLIC_EVENT_TYPES, { error: 'Unknown event type' }),
        filters: automationTriggerFilters.optional(),
      },
      { error: 'A trigger must be an object with an event' },
    )
    .superRefine((trigger, ctx) => {
      // An installation-wide event has no client to filter by (it would never match).
      if (isInstallationEvent(trigger.event) && trigger.filters?.client_id) {
        ctx.addIssue({ code: 'custom', path: ['filters', 'client_id'], message: `${trigger.event} belongs to no client: it cannot be filtered by client` });
      }
      if (CONVERSATION_EVENT_TYPES.includes(trigger.event)) return;
      for (const key of ['channel', 'conversation_status'] as const) {
        if (trigger.filters?.[key]) {
          ctx.addIssue({ code: 'custom', path: ['filters', key], message: `${trigger.event} has no conversation to filter by` });
        }
      }
    })
    // Lists deduplicated; an empty list is no filter; no filters, no `filters`.
    .transform((trigger): { event: PublicEventType; filters?: AutomationTriggerFilters } => {
      const given = trigger.filters ?? {};
      const filters: AutomationTriggerFilters = {};
      if (given.channel?.length) filters.channel = [...new Set(given.channel)];
      if (given.client_id) filters.client_id = given.client_id;
      if (given.conversation_status?.length) filters.conversation_status = [...new Set(given.conversation_status)];
      return Object.keys(filters).length > 0 ? { event: trigger.event, filters } : { event: trigger.event };
    }),
);
export type AutomationEventTrigger = z.output<typeof automationEventTrigger>;
/** A stored trigger as views show it (no transforms: responses are encoded with it). */
export const automationEventTriggerView = z.object({
  event: publicEventType,
  filters: z
    .object({ channel: z.array(channelKind).optional(), client_id: z.uuid().optional(), conversation_status: z.array(conversationStatus).optional() })
    .optional(),
});

export const automationTriggers = z
  .array(automationEventTrigger, { error: 'Triggers must be a list' })
  .max(MAX_AUTOMATION_TRIGGERS, { error: `At most ${MAX_AUTOMATION_TRIGGERS} triggers` });
export type AutomationTriggers = z.output<typeof automationTriggers>;

/**
 * A template's triggers: the same, without a client filter (each assigned client's automation
 * receives its own events) and without installation-wide events (no client's automation receives them).
 */
export const templateTriggers = automationTriggers.superRefine((triggers, ctx) => {
  triggers.forEach((t, i) => {
    if (t.filters?.client_id) ctx.addIssue({ code: 'custom', path: [i, 'filters', 'client_id'], message: 'A template’s trigger cannot name a client' });
    if (isInstallationEvent(t.event)) ctx.addIssue({ code: 'custom', path: [i, 'event'], message: installationEventRefusal(t.event) });
  });
});

/** Whether `trigger` matches an event (type and filters; the client scope is the caller's). */
export function triggerMatches(
  trigger: AutomationEventTrigger,
  event: { type: string; clientId: string | null; data: Record<string, unknown> },
): boolean {
  if (trigger.event !== event.type) return false;
  const filters = trigger.filters;
  if (!filters) return true;
  if (filters.client_id && filters.client_id !== event.clientId) return false;
  const conversation = event.data.conversation as { platform?: unknown; status?: unknown } | undefined;
  if (filters.channel && !filters.channel.includes(conversation?.platform as never)) return false;
  if (filters.conversation_status && !filters.conversation_status.includes(conversation?.status as never)) return false;
  return true;
}

export const automationView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  workflow_id: z.string().nullable(),
  workflow_url: z.string().nullable(),
  status: automationStatus,
  config: automationConfig,
  client_id: z.uuid().nullable(),
  created_by: z.uuid().nullable(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type AutomationView = z.infer<typeof automationView>;
export const automationsResponse = z.object({ automations: z.array(automationView) });

/** Creation and rotation show the signing secret once: the workflow verifies X-Parley-Signature with it. */
export const createdAutomation = z.object({ automation: automationView, signing_secret: z.string() });
export type CreatedAutomation = z.infer<typeof createdAutomation>;

const requiredText = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });

const workflowUrl = z
  .string({ error: 'Workflow URL is required' })
  .trim()
  .min(1, { error: 'Workflow URL is required' })
  .max(2048, { error: 'Workflow URL is too long' })
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'Workflow URL must be a valid http(s) URL' },
  );

const description = z
  .string()
  .trim()
  .max(2000, { error: 'Description is too long' })
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

/** Any object; its `triggers`, when given, are checked (automationTriggers). */
const configInput = z
  .looseObject({ triggers: automationTriggers.optional() }, { error: 'Config must be an object' })
  .refine((v) => JSON.stringify(v).length <= 64 * 1024, { error: 'Config is too large (at most 64 KB)' });

export const createAutomationInput = z.object({
  name: requiredText(200, 'Name is required', 'Name is too long'),
  description,
  workflow_id: requiredText(200, 'Workflow ID is required', 'Workflow ID is too long'),
  workflow_url: workflowUrl,
  status: settableAutomationStatus.default('inactive'),
  client_id: z.uuid({ error: 'Client must be a valid id' }).nullable().optional(),
  config: configInput.default({}),
});
export type CreateAutomationInput = z.input<typeof createAutomationInput>;

export const updateAutomationInput = z
  .object({
    name: requiredText(200, 'Name is required', 'Name is too long'),
    description,
    workflow_id: requiredText(200, 'Workflow ID is required', 'Workflow ID is too long'),
    workflow_url: workflowUrl,
    status: settableAutomationStatus,
    client_id: z.uuid({ error: 'Client must be a valid id' }).nullable(),
    config: configInput,
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type UpdateAutomationInput = z.input<typeof updateAutomationInput>;

export const automationStatusInput = z.object({ status: settableAutomationStatus });

export const executionView = z.object({
  id: z.uuid(),
  automation_id: z.uuid(),
  status: executionStatus,
  started_at: isoDate,
  finished_at: isoDate.nullable(),
  duration_ms: z.number().int().nullable(),
  error_message: z.string().nullable(),
  /** The workflow's own execution id (n8n's), when it told us. */
  execution_id: z.string().nullable(),
  started_how: startedHow,
  started_by: z.uuid().nullable(),
  /** The public event that started it (started_how 'event'), else null: "started by conversation.escalated". */
  trigger_event_id: z.uuid().nullable(),
  trigger_event_type: z.string().nullable(),
});
export type ExecutionView = z.infer<typeof executionView>;
export const executionsResponse = z.object({ executions: z.array(executionView) });

export const automationMessageView = z.object({
  id: z.uuid(),
  automation_id: z.uuid(),
  execution_id: z.uuid().nullable(),
  message_type: z.string(),
  step_name: z.string().nullable(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  timestamp: isoDate,
});
export type AutomationMessageView = z.infer<typeof automationMessageView>;
export const automationMessagesResponse = z.object({ messages: z.array(automationMessageView) });

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** A workflow's step message (callback). */
export const stepMessageInput = z.object({
  step_name: z.string({ error: 'Step name must be a string' }).trim().max(200, { error: 'Step name is too long (at most 200 characters)' }).nullable().optional(),
  message_type: z
    .string({ error: 'Message type must be a string' })
    .trim()
    .min(1, { error: 'Message type must not be empty' })
    .max(50, { error: 'Message type is too long (at most 50 characters)' })
    .default('info'),
  content: z.string({ error: 'Content is required' }).max(MESSAGE_CONTENT_MAX, { error: `Content is too long (at most ${MESSAGE_CONTENT_MAX} characters)` }),
  metadata: z
    .record(z.string(), z.unknown(), { error: 'Metadata must be an object' })
    .refine((v) => jsonBytes(v) <= MESSAGE_METADATA_MAX_BYTES, { error: `Metadata is too large (at most ${MESSAGE_METADATA_MAX_BYTES / 1024} KB as JSON)` })
    .default({}),
});
export type StepMessageInput = z.input<typeof stepMessageInput>;

/** A workflow's status report (callback). */
export const executionUpdateInput = z
  .object({
    status: executionStatus.optional(),
    error_message: z.string({ error: 'Error message must be a string' }).max(2000, { error: 'Error message is too long (at most 2000 characters)' }).nullable().optional(),
    execution_id: z
      .union([z.string().trim().min(1).max(200), z.number().int().nonnegative()], { error: 'Execution id must be a string or a number' })
      .transform(String)
      .nullable()
      .optional(),
  })
  .refine((v) => v.status !== undefined || v.error_message != null || v.execution_id != null, { error: 'Nothing to change' });
export type ExecutionUpdateInput = z.input<typeof executionUpdateInput>;

/** What Parley POSTs to the workflow URL on Run, signed with X-Parley-Timestamp / X-Parley-Signature. */
export const automationTrigger = z.object({
  execution_id: z.uuid(),
  automation_config: automationConfig,
  client_id: z.uuid().nullable(),
  timestamp: isoDate,
  callback: z.object({ messages_url: z.string(), status_url: z.string(), token: z.string() }),
  /**
   * What started it, when a public event did (issue 14 §3): the event's type and id and the whole
   * envelope as subscribers receive it (`{id, type, created_at, api_version, client_id, data}`).
   * Absent for runs started by hand, a template, the API or a schedule.
   */
  trigger: z.object({ type: publicEventType, event_id: z.uuid(), data: publicEventEnvelope }).optional(),
});
export type AutomationTrigger = z.infer<typeof automationTrigger>;
