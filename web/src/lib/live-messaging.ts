/**
 * Live events → TanStack Query caches. What an event carries is written into the caches at once
 * (the open thread, the conversation, a message's delivery status or read state); what it may
 * change but does not carry (tab counts, list membership and order, response times) is refetched,
 * coalesced so a burst of events costs one request per list.
 *
 * One listener per topic for the whole tab, however many components ask for it.
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { chatMessageView, chatThreadView, type chatMessagesResponse, type findChatsResponse } from '@common/api/chats';
import {
  conversationView,
  messageView,
  type ConversationView,
  type findConversationsResponse,
  type findMessagesResponse,
  type MessageView,
  type threadResponse,
} from '@common/api/conversations';
import { chatKeys, conversationKeys, messageKeys } from './messaging-keys';
import { realtimeClient, type RealtimeEvent } from './realtime';

export type ConversationPages = InfiniteData<z.infer<typeof findConversationsResponse>, string | null>;
export type ThreadPages = InfiniteData<z.infer<typeof threadResponse>, string | null>;
export type MessagesList = z.infer<typeof findMessagesResponse>;
export type ChatsList = z.infer<typeof findChatsResponse>;
export type ChatMessages = z.infer<typeof chatMessagesResponse>;
type ChatMessage = z.infer<typeof chatMessageView>;
type ChatThread = z.infer<typeof chatThreadView>;

function byTimeThenId<T extends { id: string }>(time: (item: T) => string) {
  return (a: T, b: T) => time(a).localeCompare(time(b)) || a.id.localeCompare(b.id);
}
const byCreatedAt = byTimeThenId<MessageView>((m) => m.createdAt);

/**
 * The thread's pages hold the newest messages first (page 0) and older ones after it, each page
 * oldest first. A message already there is replaced (a status change); a new one joins page 0.
 */
export function upsertThreadMessage(data: ThreadPages | undefined, message: MessageView): ThreadPages | undefined {
  if (!data) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.messages.some((m) => m.id === message.id)) return page;
    found = true;
    return { ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) };
  });
  if (found) return { ...data, pages };
  const [first, ...rest] = data.pages;
  const newest = first ?? { messages: [], hasMore: false };
  return { ...data, pages: [{ ...newest, messages: [...newest.messages, message].sort(byCreatedAt) }, ...rest] };
}

/** A changed conversation replaces its copy in every list page where it appears. */
export function replaceConversation(data: ConversationPages | undefined, view: ConversationView): ConversationPages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.conversations.some((c) => c.id === view.id)) return page;
    changed = true;
    // Merged: a row keeps what only the list has (the search match) until the list refetches.
    return { ...page, conversations: page.conversations.map((c) => (c.id === view.id ? { ...c, ...view } : c)) };
  });
  return changed ? { ...data, pages } : data;
}

export function replaceMessage(data: MessagesList | undefined, message: MessageView): MessagesList | undefined {
  if (!data?.messages.some((m) => m.id === message.id)) return data;
  return { ...data, messages: data.messages.map((m) => (m.id === message.id ? message : m)) };
}

export function upsertChatMessage(data: ChatMessages | undefined, message: ChatMessage): ChatMessages | undefined {
  if (!data) return data;
  if (data.messages.some((m) => m.id === message.id)) {
    return { messages: data.messages.map((m) => (m.id === message.id ? message : m)) };
  }
  return { messages: [...data.messages, message].sort(byTimeThenId<ChatMessage>((m) => m.timestamp)) };
}

export function replaceChatThread(data: ChatsList | undefined, thread: ChatThread): ChatsList | undefined {
  if (!data?.threads.some((t) => t.id === thread.id)) return data;
  return { ...data, threads: data.threads.map((t) => (t.id === thread.id ? thread : t)) };
}

export type Invalidate = (...keys: QueryKey[]) => void;

/** Invalidations requested within `delayMs` are merged into one per key. */
export function coalescedInvalidator(queryClient: QueryClient, delayMs = 250): Invalidate {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (...keys) => {
    for (const key of keys) pending.set(JSON.stringify(key), key);
    timer ??= setTimeout(() => {
      timer = null;
      const batch = [...pending.values()];
      pending.clear();
      for (const queryKey of batch) void queryClient.invalidateQueries({ queryKey });
    }, delayMs);
  };
}

/** An "inbox" event: conversations and messages the user may see. */
export function applyInboxEvent(queryClient: QueryClient, event: RealtimeEvent, invalidate: Invalidate): void {
  switch (event.event) {
    case 'conversation.created':
    case 'conversation.updated': {
      const parsed = conversationView.safeParse(event.data);
      if (!parsed.success) return;
      const view = parsed.data;
      if (queryClient.getQueryData(conversationKeys.detail(view.id)) !== undefined) {
        queryClient.setQueryData(conversationKeys.detail(view.id), view);
      }
      queryClient.setQueriesData<ConversationPages>({ queryKey: conversationKeys.lists() }, (old) => replaceConversation(old, view));
      invalidate(conversationKeys.lists(), conversationKeys.overview(), messageKeys.lists());
      return;
    }
    case 'message.created':
    case 'message.updated': {
      const parsed = messageView.safeParse(event.data);
      if (!parsed.success) return;
      const message = parsed.data;
      queryClient.setQueryData<ThreadPages>(conversationKeys.thread(message.conversationId), (old) => upsertThreadMessage(old, message));
      queryClient.setQueriesData<MessagesList>({ queryKey: messageKeys.lists() }, (old) => replaceMessage(old, message));
      // A new message changes list membership, previews and the response time of the message it answers.
      if (event.event === 'message.created') invalidate(messageKeys.lists(), conversationKeys.lists(), conversationKeys.overview());
      return;
    }
    case 'chat.message.created':
    case 'chat.thread.updated':
    case 'notification.created':
    case 'automation.execution.updated':
    case 'automation.message.created':
    case 'contact_message.created':
      return;
    default: {
      const unhandled: never = event.event;
      void unhandled;
    }
  }
}

/** A "chats" event: the user's internal chat threads. */
export function applyChatsEvent(queryClient: QueryClient, event: RealtimeEvent, invalidate: Invalidate): void {
  if (event.event === 'chat.message.created') {
    const parsed = chatMessageView.safeParse(event.data);
    if (!parsed.success) return;
    queryClient.setQueryData<ChatMessages>(chatKeys.messages(parsed.data.threadId), (old) => upsertChatMessage(old, parsed.data));
    invalidate(chatKeys.lists());
  } else if (event.event === 'chat.thread.updated') {
    const parsed = chatThreadView.safeParse(event.data);
    if (!parsed.success) return;
    queryClient.setQueriesData<ChatsList>({ queryKey: chatKeys.lists() }, (old) => replaceChatThread(old, parsed.data));
    invalidate(chatKeys.lists());
  }
}

type LiveTopic = 'inbox' | 'chats';
const APPLY: Record<LiveTopic, typeof applyInboxEvent> = { inbox: applyInboxEvent, chats: applyChatsEvent };
const REFETCH_ON_RECONNECT: Record<LiveTopic, QueryKey[]> = {
  inbox: [conversationKeys.all, messageKeys.all],
  chats: [chatKeys.all],
};

const retained = new Map<LiveTopic, { count: number; release: () => void }>();

/** Keep one topic's caches live; returns the release function. */
export function retainLiveSync(topic: LiveTopic, queryClient: QueryClient): () => void {
  let entry = retained.get(topic);
  if (!entry) {
    const invalidate = coalescedInvalidator(queryClient);
    const client = realtimeClient();
    const unsubscribe = client.subscribe(topic, (event) => APPLY[topic](queryClient, event, invalidate));
    const stopReconnect = client.onReconnect(() => invalidate(...REFETCH_ON_RECONNECT[topic]));
    entry = {
      count: 0,
      release: () => {
        unsubscribe();
        stopReconnect();
      },
    };
    retained.set(topic, entry);
  }
  entry.count += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const current = retained.get(topic);
    if (!current) return;
    current.count -= 1;
    if (current.count === 0) {
      retained.delete(topic);
      current.release();
    }
  };
}
