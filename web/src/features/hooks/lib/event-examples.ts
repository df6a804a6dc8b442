/**
 * One documented example envelope per public event type, for the Webhooks page's guide. Built by
 * hand from the shapes of `publicEventData` (common/api/events.ts); the tests parse every example
 * with `envelopeSchemaFor(type)`, so a field added to or renamed in the contract breaks them.
 *
 * The guide imports examples only through this module: when the shared `common/api/event-examples.ts`
 * lands, this file becomes a re-export of its `exampleEnvelope`.
 */
import { EVENTS_API_VERSION, type EventContact, type EventConversation, type EventMessage, type PublicEventData, type PublicEventType } from '@common/api/events';

const CLIENT_ID = '3f6c2a1e-8b4d-4c7a-9e2f-5a1b6c7d8e90';
const CONVERSATION_ID = '7d2e9b14-3c5a-4f8e-8a6b-2c1d0e9f8a7b';
const CONTACT_ID = 'a41c5e7f-2b9d-4e6a-b3c8-9d0e1f2a3b4c';
const MESSAGE_ID = 'c92f1a3e-5d7b-4a8c-9e0f-1b2c3d4e5f60';
const CHANNEL_ID = '5b8d3f2a-1c4e-4a9b-8d7e-6f5a4b3c2d1e';
const AUTOMATION_ID = 'e1d2c3b4-a596-4877-8a6b-5c4d3e2f1a0b';
const EXECUTION_ID = 'f0e1d2c3-b4a5-4697-b8a9-0b1c2d3e4f5a';

const CREATED_AT = '2026-11-25T09:41:07.000Z';

const contact: EventContact = {
  id: CONTACT_ID,
  client_id: CLIENT_ID,
  name: 'Ada Lovelace',
  external_id: '447700900123',
  email: null,
  phone: '+447700900123',
  created_at: '2026-11-25T09:40:58.000Z',
};

const conversation: EventConversation = {
  id: CONVERSATION_ID,
  client_id: CLIENT_ID,
  client_name: 'Acme Bakery',
  channel_id: CHANNEL_ID,
  platform: 'whatsapp',
  status: 'active',
  handled_by: 'ai',
  priority: 'medium',
  title: 'Order for Saturday',
  is_lead: false,
  created_at: '2026-11-25T09:40:58.000Z',
  url: `https://parley.example.com/conversations/${CONVERSATION_ID}`,
};

const inbound: EventMessage = {
  id: MESSAGE_ID,
  conversation_id: CONVERSATION_ID,
  direction: 'inbound',
  sender_type: 'customer',
  type: 'text',
  content: 'Hi! Can I order two sourdough loaves for Saturday?',
  status: 'received',
  error: null,
  created_at: CREATED_AT,
};

const outbound: EventMessage = {
  ...inbound,
  direction: 'outbound',
  sender_type: 'ai',
  content: 'Of course! Two sourdough loaves for Saturday — shall I put them under Ada?',
  status: 'sent',
};

const EXAMPLE_DATA: { [T in PublicEventType]: PublicEventData<T> } = {
  'message.received': { message: inbound, conversation, contact },
  'message.sent': { message: outbound, conversation, contact },
  'message.failed': {
    message: { ...outbound, status: 'failed', error: 'Message failed to send because more than 24 hours have passed since the customer last replied.' },
    conversation,
    contact,
  },
  'conversation.created': { conversation, contact },
  'conversation.escalated': {
    conversation: { ...conversation, status: 'escalated', handled_by: 'human', priority: 'high' },
    contact,
    reason: 'The customer asked to speak to a person.',
  },
  'conversation.resolved': { conversation: { ...conversation, status: 'resolved' }, contact },
  'conversation.reopened': { conversation, contact, message_id: MESSAGE_ID },
  'contact.created': { contact },
  'lead.qualified': {
    conversation: { ...conversation, is_lead: true },
    contact: { ...contact, email: 'ada@example.com' },
    signals: ['email', 'purchase_intent'],
    email: 'ada@example.com',
    phone: null,
    intent_excerpt: 'Can I order two sourdough loaves for Saturday?',
  },
  'automation.execution.finished': {
    execution: {
      id: EXECUTION_ID,
      automation_id: AUTOMATION_ID,
      automation_name: 'Lead follow-up',
      client_id: CLIENT_ID,
      status: 'success',
      started_at: '2026-11-25T09:41:08.000Z',
      finished_at: '2026-11-25T09:41:11.000Z',
      error_message: null,
      started_by_event: 'lead.qualified',
    },
  },
};

/** The envelope `{id, type, created_at, api_version, client_id, data}` a subscriber receives for `type`. */
export function exampleEnvelope<T extends PublicEventType>(type: T) {
  return {
    id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    type,
    created_at: CREATED_AT,
    api_version: EVENTS_API_VERSION,
    client_id: CLIENT_ID,
    data: EXAMPLE_DATA[type],
  };
}
