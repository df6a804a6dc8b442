/** A WebSocket client for the realtime endpoint that collects what the server sends. */
import WebSocket from 'ws';
import type { RealtimeServerMessage } from '../../common/api/realtime';

export interface TestSocket {
  messages: RealtimeServerMessage[];
  send(message: unknown): void;
  /** Resolves with the first message (already received or future) matching `predicate`. */
  next(predicate: (m: RealtimeServerMessage) => boolean, timeoutMs?: number): Promise<RealtimeServerMessage>;
  subscribe(topic: string): Promise<RealtimeServerMessage>;
  close(): void;
}

export async function connectRealtime(baseUrl: string, options: { cookie?: string; query?: string; origin?: string } = {}): Promise<TestSocket> {
  const url = `${baseUrl.replace(/^http/u, 'ws')}/api/v1/realtime${options.query ? `?${options.query}` : ''}`;
  const socket = new WebSocket(url, {
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.origin ? { origin: options.origin } : {}) },
  });
  const messages: RealtimeServerMessage[] = [];
  const waiters: { predicate: (m: RealtimeServerMessage) => boolean; resolve: (m: RealtimeServerMessage) => void }[] = [];
  socket.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString('utf8')) as RealtimeServerMessage;
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.predicate(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let subscriptionId = 0;
  const api: TestSocket = {
    messages,
    send: (message) => socket.send(JSON.stringify(message)),
    next(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching realtime message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`)), timeoutMs);
        waiters.push({
          predicate,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    async subscribe(topic) {
      const id = `s${++subscriptionId}`;
      api.send({ type: 'subscribe', id, topic });
      return api.next((m) => (m.type === 'subscribed' || m.type === 'error') && 'id' in m && m.id === id);
    },
    close: () => socket.close(),
  };
  await api.next((m) => m.type === 'ready' || m.type === 'error');
  return api;
}

/** The session cookie header of a signed-in TestClient. */
export function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
