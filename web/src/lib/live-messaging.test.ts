import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView, MessageView } from '@common/api/conversations';
import {
  applyChatsEvent,
  applyInboxEvent,
  coalescedInvalidator,
  replaceConversation,
  upsertChatMessage,
  upsertThreadMessage,
  type ChatMessages,
  type ConversationPages,
  type MessagesList,
  type ThreadPages,
} from './live-messaging';
import { chatKeys, conversationKeys, messageKeys } from './messaging-keys';

const CLIENT = '00000000-0000-4000-8000-000000000001';
const CONVERSATION = '00000000-0000-4000-8000-0000000000c1';
const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;

function message(n: number, overrides: Partial<MessageView> = {}): MessageView {
  return {
    id: id(n),
    conversationId: CONVERSATION,
    clientId: CLIENT,
    clientName: 'Acme',
    contactName: 'Dana',
    platform: 'whatsapp',
    direction: 'inbound',
    senderType: 'customer',
    senderId: null,
    senderName: 'Dana',
    content: `message ${n}`,
    messageType: 'text',
    media: null,
    status: 'received',
    errorCode: null,
    errorMessage: null,
    externalMessageId: null,
    priority: 'low',
    aiSummary: null,
    aiConfidence: null,
    ai: null,
    sentiment: null,
    read: false,
    responseTimeSeconds: null,
    createdAt: new Date(Date.UTC(2025, 0, 1, 12, n)).toISOString(),
    ...overrides,
  };
}

function conversation(overrides: Partial<ConversationView> = {}): ConversationView {
  return {
    id: CONVERSATION,
    clientId: CLIENT,
    clientName: 'Acme',
    channelId: id(900),
    channelName: 'WhatsApp',
    platform: 'whatsapp',
    contact: { id: id(901), name: 'Dana', externalId: '15550001', avatarUrl: null },
    title: null,
    status: 'active',
    handledBy: 'ai',
    assignedAgentId: null,
    assignedAgentName: null,
    priority: 'low',
    aiSummary: null,
    aiConfidence: null,
    unreadCount: 1,
    messageCount: 1,
    lastMessageAt: new Date(Date.UTC(2025, 0, 1, 12)).toISOString(),
    lastMessagePreview: 'hello',
    canSendFreeText: true,
    windowClosesAt: null,
    isLead: false,
    leadEmail: null,
    leadPhone: null,
    leadSignals: [],
    responseTimeSeconds: null,
    averageResponseSeconds: null,
    sentiment: null,
    createdAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    ...overrides,
  };
}

const thread = (...pages: MessageView[][]): ThreadPages => ({
  pages: pages.map((messages) => ({ messages, hasMore: false })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `p${i}`)),
});

describe('upsertThreadMessage', () => {
  it('adds a new message to the newest page in time order', () => {
    const next = upsertThreadMessage(thread([message(1), message(3)], [message(0)]), message(2));
    expect(next?.pages[0]?.messages.map((m) => m.content)).toEqual(['message 1', 'message 2', 'message 3']);
    expect(next?.pages[1]?.messages).toHaveLength(1);
  });

  it('replaces a message it already has (a delivery status), wherever it is', () => {
    const sent = message(0, { direction: 'outbound', senderType: 'agent', status: 'sent' });
    const next = upsertThreadMessage(thread([message(1)], [sent]), { ...sent, status: 'read' });
    expect(next?.pages[1]?.messages[0]?.status).toBe('read');
    expect(next?.pages.flatMap((p) => p.messages)).toHaveLength(2);
  });

  it('leaves an unloaded thread alone', () => {
    expect(upsertThreadMessage(undefined, message(1))).toBeUndefined();
  });
});

describe('replaceConversation', () => {
  it('replaces the conversation where it appears and keeps the data identity otherwise', () => {
    const data: ConversationPages = {
      pages: [{ conversations: [conversation()], counts: { all: 1, active: 1, pending: 0, escalated: 0, resolved: 0, human: 0, unread: 1 }, nextCursor: null }],
      pageParams: [null],
    };
    const next = replaceConversation(data, conversation({ status: 'escalated' }));
    expect(next?.pages[0]?.conversations[0]?.status).toBe('escalated');
    expect(replaceConversation(data, conversation({ id: id(77) }))).toBe(data);
  });
});

describe('upsertChatMessage', () => {
  it('appends a new chat message once', () => {
    const first = { id: id(1), threadId: id(50), senderId: id(60), senderName: 'Ann', message: 'hi', timestamp: '2025-01-01T12:00:00.000Z', isAdmin: true };
    const second = { ...first, id: id(2), message: 'there', timestamp: '2025-01-01T12:01:00.000Z' };
    const data: ChatMessages = { messages: [first] };
    const once = upsertChatMessage(data, second);
    expect(upsertChatMessage(once, second)?.messages.map((m) => m.message)).toEqual(['hi', 'there']);
  });
});

describe('applyInboxEvent', () => {
  afterEach(() => vi.useRealTimers());

  it('puts a new message into the open thread and refetches the lists it may change', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(conversationKeys.thread(CONVERSATION), thread([message(1)]));
    const invalidated: QueryKey[] = [];
    applyInboxEvent(queryClient, { topic: 'inbox', event: 'message.created', data: message(2) }, (...keys) => invalidated.push(...keys));
    const data = queryClient.getQueryData<ThreadPages>(conversationKeys.thread(CONVERSATION));
    expect(data?.pages[0]?.messages.map((m) => m.id)).toEqual([id(1), id(2)]);
    expect(invalidated).toContainEqual(messageKeys.lists());
    expect(invalidated).toContainEqual(conversationKeys.lists());
  });

  it('updates a message in /messages lists in place (read state, status)', () => {
    const queryClient = new QueryClient();
    const key = messageKeys.list({ filter: 'all' });
    queryClient.setQueryData<MessagesList>(key, { messages: [message(1)], unreadCount: 1 });
    applyInboxEvent(queryClient, { topic: 'inbox', event: 'message.updated', data: message(1, { read: true }) }, () => {});
    expect(queryClient.getQueryData<MessagesList>(key)?.messages[0]?.read).toBe(true);
  });

  it('updates a cached conversation and ignores what it cannot parse', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(conversationKeys.detail(CONVERSATION), conversation());
    applyInboxEvent(queryClient, { topic: 'inbox', event: 'conversation.updated', data: conversation({ handledBy: 'human' }) }, () => {});
    expect(queryClient.getQueryData<ConversationView>(conversationKeys.detail(CONVERSATION))?.handledBy).toBe('human');
    applyInboxEvent(queryClient, { topic: 'inbox', event: 'conversation.updated', data: { id: 'broken' } }, () => {});
    expect(queryClient.getQueryData<ConversationView>(conversationKeys.detail(CONVERSATION))?.handledBy).toBe('human');
    // Conversations nobody has open are not added to the cache.
    applyInboxEvent(queryClient, { topic: 'inbox', event: 'conversation.created', data: conversation({ id: id(5) }) }, () => {});
    expect(queryClient.getQueryData(conversationKeys.detail(id(5)))).toBeUndefined();
  });
});

describe('applyChatsEvent', () => {
  it('appends a chat message to its open thread and refetches the thread list', () => {
    const queryClient = new QueryClient();
    const threadId = id(50);
    queryClient.setQueryData<ChatMessages>(chatKeys.messages(threadId), { messages: [] });
    const invalidated: QueryKey[] = [];
    applyChatsEvent(
      queryClient,
      {
        topic: 'chats',
        event: 'chat.message.created',
        data: { id: id(1), threadId, senderId: id(60), senderName: 'Ann', message: 'hi', timestamp: '2025-01-01T12:00:00.000Z', isAdmin: true },
      },
      (...keys) => invalidated.push(...keys),
    );
    expect(queryClient.getQueryData<ChatMessages>(chatKeys.messages(threadId))?.messages).toHaveLength(1);
    expect(invalidated).toEqual([chatKeys.lists()]);
  });
});

describe('coalescedInvalidator', () => {
  it('merges a burst of invalidations into one per key', async () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    const invalidate = coalescedInvalidator(queryClient, 100);
    for (let i = 0; i < 10; i += 1) invalidate(messageKeys.lists(), conversationKeys.lists());
    expect(spy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
