/**
 * Every domain event Parley publishes, with its payload. Payloads carry ids only (they travel in
 * a NOTIFY, capped at 8000 bytes); subscribers load what they need. `performedBy` lets automations
 * and the AI agent ignore what they caused themselves (no loops).
 */
import type { ConversationStatus, HandledBy, MessageDirection, MessageStatus, SenderType } from '../db/schema';

export interface DomainEvents {
  'conversation.created': { conversationId: string; clientId: string };
  'conversation.updated': { conversationId: string; clientId: string; status: ConversationStatus };
  /**
   * A resolved conversation open again: the customer wrote to it (`messageId`; now active and
   * handled by the AI or by people as the reopen rule decided, parley_record_inbound in
   * messaging.sql.ts), or a person or a workflow moved it out of resolved (`messageId` null,
   * InboxStateService.updateConversation).
   */
  'conversation.reopened': { conversationId: string; clientId: string; messageId: string | null; handledBy: HandledBy };
  /**
   * Handed to a person: the AI agent's hand-off (`reason`: its words), a person escalating it, or a
   * person taking over an AI-handled conversation (by the handler switch or by replying).
   */
  'conversation.escalated': { conversationId: string; clientId: string; reason: string };
  /** A person (or a workflow) resolved it. */
  'conversation.resolved': { conversationId: string; clientId: string };
  /** A new customer (contact) on a channel. */
  'contact.created': { contactId: string; clientId: string; channelId: string };
  /**
   * The conversation became a lead (the first time): customer message `messageId` shared an e-mail
   * address or phone number or showed purchase intent (messaging/lead-signals.ts).
   */
  'lead.qualified': { conversationId: string; clientId: string; messageId: string };
  'message.created': {
    messageId: string;
    conversationId: string;
    clientId: string;
    channelId: string;
    direction: MessageDirection;
    senderType: SenderType;
  };
  /**
   * A customer answered the satisfaction survey of a resolved conversation (messaging's
   * parley_record_inbound; docs/satisfaction.md). The conversation stays resolved.
   */
  'satisfaction.rated': { surveyId: string; conversationId: string; clientId: string; rating: number };
  'message.updated': { messageId: string; conversationId: string; clientId: string; status: MessageStatus };
  'chat.message.created': { threadId: string; messageId: string; participantIds: string[] };
  'chat.thread.updated': { threadId: string; participantIds: string[] };
  /** An automation execution started or changed status (automations module). `clientId` null: staff only. */
  'automation.execution.updated': { executionId: string; automationId: string; clientId: string | null };
  /** A workflow posted a step message to an execution. */
  'automation.message.created': { messageId: string; automationId: string; clientId: string | null };
  /** An in-app notification for `userId` (the bell). */
  'notification.created': { notificationId: string; userId: string };
  /**
   * A visitor sent the contact form (server/modules/contact); administrators' open panels show it,
   * and the events module makes it the public event `contact_form.submitted` (`messageId`: the contact message).
   */
  'contact_message.created': { messageId: string };
}

export type DomainEventName = keyof DomainEvents;

export type PerformedBy =
  | { kind: 'customer' }
  | { kind: 'user'; userId: string }
  | { kind: 'ai' }
  | { kind: 'automation'; automationId: string }
  | { kind: 'system' };

export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  payload: DomainEvents[K];
  performedBy: PerformedBy;
  /** ISO time of publication. */
  at: string;
}

export type AnyDomainEvent = { [K in DomainEventName]: DomainEvent<K> }[DomainEventName];
