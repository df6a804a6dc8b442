import { describe, expect, it } from 'vitest';
import { RealtimeClient, reconnectDelay, type RealtimeEvent, type SocketLike } from './realtime';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed = true;
  }
  /** The server accepted the connection and said "ready". */
  accept(): void {
    this.readyState = 1;
    this.receive({ type: 'ready' });
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; done: boolean }[] = [];
  const client = new RealtimeClient({
    url: () => 'ws://test/api/v1/realtime',
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    setTimer: (fn, ms) => {
      const timer = { fn, ms, done: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { done: boolean }).done = true;
    },
    random: () => 0.5,
  });
  const runTimers = () => {
    for (const timer of timers.splice(0)) {
      if (!timer.done) {
        timer.done = true;
        timer.fn();
      }
    }
  };
  return { client, sockets, timers, runTimers };
}

const topicsSent = (socket: FakeSocket, type: string) =>
  socket.sent.filter((m): m is { type: string; topic: string } => (m as { type: string }).type === type).map((m) => m.topic);

describe('the realtime client', () => {
  it('opens one socket for every topic and subscribes once the server is ready', () => {
    const { client, sockets } = setup();
    client.subscribe('inbox', () => {});
    client.subscribe('inbox', () => {});
    client.subscribe('chats', () => {});
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.accept();
    expect(topicsSent(sockets[0]!, 'subscribe')).toEqual(['inbox', 'chats']);
    expect(client.status).toBe('open');
  });

  it('delivers events to every listener of their topic only', () => {
    const { client, sockets } = setup();
    const inbox: RealtimeEvent[] = [];
    const chats: RealtimeEvent[] = [];
    client.subscribe('inbox', (e) => inbox.push(e));
    client.subscribe('chats', (e) => chats.push(e));
    sockets[0]!.accept();
    sockets[0]!.receive({ type: 'event', topic: 'inbox', event: 'message.created', data: { id: 'x' } });
    sockets[0]!.receive({ type: 'nonsense' });
    sockets[0]!.onmessage?.({ data: 'not json' } as MessageEvent);
    expect(inbox).toEqual([{ topic: 'inbox', event: 'message.created', data: { id: 'x' } }]);
    expect(chats).toEqual([]);
  });

  it('unsubscribes on the server when the last listener of a topic leaves', () => {
    const { client, sockets } = setup();
    const hold = client.hold();
    const a = client.subscribe('inbox', () => {});
    const b = client.subscribe('inbox', () => {});
    sockets[0]!.accept();
    a();
    expect(topicsSent(sockets[0]!, 'unsubscribe')).toEqual([]);
    b();
    expect(topicsSent(sockets[0]!, 'unsubscribe')).toEqual(['inbox']);
    expect(sockets[0]!.closed).toBe(false);
    hold();
  });

  it('reconnects with backoff after a drop, resubscribes and tells the reconnect listeners', () => {
    const { client, sockets, timers, runTimers } = setup();
    let reconnects = 0;
    client.onReconnect(() => (reconnects += 1));
    client.subscribe('inbox', () => {});
    sockets[0]!.accept();
    expect(reconnects).toBe(0);

    sockets[0]!.drop();
    expect(client.status).toBe('reconnecting');
    expect(timers.at(-1)!.ms).toBe(reconnectDelay(0, () => 0.5));
    runTimers();
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    expect(timers.at(-1)!.ms).toBe(reconnectDelay(1, () => 0.5));
    runTimers();
    sockets[2]!.accept();
    expect(topicsSent(sockets[2]!, 'subscribe')).toEqual(['inbox']);
    expect(reconnects).toBe(1);
    expect(client.status).toBe('open');

    // A successful connection resets the backoff.
    sockets[2]!.drop();
    expect(timers.at(-1)!.ms).toBe(reconnectDelay(0, () => 0.5));
  });

  it('does not reconnect once the server refused the session', () => {
    const { client, sockets, runTimers } = setup();
    client.subscribe('inbox', () => {});
    sockets[0]!.receive({ type: 'error', code: 'UNAUTHENTICATED', message: 'Sign in' });
    sockets[0]!.drop(4401);
    runTimers();
    expect(sockets).toHaveLength(1);
    expect(client.status).toBe('closed');
  });

  it('closes an unused connection after a grace period, and keeps it if a page takes it back', () => {
    const { client, sockets, runTimers } = setup();
    const off = client.subscribe('inbox', () => {});
    sockets[0]!.accept();
    off();
    const again = client.subscribe('inbox', () => {});
    runTimers();
    expect(sockets[0]!.closed).toBe(false);
    again();
    runTimers();
    expect(sockets[0]!.closed).toBe(true);
    expect(client.status).toBe('idle');
  });
});

describe('reconnectDelay', () => {
  it('doubles from 500 ms with jitter and stops at 30 s', () => {
    expect(reconnectDelay(0, () => 0)).toBe(250);
    expect(reconnectDelay(0, () => 1)).toBe(500);
    expect(reconnectDelay(3, () => 1)).toBe(4000);
    expect(reconnectDelay(20, () => 1)).toBe(30_000);
    expect(reconnectDelay(20, () => 0)).toBe(15_000);
  });
});
