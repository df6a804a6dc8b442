/**
 * A fake Meta Graph API on loopback: every request is recorded; answers come from per-path
 * scripts (first in, first out), then from a default that answers like Meta does for a send.
 * Point `GRAPH_API_BASE_URL` at `url`.
 *
 *   fake.script('POST', '/v21.0/123/messages', { status: 429, headers: { 'retry-after': '0' } }, { status: 200, body: {...} });
 *   fake.script('POST', '/v21.0/123/messages', 'hang');   // never answers (a timeout)
 *   fake.script('POST', '/v21.0/123/messages', 'drop');   // closes the connection (a network error)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface FakeGraphApi {
  url: string;
  requests: RecordedRequest[];
  /** Answers for the next requests to `method path`, in order. */
  script(method: string, path: string, ...answers: FakeAnswer[]): void;
  /** Requests to `method path`. */
  requestsTo(method: string, path: string): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

let sequence = 0;

/** Meta's answer to a successful send: WhatsApp's shape for `/messages` of a phone number, the Send API's otherwise. */
function defaultAnswer(request: RecordedRequest): FakeAnswer {
  if (request.method === 'POST' && request.path.endsWith('/messages')) {
    const id = ++sequence;
    const body = request.body as { messaging_product?: string; to?: string; recipient?: { id?: string } } | null;
    if (body?.messaging_product === 'whatsapp') {
      return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.fake-${id}` }] } };
    }
    return { status: 200, body: { recipient_id: body?.recipient?.id, message_id: `m_fake-${id}` } };
  }
  if (request.method === 'GET') return { status: 200, body: { id: request.path.split('/').pop(), name: 'Fake Page', username: 'fake', verified_name: 'Fake Shop', display_phone_number: '+1 555 0100' } };
  return { status: 404, body: { error: { message: 'Unknown path', code: 803 } } };
}

export async function startFakeGraphApi(): Promise<FakeGraphApi> {
  const scripts = new Map<string, FakeAnswer[]>();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // keep the text
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, at: Date.now() };
      requests.push(recorded);
      const answer = scripts.get(`${recorded.method} ${recorded.path}`)?.shift() ?? defaultAnswer(recorded);
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(method, path, ...answers) {
      const key = `${method} ${path}`;
      scripts.set(key, [...(scripts.get(key) ?? []), ...answers]);
    },
    requestsTo: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    reset() {
      scripts.clear();
      requests.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
