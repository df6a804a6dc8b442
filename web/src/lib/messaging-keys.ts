/**
 * Query keys of the messaging data, shared because live events (lib/live-messaging.ts) update
 * the caches of several screens: /conversations, /messages, the dashboard and the chats.
 */
import type { z } from 'zod';
import type { conversationTab, messageFilter } from '@common/api/conversations';

export interface ConversationsFilter {
  tab: z.infer<typeof conversationTab>;
  search?: string | undefined;
  clientId?: string | undefined;
}

export interface MessagesFilter {
  filter: z.infer<typeof messageFilter>;
  search?: string | undefined;
  limit?: number | undefined;
}

export interface ChatsFilter {
  tab: 'all' | 'clients' | 'admin';
  search?: string | undefined;
}

export const conversationKeys = {
  all: ['conversations'] as const,
  lists: () => [...conversationKeys.all, 'list'] as const,
  list: (filter: ConversationsFilter) => [...conversationKeys.lists(), filter] as const,
  detail: (id: string) => [...conversationKeys.all, 'detail', id] as const,
  thread: (id: string) => [...conversationKeys.all, 'thread', id] as const,
  /** Dashboard figures derived from conversations. */
  overview: () => [...conversationKeys.all, 'overview'] as const,
  contacts: (clientId: string) => [...conversationKeys.all, 'contacts', clientId] as const,
};

export const messageKeys = {
  all: ['messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (filter: MessagesFilter) => [...messageKeys.lists(), filter] as const,
};

export const chatKeys = {
  all: ['chats'] as const,
  lists: () => [...chatKeys.all, 'list'] as const,
  list: (filter: ChatsFilter) => [...chatKeys.lists(), filter] as const,
  messages: (threadId: string) => [...chatKeys.all, 'messages', threadId] as const,
  recipients: () => [...chatKeys.all, 'recipients'] as const,
};
