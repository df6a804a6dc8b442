/**
 * Live updates for the portal and the widget. Every instance listens to the event bus (NOTIFY), so
 * an event published by any instance reaches sockets connected to any other. Each event's entity
 * is loaded once per instance and sent to the connections whose subscriptions allow it:
 *
 *   "inbox"              staff: everything; client users: their client's conversations only
 *   "conversation:<id>"  authorised when subscribing (the conversation must be visible)
 *   "chats"              the user's own internal chat threads
 *   "widget"             a visitor's own conversation
 *   "automations"        staff: every automation's executions and messages; client users: their client's
 *   "automation:<id>"    one automation's executions and messages (authorised when subscribing)
 *   "contact-messages"   administrators: new contact form messages
 */
import type { Logger } from 'pino';
import type { RealtimeEventName, RealtimeServerMessage } from '../../../common/api/realtime';
import type { AnyDomainEvent } from '../../events/domain-events';
import type { EventBus } from '../../events/event-bus';
import type { SessionUser } from '../../http/access';

export interface VisitorPrincipal {
  channelId: string;
  clientId: string;
  /** The contact's id on the channel (the visitor id). */
  externalId: string;
}

export type Principal = { kind: 'user'; user: SessionUser } | { kind: 'visitor'; visitor: VisitorPrincipal };

export interface RealtimeSocket {
  send(data: string): void;
  readonly bufferedAmount: number;
  close(code?: number, reason?: string): void;
}

/** What the hub loads to route and render an event. Entities come in their API shapes. */
export interface RealtimeLoaders {
  /** Conversation view plus routing facts, or undefined if gone. */
  conversation(id: string): Promise<{ view: unknown; clientId: string; channelId: string; contactExternalId: string } | undefined>;
  message(id: string): Promise<{ view: unknown; widgetView: unknown; clientId: string; conversationId: string; channelId: string; contactExternalId: string } | undefined>;
  /** A chat message / thread as one participant sees it. */
  chatMessage?(messageId: string, viewerId: string): Promise<unknown>;
  chatThread?(threadId: string, viewerId: string): Promise<unknown>;
  /** Whether a user may see a conversation (subscription check). */
  canSeeConversation(user: SessionUser, conversationId: string): Promise<boolean>;
  /** An automation execution / step message in its API shape, with its automation and that automation's client (null: staff only). */
  automationExecution?(id: string): Promise<{ view: unknown; automationId: string; clientId: string | null } | undefined>;
  automationMessage?(id: string): Promise<{ view: unknown; automationId: string; clientId: string | null } | undefined>;
  /** Whether a user may see an automation (subscription check). */
  canSeeAutomation?(user: SessionUser, automationId: string): Promise<boolean>;
  /** A contact form message in its API shape (administrators only), or undefined if gone. */
  contactMessage?(id: string): Promise<unknown>;
}

export interface Connection {
  id: number;
  principal: Principal;
  topics: Set<string>;
  socket: RealtimeSocket;
}

const MAX_BUFFERED_BYTES = 1024 * 1024;

function isStaff(user: SessionUser): boolean {
  return user.role === 'admin' || user.role === 'manager';
}

export class RealtimeHub {
  readonly #connections = new Map<number, Connection>();
  readonly #logger: Logger;
  readonly #loaders: RealtimeLoaders;
  #nextId = 1;
  #stopListening: (() => void) | undefined;

  constructor(loaders: RealtimeLoaders, logger: Logger) {
    this.#loaders = loaders;
    this.#logger = logger.child({ component: 'realtime' });
  }

  async start(events: EventBus): Promise<void> {
    this.#stopListening = await events.listen((event) => {
      this.#route(event).catch((error: unknown) => this.#logger.error({ err: error, event: event.name }, 'routing a live event failed'));
    });
  }

  stop(): void {
    this.#stopListening?.();
    for (const connection of this.#connections.values()) connection.socket.close(1001, 'Server shutting down');
    this.#connections.clear();
  }

  get size(): number {
    return this.#connections.size;
  }

  /** Users with at least one live connection on this instance. */
  connectedUserIds(): Set<string> {
    const ids = new Set<string>();
    for (const c of this.#connections.values()) if (c.principal.kind === 'user') ids.add(c.principal.user.id);
    return ids;
  }

  add(principal: Principal, socket: RealtimeSocket): Connection {
    const connection: Connection = { id: this.#nextId++, principal, topics: new Set(), socket };
    this.#connections.set(connection.id, connection);
    return connection;
  }

  remove(connection: Connection): void {
    this.#connections.delete(connection.id);
  }

  /** Authorises and records a subscription; answers what the client should hear. */
  async subscribe(connection: Connection, id: string, topic: string): Promise<RealtimeServerMessage> {
    const { principal } = connection;
    const refuse: RealtimeServerMessage = { type: 'error', id, code: 'NOT_FOUND', message: 'Not found' };
    if (topic === 'widget') {
      if (principal.kind !== 'visitor') return refuse;
    } else if (principal.kind !== 'user') {
      return refuse;
    } else if (topic.startsWith('conversation:')) {
      if (!(await this.#loaders.canSeeConversation(principal.user, topic.slice('conversation:'.length)))) return refuse;
    } else if (topic.startsWith('automation:')) {
      if (!(await this.#loaders.canSeeAutomation?.(principal.user, topic.slice('automation:'.length)))) return refuse;
    } else if (topic === 'contact-messages') {
      if (principal.user.role !== 'admin') return refuse;
    }
    connection.topics.add(topic);
    return { type: 'subscribed', id, topic };
  }

  unsubscribe(connection: Connection, topic: string): void {
    connection.topics.delete(topic);
  }

  send(connection: Connection, message: RealtimeServerMessage): void {
    if (connection.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A client that cannot keep up is dropped; it reconnects and refetches.
      connection.socket.close(1013, 'Too slow');
      this.remove(connection);
      return;
    }
    connection.socket.send(JSON.stringify(message));
  }

  #emit(connection: Connection, topic: string, event: RealtimeEventName, data: unknown): void {
    this.send(connection, { type: 'event', topic, event, data });
  }

  async #route(event: AnyDomainEvent): Promise<void> {
    if (this.#connections.size === 0) return;
    switch (event.name) {
      case 'conversation.created':
      case 'conversation.updated': {
        const loaded = await this.#loaders.conversation(event.payload.conversationId);
        if (!loaded) return;
        const topic = `conversation:${event.payload.conversationId}`;
        for (const c of this.#connections.values()) {
          if (c.principal.kind !== 'user') continue;
          const user = c.principal.user;
          if (c.topics.has('inbox') && (isStaff(user) || user.clientId === loaded.clientId)) this.#emit(c, 'inbox', event.name, loaded.view);
          if (c.topics.has(topic)) this.#emit(c, topic, event.name, loaded.view);
        }
        return;
      }
      case 'message.created':
      case 'message.updated': {
        const loaded = await this.#loaders.message(event.payload.messageId);
        if (!loaded) return;
        const topic = `conversation:${loaded.conversationId}`;
        for (const c of this.#connections.values()) {
          if (c.principal.kind === 'visitor') {
            const v = c.principal.visitor;
            if (c.topics.has('widget') && v.channelId === loaded.channelId && v.externalId === loaded.contactExternalId) {
              this.#emit(c, 'widget', event.name, loaded.widgetView);
            }
            continue;
          }
          const user = c.principal.user;
          if (c.topics.has('inbox') && (isStaff(user) || user.clientId === loaded.clientId)) this.#emit(c, 'inbox', event.name, loaded.view);
          if (c.topics.has(topic)) this.#emit(c, topic, event.name, loaded.view);
        }
        return;
      }
      case 'chat.message.created':
      case 'chat.thread.updated': {
        const participants = new Set(event.payload.participantIds);
        for (const c of this.#connections.values()) {
          if (c.principal.kind !== 'user' || !c.topics.has('chats') || !participants.has(c.principal.user.id)) continue;
          const viewer = c.principal.user.id;
          const data =
            event.name === 'chat.message.created'
              ? await this.#loaders.chatMessage?.(event.payload.messageId, viewer)
              : await this.#loaders.chatThread?.(event.payload.threadId, viewer);
          if (data !== undefined) this.#emit(c, 'chats', event.name, data);
        }
        return;
      }
      case 'conversation.reopened':
      case 'conversation.escalated':
      case 'conversation.resolved':
      case 'lead.qualified':
      case 'satisfaction.rated':
        // Published with a conversation.updated (or message.created), which brings the screens the conversation's new state.
        return;
      case 'contact.created':
        // A contact is shown through its conversation.
        return;
      case 'automation.execution.updated':
      case 'automation.message.created': {
        const loaded =
          event.name === 'automation.execution.updated'
            ? await this.#loaders.automationExecution?.(event.payload.executionId)
            : await this.#loaders.automationMessage?.(event.payload.messageId);
        if (!loaded) return;
        const topic = `automation:${loaded.automationId}`;
        for (const c of this.#connections.values()) {
          if (c.principal.kind !== 'user') continue;
          const user = c.principal.user;
          // Checked again per event: the automation may have moved to another client since the subscription.
          if (!isStaff(user) && (loaded.clientId === null || user.clientId !== loaded.clientId)) continue;
          if (c.topics.has('automations')) this.#emit(c, 'automations', event.name, loaded.view);
          if (c.topics.has(topic)) this.#emit(c, topic, event.name, loaded.view);
        }
        return;
      }
      case 'notification.created': {
        for (const c of this.#connections.values()) {
          if (c.principal.kind !== 'user' || c.principal.user.id !== event.payload.userId || !c.topics.has('notifications')) continue;
          this.#emit(c, 'notifications', event.name, { id: event.payload.notificationId });
        }
        return;
      }
      case 'contact_message.created': {
        const listening = [...this.#connections.values()].filter(
          (c) => c.principal.kind === 'user' && c.principal.user.role === 'admin' && c.topics.has('contact-messages'),
        );
        if (listening.length === 0) return;
        const view = await this.#loaders.contactMessage?.(event.payload.messageId);
        if (view === undefined) return;
        for (const c of listening) this.#emit(c, 'contact-messages', event.name, view);
        return;
      }
      default: {
        const unhandled: never = event;
        void unhandled;
      }
    }
  }
}
