/**
 * The bench's prebuilt-request load: the bytes are those autocannon's own `setupRequest` path
 * writes, every request handed out is sent once, in order, and answered through `onResponse`.
 */
import net from 'node:net';
import autocannon from 'autocannon';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrebuilt, rawRequest } from './load';

interface Received {
  raw: Buffer[];
  close: () => Promise<void>;
  url: string;
}

/** A loopback HTTP/1.1 server on raw sockets: records each request's bytes and answers 200 (or 503 for `fail`). */
async function recordingServer(fail = (_body: string) => false): Promise<Received> {
  const raw: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/iu.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const request = pending.subarray(0, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
        raw.push(Buffer.from(request));
        const status = fail(request.subarray(end + 4).toString('utf8')) ? '503 Service Unavailable' : '200 OK';
        socket.write(`HTTP/1.1 ${status}\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok`);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    raw,
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const servers: Received[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close().catch(() => undefined);
});

describe('rawRequest', () => {
  it('builds the bytes autocannon writes for the same request through setupRequest', async () => {
    const server = await recordingServer();
    servers.push(server);
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=ab12' };
    const body = '{"text":"héllo 👋"}';
    await autocannon({
      url: server.url,
      connections: 1,
      amount: 1,
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, method: 'POST', path: '/hook', headers: { ...headers }, body }) }],
    });
    expect(server.raw).toHaveLength(1);
    expect(rawRequest(server.url, 'POST', '/hook', { ...headers, 'Content-Length': '1' }, body).equals(server.raw[0]!)).toBe(true);
  });
});

describe('loadPrebuilt', () => {
  it('sends each handed-out request once and reports every answer', async () => {
    const server = await recordingServer((body) => body.endsWith('7"}'));
    servers.push(server);
    const bodies: string[] = [];
    const statuses = new Map<string, number>();
    const result = await loadPrebuilt({
      url: server.url,
      connections: 4,
      durationSeconds: 1,
      next: () => {
        const body = `{"n":"${bodies.length}"}`;
        bodies.push(body);
        return {
          bytes: rawRequest(server.url, 'POST', '/hook', { 'content-type': 'application/json' }, body),
          onResponse: (status) => statuses.set(body, status),
        };
      },
    });
    const received = server.raw.map((r) => r.subarray(r.indexOf('\r\n\r\n') + 4).toString('utf8'));
    // Every body arrived at most once, and only bodies that were handed out.
    expect(new Set(received).size).toBe(received.length);
    const handedOut = new Set(bodies);
    expect(received.filter((body) => !handedOut.has(body))).toEqual([]);
    // Those handed out but never received are at most the one in flight per connection at the end.
    expect(bodies.length - received.length).toBeLessThanOrEqual(4);
    expect(received.length).toBeGreaterThan(100);
    // onResponse saw each answer with its status; autocannon counted the same.
    const answered = [...statuses];
    expect(answered.filter(([, s]) => s === 200)).toHaveLength(result.ok);
    expect(answered.filter(([, s]) => s === 503)).toHaveLength(result.non2xx);
    for (const [body, status] of answered) expect(status).toBe(body.endsWith('7"}') ? 503 : 200);
    expect(result.non2xx).toBeGreaterThan(0);
  });
});
