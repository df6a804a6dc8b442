/**
 * One WebSocket per tab to `/api/v1/realtime` (common/api/realtime.ts), shared by every screen.
 * Screens subscribe to topics; the first listener of a topic subscribes on the server, the last
 * one to leave unsubscribes. A dropped connection comes back with exponential backoff and
 * resubscribes every topic; `onReconnect` listeners then refetch what they may have missed.
 *
 * The socket is opened by the first subscription or hold (the signed-in layout holds it, which is
 * what makes a user "online" in chat presence) and closed when nobody needs it any more.
 */
import { realtimeServerMessage, type RealtimeClientMessage, type RealtimeEventName } from '@common/api/realtime';

export interface RealtimeEvent {
  topic: string;
  event: RealtimeEventName;
  /** The entity in its API shape; each listener parses it with the contract's schema. */
  data: unknown;
}

export type RealtimeListener = (event: RealtimeEvent) => void;
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The part of the browser's WebSocket the client uses (a fake in unit tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface RealtimeClientOptions {
  url: () => string;
  createSocket: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  random?: () => number;
  /** How long an unused connection stays open before it is closed (navigation between pages). */
  idleCloseMs?: number;
}

const OPEN = 1;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** Exponential backoff with full jitter: attempt 0 → 0–500 ms, then doubling, capped at 30 s. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class RealtimeClient {
  readonly #options: Required<Omit<RealtimeClientOptions, 'url' | 'createSocket'>> & Pick<RealtimeClientOptions, 'url' | 'createSocket'>;
  readonly #topics = new Map<string, Set<RealtimeListener>>();
  readonly #reconnectListeners = new Set<() => void>();
  readonly #statusListeners = new Set<() => void>();
  #holds = 0;
  #socket: SocketLike | null = null;
  #ready = false;
  #attempt = 0;
  #everOpened = false;
  #retryTimer: unknown = null;
  #idleTimer: unknown = null;
  #nextId = 1;
  #status: RealtimeStatus = 'idle';
  /** Refused for good (signed out): no reconnects until a new subscription or hold. */
  #refused = false;

  constructor(options: RealtimeClientOptions) {
    this.#options = {
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      random: Math.random,
      idleCloseMs: 5_000,
      ...options,
    };
  }

  get status(): RealtimeStatus {
    return this.#status;
  }

  /** Topics with at least one listener. */
  get topics(): string[] {
    return [...this.#topics.keys()];
  }

  /** Listen to one topic; returns the unsubscribe function. */
  subscribe(topic: string, listener: RealtimeListener): () => void {
    let listeners = this.#topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.#topics.set(topic, listeners);
      this.#sendSubscription('subscribe', topic);
    }
    listeners.add(listener);
    this.#refused = false;
    this.#ensureOpen();
    return () => {
      const current = this.#topics.get(topic);
      if (!current?.delete(listener) || current.size > 0) return;
      this.#topics.delete(topic);
      this.#sendSubscription('unsubscribe', topic);
      this.#closeIfUnused();
    };
  }

  /** Keep the connection open without listening (presence); returns the release function. */
  hold(): () => void {
    this.#holds += 1;
    this.#refused = false;
    this.#ensureOpen();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
      this.#closeIfUnused();
    };
  }

  /** Called after the connection came back from a drop (events may have been missed). */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  onStatus(listener: () => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Close now and forget every topic (sign-out). */
  reset(): void {
    this.#topics.clear();
    this.#holds = 0;
    this.#teardown();
    this.#setStatus('idle');
  }

  #setStatus(status: RealtimeStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    for (const listener of this.#statusListeners) listener();
  }

  #needed(): boolean {
    return this.#holds > 0 || this.#topics.size > 0;
  }

  #ensureOpen(): void {
    if (this.#idleTimer !== null) {
      this.#options.clearTimer(this.#idleTimer);
      this.#idleTimer = null;
    }
    if (this.#socket || this.#retryTimer !== null) return;
    this.#connect();
  }

  #closeIfUnused(): void {
    if (this.#needed() || this.#idleTimer !== null) return;
    this.#idleTimer = this.#options.setTimer(() => {
      this.#idleTimer = null;
      if (this.#needed()) return;
      this.#teardown();
      this.#setStatus('idle');
    }, this.#options.idleCloseMs);
  }

  #teardown(): void {
    if (this.#retryTimer !== null) this.#options.clearTimer(this.#retryTimer);
    if (this.#idleTimer !== null) this.#options.clearTimer(this.#idleTimer);
    this.#retryTimer = null;
    this.#idleTimer = null;
    const socket = this.#socket;
    this.#socket = null;
    this.#ready = false;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      socket.close(1000, 'Not needed');
    }
  }

  #connect(): void {
    this.#setStatus(this.#everOpened ? 'reconnecting' : 'connecting');
    let socket: SocketLike;
    try {
      socket = this.#options.createSocket(this.#options.url());
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    this.#ready = false;
    socket.onmessage = (message) => this.#onMessage(message.data);
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#ready = false;
      // 4401: the server no longer knows this session; reconnecting cannot help until it changes.
      if (event.code === 4401) this.#refused = true;
      if (this.#needed() && !this.#refused) this.#scheduleReconnect();
      else this.#setStatus('closed');
    };
    socket.onerror = () => {
      // A close event follows; reconnection is handled there.
    };
  }

  #scheduleReconnect(): void {
    this.#setStatus('reconnecting');
    const delay = reconnectDelay(this.#attempt, this.#options.random);
    this.#attempt += 1;
    this.#retryTimer = this.#options.setTimer(() => {
      this.#retryTimer = null;
      if (this.#needed() && !this.#refused) this.#connect();
    }, delay);
  }

  #onMessage(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = realtimeServerMessage.safeParse(json);
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case 'ready': {
        this.#ready = true;
        this.#attempt = 0;
        const wasReconnect = this.#everOpened;
        this.#everOpened = true;
        for (const topic of this.#topics.keys()) this.#sendSubscription('subscribe', topic);
        this.#setStatus('open');
        if (wasReconnect) for (const listener of this.#reconnectListeners) listener();
        return;
      }
      case 'event': {
        const listeners = this.#topics.get(message.topic);
        if (!listeners) return;
        const event: RealtimeEvent = { topic: message.topic, event: message.event, data: message.data };
        for (const listener of [...listeners]) {
          try {
            listener(event);
          } catch (error) {
            console.error('A realtime listener failed', error);
          }
        }
        return;
      }
      case 'error':
        if (message.code === 'UNAUTHENTICATED') this.#refused = true;
        return;
      case 'subscribed':
      case 'pong':
        return;
      default: {
        const unhandled: never = message;
        void unhandled;
      }
    }
  }

  #sendSubscription(type: 'subscribe' | 'unsubscribe', topic: string): void {
    const socket = this.#socket;
    if (!socket || !this.#ready || socket.readyState !== OPEN) return; // sent on 'ready'
    const message: RealtimeClientMessage = { type, id: String(this.#nextId++), topic };
    socket.send(JSON.stringify(message));
  }
}

function browserUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/v1/realtime`;
}

let shared: RealtimeClient | undefined;

/** The tab's one realtime connection. */
export function realtimeClient(): RealtimeClient {
  shared ??= new RealtimeClient({ url: browserUrl, createSocket: (url) => new WebSocket(url) });
  return shared;
}
