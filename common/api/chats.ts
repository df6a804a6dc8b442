/**
 * Internal chats between admins and client users (spec part 2 "Chat Management";
 * server: server/modules/chats). Any signed-in user sees only the threads they take part in.
 *
 *   GET  /api/v1/chats                 findChatsQuery -> findChatsResponse
 *   POST /api/v1/chats                 newChatInput -> chatThreadView (201; reuses an existing
 *                                      two-person thread with the same recipient)
 *   GET  /api/v1/chats/recipients      -> recipientsResponse (admins: everyone; others: admins)
 *   GET  /api/v1/chats/:id/messages    -> chatMessagesResponse
 *   POST /api/v1/chats/:id/messages    chatMessageInput -> chatMessageView (201)
 *   POST /api/v1/chats/:id/read        -> 204
 */
import { z } from 'zod';
import { role } from './users';

const isoDate = z.iso.datetime({ offset: true });

export const presence = z.enum(['online', 'away', 'offline']);

export const chatThreadView = z.object({
  id: z.uuid(),
  /** "client" when the other participant is a client user, "admin" otherwise. */
  type: z.enum(['client', 'admin']),
  participant: z.object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    role,
  }),
  lastMessage: z.string().nullable(),
  lastMessageAt: isoDate.nullable(),
  unreadCount: z.number().int(),
  /** From live connections: online (seen within 90 s), away (within 15 min), offline (docs/DECISIONS.md). */
  status: presence,
});
export type ChatThreadView = z.infer<typeof chatThreadView>;

export const findChatsQuery = z.object({
  tab: z.enum(['all', 'clients', 'admin']).default('all'),
  search: z.string().trim().max(200).optional(),
});
export const findChatsResponse = z.object({
  threads: z.array(chatThreadView),
  /** `total` (threads) and `unread` (unread messages) cover all my threads, whatever the tab or search. */
  total: z.number().int(),
  unread: z.number().int(),
});

export const CHAT_MESSAGE_MAX = 5000;
export const chatMessageInput = z.object({
  message: z.string().trim().min(1, { error: 'Message cannot be empty' }).max(CHAT_MESSAGE_MAX, { error: 'Message is too long' }),
});
export const newChatInput = z.object({
  recipientId: z.uuid({ error: 'Please select a recipient' }),
  message: chatMessageInput.shape.message,
});

export const chatMessageView = z.object({
  id: z.uuid(),
  threadId: z.uuid(),
  senderId: z.uuid().nullable(),
  senderName: z.string(),
  message: z.string(),
  timestamp: isoDate,
  isAdmin: z.boolean(),
});
export const chatMessagesResponse = z.object({ messages: z.array(chatMessageView) });

export const recipientsResponse = z.object({
  recipients: z.array(
    z.object({ id: z.uuid(), name: z.string(), email: z.string(), company: z.string().nullable(), role }),
  ),
});
