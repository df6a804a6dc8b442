/**
 * Live replies over the realtime WebSocket (common/api/realtime.ts), topic "widget". Reconnects
 * with exponential backoff and jitter (1 s … 30 s), at once when the browser comes back online.
 * Events sent while the socket was down are not replayed, so after every subscription the caller
 * refetches the history (the first one closes the gap between loading it and subscribing).
 */
import { isWidgetMessage, type WidgetMessage } from './api';

export interface LiveOptions {
  /** The socket URL for the current visitor token. */
  url(): string;
  onMessage(message: WidgetMessage): void;
  /** Subscribed (again): refetch what may have been missed. */
  onSubscribed(): void;
  /** The token was refused: get a fresh one; the connection retries afterwards. */
  onUnauthorized(): void;
}

const MAX_DELAY_MS = 30_000;
/** Close code the server uses for a refused token. */
const UNAUTHENTICATED = 4401;

export function connectLive(options: LiveOptions): { close(): void } {
  let socket: WebSocket | null = null;
  let failures = 0;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    if (closed || timer !== undefined) return;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** failures) * (0.5 + Math.random() / 2);
    failures++;
    timer = setTimeout(() => {
      timer = undefined;
      open();
    }, delay);
  };

  function open(): void {
    if (closed) return;
    const ws = new WebSocket(options.url());
    socket = ws;
    ws.onmessage = (event: MessageEvent) => {
      let message: unknown;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (typeof message !== 'object' || message === null) return;
      const m = message as { type?: unknown; code?: unknown; topic?: unknown; data?: unknown };
      if (m.type === 'ready') ws.send(JSON.stringify({ type: 'subscribe', id: 'widget', topic: 'widget' }));
      else if (m.type === 'subscribed') {
        failures = 0;
        options.onSubscribed();
      } else if (m.type === 'event' && m.topic === 'widget' && isWidgetMessage(m.data)) options.onMessage(m.data);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket === ws) socket = null;
      if (event.code === UNAUTHENTICATED) options.onUnauthorized();
      schedule();
    };
  }

  const online = () => {
    if (socket || closed) return;
    clearTimeout(timer);
    timer = undefined;
    open();
  };
  window.addEventListener('online', online);
  open();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener('online', online);
      socket?.close();
    },
  };
}
