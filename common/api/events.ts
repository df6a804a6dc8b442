/**
 * Parley's public events (issue 14 §1): the one typed, versioned catalogue of what leaves Parley —
 * to outbound webhook subscriptions (server/modules/hooks), Zapier REST hooks and event-triggered
 * automations. Server: server/modules/events (the outbox `events`, written in the transaction of
 * the change that causes the event).
 *
 * Every delivery is the envelope `{id, type, created_at, api_version, client_id, performed_by, data}`; `data` is the event's
 * own schema below. Field names are snake_case, like the automations' trigger and callbacks, so a
 * workflow author reads one vocabulary. Payloads are snapshots taken when the event happened.
 *
 * Adding a field is not a breaking change; removing or renaming one needs a new `EVENTS_API_VERSION`.
 */
import { z } from 'zod';
import { channelKind } from './channels';
import { conversationStatus, handledBy, messageStatus, messageType, priority, senderType } from './conversations';

const isoDate = z.iso.datetime({ offset: true });

/** The version of the payload schemas, sent in every envelope (`api_version`). */
export const EVENTS_API_VERSION = '2026-11-25';

export const PUBLIC_EVENT_TYPES = [
  'message.received',
  'message.sent',
  'message.failed',
  'conversation.created',
  'conversation.escalated',
  'conversation.resolved',
  'conversation.reopened',
  'contact.created',
  'lead.qualified',
  'automation.execution.finished',
  'contact_form.submitted',
] as const;
export const publicEventType = z.enum(PUBLIC_EVENT_TYPES, { error: 'Unknown event type' });
export type PublicEventType = z.infer<typeof publicEventType>;

/**
 * Installation-wide events: about no client's business (`client_id` null in the envelope). Only a
 * webhook subscription or an automation without a client (administrators') receives them; one
 * scoped to a client cannot choose them (`installationEventRefusal`) and never receives them.
 */
export const INSTALLATION_EVENT_TYPES = ['contact_form.submitted'] as const satisfies readonly PublicEventType[];
export type InstallationEventType = (typeof INSTALLATION_EVENT_TYPES)[number];

export function isInstallationEvent(type: string): type is InstallationEventType {
  return (INSTALLATION_EVENT_TYPES as readonly string[]).includes(type);
}

/** Why a subscription or an automation scoped to a client may not choose `type` (the field's message). */
export function installationEventRefusal(type: InstallationEventType): string {
  return `${type} belongs to no client: only a subscription or automation without a client (administrators) can receive it`;
}

/** Who caused an event (automations never receive events their own callbacks caused). */
export const eventPerformedBy = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('customer') }),
  z.object({ kind: z.literal('user'), user_id: z.uuid() }),
  z.object({ kind: z.literal('ai') }),
  z.object({ kind: z.literal('automation'), automation_id: z.uuid() }),
  z.object({ kind: z.literal('system') }),
]);
export type EventPerformedBy = z.infer<typeof eventPerformedBy>;

export const eventContact = z.object({
  id: z.uuid(),
  client_id: z.uuid(),
  name: z.string().nullable(),
  /** The platform's id of the customer (phone number for WhatsApp, PSID/IGSID, visitor id). */
  external_id: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: isoDate,
});
export type EventContact = z.infer<typeof eventContact>;

export const eventConversation = z.object({
  id: z.uuid(),
  client_id: z.uuid(),
  client_name: z.string(),
  channel_id: z.uuid(),
  platform: channelKind,
  status: conversationStatus,
  handled_by: handledBy,
  priority,
  title: z.string().nullable(),
  is_lead: z.boolean(),
  created_at: isoDate,
  /** The conversation in the portal (absolute URL of this installation). */
  url: z.string(),
});
export type EventConversation = z.infer<typeof eventConversation>;

export const eventMessage = z.object({
  id: z.uuid(),
  conversation_id: z.uuid(),
  direction: z.enum(['inbound', 'outbound']),
  sender_type: senderType,
  type: messageType,
  content: z.string(),
  status: messageStatus,
  /** Why a send failed (message.failed), as the platform said it. */
  error: z.string().nullable(),
  created_at: isoDate,
});
export type EventMessage = z.infer<typeof eventMessage>;

const messageEvent = z.object({ message: eventMessage, conversation: eventConversation, contact: eventContact });

export const publicEventData = {
  'message.received': messageEvent,
  'message.sent': messageEvent,
  'message.failed': messageEvent,
  'conversation.created': z.object({ conversation: eventConversation, contact: eventContact }),
  'conversation.escalated': z.object({
    conversation: eventConversation,
    contact: eventContact,
    /** Why it was handed to a person, in words (the agent's reason, or who took it over). */
    reason: z.string(),
  }),
  'conversation.resolved': z.object({ conversation: eventConversation, contact: eventContact }),
  'conversation.reopened': z.object({
    conversation: eventConversation,
    contact: eventContact,
    /** The customer's message that reopened it; null when a person or a workflow moved it out of resolved (see `performed_by`). */
    message_id: z.uuid().nullable(),
  }),
  'contact.created': z.object({ contact: eventContact }),
  'lead.qualified': z.object({
    conversation: eventConversation,
    contact: eventContact,
    /** The signals that made it a lead (docs/events.md lists them). */
    signals: z.array(z.enum(['email', 'phone', 'purchase_intent'])).min(1),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    /** The customer's words that showed purchase intent, when that was a signal. */
    intent_excerpt: z.string().nullable(),
  }),
  'automation.execution.finished': z.object({
    execution: z.object({
      id: z.uuid(),
      automation_id: z.uuid(),
      automation_name: z.string(),
      client_id: z.uuid().nullable(),
      status: z.enum(['success', 'error', 'canceled']),
      started_at: isoDate,
      finished_at: isoDate,
      error_message: z.string().nullable(),
      /** The event that started it, when an event did (`trigger.type`). */
      started_by_event: z.string().nullable(),
    }),
  }),
  /** A visitor sent the website's contact form (docs/contact.md); installation-wide: `client_id` null. */
  'contact_form.submitted': z.object({
    contact_message: z.object({
      id: z.uuid(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      company: z.string().nullable(),
      message: z.string(),
      submitted_at: isoDate,
    }),
  }),
} as const satisfies Record<PublicEventType, z.ZodType>;

export type PublicEventData<T extends PublicEventType = PublicEventType> = z.infer<(typeof publicEventData)[T]>;

/** What a subscriber receives (the request body of a delivery). */
export const publicEventEnvelope = z.object({
  id: z.uuid(),
  type: publicEventType,
  created_at: isoDate,
  api_version: z.string(),
  /** null for installation-wide events (`INSTALLATION_EVENT_TYPES`: contact_form.submitted). */
  client_id: z.uuid().nullable(),
  /**
   * Who caused it (a customer, a person, the AI agent, an automation's callback, Parley itself).
   * Every stored event has it; optional only for hand-made envelopes (a webhook test).
   */
  performed_by: eventPerformedBy.optional(),
  data: z.record(z.string(), z.unknown()),
});
export type PublicEventEnvelope = z.infer<typeof publicEventEnvelope>;

function buildEnvelopeSchema<T extends PublicEventType>(type: T) {
  // An installation-wide event never names a client.
  const clientId = isInstallationEvent(type) ? z.null() : publicEventEnvelope.shape.client_id;
  return publicEventEnvelope.extend({ type: z.literal(type), client_id: clientId, data: publicEventData[type] });
}
const envelopeSchemas = new Map<PublicEventType, ReturnType<typeof buildEnvelopeSchema>>();

/**
 * One envelope schema per type, for the OpenAPI document, the guide's examples and the outbox's
 * check of every event. Built once per type: zod compiles a schema's fast path at its first parse,
 * and a schema made per event would pay that every time.
 */
export function envelopeSchemaFor<T extends PublicEventType>(type: T): ReturnType<typeof buildEnvelopeSchema<T>> {
  let schema = envelopeSchemas.get(type);
  if (!schema) {
    schema = buildEnvelopeSchema(type);
    envelopeSchemas.set(type, schema);
  }
  return schema as ReturnType<typeof buildEnvelopeSchema<T>>;
}
