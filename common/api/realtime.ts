/**
 * The realtime WebSocket, one endpoint for the portal and the widget (server:
 * server/modules/realtime): `GET /api/v1/realtime` upgraded to a WebSocket. The portal connects with
 * its session cookie (same origin only); the widget with `?widgetId=<id>&visitorToken=<token>` from any origin.
 *
 * Client → server: realtimeClientMessage. Server → client: realtimeServerMessage.
 * Topics:
 *   "inbox"                  every conversation and message the user may see (client users: their
 *                            client's only)
 *   "conversation:<id>"      one conversation's messages and changes (404 if not visible)
 *   "chats"                  the user's internal chat threads and messages
 *   "notifications"          the user's own in-app notifications (the bell): notification.created
 *   "widget"                 the visitor's own conversation (visitor connections only)
 *   "automations"            every automation execution change and step message the user may see
 *                            (client users: their client's automations only)
 *   "automation:<id>"        one automation's execution changes and step messages (404 if not visible):
 *                            automation.execution.updated (executionView), automation.message.created
 *                            (automationMessageView), common/api/automations.ts
 *   "contact-messages"       administrators only: new contact form messages, contact_message.created
 *                            (contactMessage, common/api/contact.ts)
 * A subscription that is not allowed answers `{type:"error", code:"NOT_FOUND"}` and receives nothing.
 */
import { z } from 'zod';

export const realtimeTopic = z.union([
  z.literal('inbox'),
  z.literal('chats'),
  z.literal('notifications'),
  z.literal('widget'),
  z.literal('automations'),
  z.literal('contact-messages'),
  z.string().regex(/^conversation:[0-9a-f-]{36}$/u),
  z.string().regex(/^automation:[0-9a-f-]{36}$/u),
]);

export const realtimeClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), id: z.string().max(50), topic: realtimeTopic }),
  z.object({ type: z.literal('unsubscribe'), id: z.string().max(50), topic: realtimeTopic }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessage>;

export const realtimeEventName = z.enum([
  'conversation.created',
  'conversation.updated',
  'message.created',
  'message.updated',
  'chat.message.created',
  'chat.thread.updated',
  'notification.created',
  'automation.execution.updated',
  'automation.message.created',
  'contact_message.created',
]);
export type RealtimeEventName = z.infer<typeof realtimeEventName>;

export const realtimeServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('subscribed'), id: z.string(), topic: z.string() }),
  z.object({ type: z.literal('error'), id: z.string().optional(), code: z.enum(['NOT_FOUND', 'BAD_REQUEST', 'UNAUTHENTICATED']), message: z.string() }),
  z.object({ type: z.literal('pong') }),
  /** `data` is the entity in its API shape (conversationView, messageView, widgetMessage, chat views). */
  z.object({ type: z.literal('event'), topic: z.string(), event: realtimeEventName, data: z.unknown() }),
]);
export type RealtimeServerMessage = z.infer<typeof realtimeServerMessage>;
