/**
 * One documented, realistic example of every public event (common/api/events.ts), valid against its
 * schema: the Webhooks page's guide shows them, REST hooks' samples return one when no real event
 * of that type exists yet, and the OpenAPI document carries them. Ids are fixed so an integrator can
 * recognise an example (`…-0000-4000-8000-…`).
 */
import { EVENTS_API_VERSION, type EventPerformedBy, isInstallationEvent, type PublicEventData, type PublicEventEnvelope, type PublicEventType } from './events';

const CLIENT = { id: '6f1c2a34-0000-4000-8000-00000000c001', name: 'Acme Bikes' };
const CHANNEL_ID = '6f1c2a34-0000-4000-8000-00000000cb01';
const CONVERSATION_ID = '6f1c2a34-0000-4000-8000-00000000c0a1';
const CONTACT_ID = '6f1c2a34-0000-4000-8000-00000000ca01';
const AT = '2026-11-25T09:30:00.000Z';

const contact = {
  id: CONTACT_ID,
  client_id: CLIENT.id,
  name: 'Ana Souza',
  external_id: '447700900123',
  email: 'ana.souza@example.com',
  phone: '+447700900123',
  created_at: '2026-11-25T09:29:58.000Z',
};

const conversation = {
  id: CONVERSATION_ID,
  client_id: CLIENT.id,
  client_name: CLIENT.name,
  channel_id: CHANNEL_ID,
  platform: 'whatsapp' as const,
  status: 'active' as const,
  handled_by: 'ai' as const,
  priority: 'medium' as const,
  title: 'Ana Souza',
  is_lead: true,
  created_at: '2026-11-25T09:29:58.000Z',
  url: `https://parley.example.com/conversations?conversation=${CONVERSATION_ID}`,
};

const inbound = {
  id: '6f1c2a34-0000-4000-8000-0000000a0001',
  conversation_id: CONVERSATION_ID,
  direction: 'inbound' as const,
  sender_type: 'customer' as const,
  type: 'text' as const,
  content: 'Hi! How much is the premium plan? My email is ana.souza@example.com',
  status: 'received' as const,
  error: null,
  created_at: AT,
};

const outbound = {
  id: '6f1c2a34-0000-4000-8000-0000000a0002',
  conversation_id: CONVERSATION_ID,
  direction: 'outbound' as const,
  sender_type: 'ai' as const,
  type: 'text' as const,
  content: 'The premium plan is €29 a month, billed monthly. Shall I send you the sign-up link?',
  status: 'sent' as const,
  error: null,
  created_at: '2026-11-25T09:30:02.000Z',
};

const data: { [T in PublicEventType]: PublicEventData<T> } = {
  'message.received': { message: inbound, conversation, contact },
  'message.sent': { message: outbound, conversation, contact },
  'message.failed': {
    message: {
      ...outbound,
      status: 'failed',
      error: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    },
    conversation,
    contact,
  },
  'conversation.created': { conversation: { ...conversation, is_lead: false }, contact },
  'conversation.escalated': {
    conversation: { ...conversation, status: 'escalated', handled_by: 'human', priority: 'high' },
    contact,
    reason: 'The AI agent handed the conversation to a person: the customer asked for a person',
  },
  'conversation.resolved': { conversation: { ...conversation, status: 'resolved', handled_by: 'human' }, contact },
  'conversation.reopened': { conversation, contact, message_id: inbound.id },
  'contact.created': { contact: { ...contact, email: null } },
  'lead.qualified': {
    conversation,
    contact,
    signals: ['email', 'purchase_intent'],
    email: 'ana.souza@example.com',
    phone: null,
    intent_excerpt: 'How much is the premium plan?',
  },
  'automation.execution.finished': {
    execution: {
      id: '6f1c2a34-0000-4000-8000-0000000e0001',
      automation_id: '6f1c2a34-0000-4000-8000-0000000a0a01',
      automation_name: 'Send new leads to the CRM',
      client_id: CLIENT.id,
      status: 'success',
      started_at: '2026-11-25T09:30:03.000Z',
      finished_at: '2026-11-25T09:30:05.400Z',
      error_message: null,
      started_by_event: 'lead.qualified',
    },
  },
  'contact_form.submitted': {
    contact_message: {
      id: '6f1c2a34-0000-4000-8000-0000000cf001',
      first_name: 'Ana',
      last_name: 'Souza',
      email: 'ana.souza@example.com',
      company: 'Souza Bikes',
      message: 'Hello! Do you connect WhatsApp and Instagram? We have two shops.',
      submitted_at: AT,
    },
  },
};

const EXAMPLE_IDS: Record<PublicEventType, string> = {
  'message.received': '6f1c2a34-0000-4000-8000-00000000e001',
  'message.sent': '6f1c2a34-0000-4000-8000-00000000e002',
  'message.failed': '6f1c2a34-0000-4000-8000-00000000e003',
  'conversation.created': '6f1c2a34-0000-4000-8000-00000000e004',
  'conversation.escalated': '6f1c2a34-0000-4000-8000-00000000e005',
  'conversation.resolved': '6f1c2a34-0000-4000-8000-00000000e006',
  'conversation.reopened': '6f1c2a34-0000-4000-8000-00000000e007',
  'contact.created': '6f1c2a34-0000-4000-8000-00000000e008',
  'lead.qualified': '6f1c2a34-0000-4000-8000-00000000e009',
  'automation.execution.finished': '6f1c2a34-0000-4000-8000-00000000e010',
  'contact_form.submitted': '6f1c2a34-0000-4000-8000-00000000e011',
};

const PERFORMED_BY: Record<PublicEventType, EventPerformedBy> = {
  'message.received': { kind: 'customer' },
  'message.sent': { kind: 'ai' },
  'message.failed': { kind: 'system' },
  'conversation.created': { kind: 'customer' },
  'conversation.escalated': { kind: 'ai' },
  'conversation.resolved': { kind: 'user', user_id: '6f1c2a34-0000-4000-8000-0000000b0001' },
  'conversation.reopened': { kind: 'customer' },
  'contact.created': { kind: 'customer' },
  'lead.qualified': { kind: 'customer' },
  'automation.execution.finished': { kind: 'automation', automation_id: '6f1c2a34-0000-4000-8000-0000000a0a01' },
  // A website visitor (no sign-in) sent the form.
  'contact_form.submitted': { kind: 'customer' },
};

/** The documented example envelope of `type` (a new object each call). */
export function exampleEnvelope<T extends PublicEventType>(type: T): PublicEventEnvelope & { type: T; data: PublicEventData<T> } {
  return {
    id: EXAMPLE_IDS[type],
    type,
    created_at: AT,
    api_version: EVENTS_API_VERSION,
    // Installation-wide events belong to no client.
    client_id: isInstallationEvent(type) ? null : CLIENT.id,
    performed_by: { ...PERFORMED_BY[type] },
    data: structuredClone(data[type]),
  };
}
