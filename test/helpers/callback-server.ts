/**
 * A custom platform's callback endpoint on loopback: records every request (raw body and
 * headers) and answers from a script — a status per request, the last one repeating — or hangs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type ScriptedAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface CallbackServer {
  url: string;
  received: ReceivedCallback[];
  /** Answers for the next requests, in order; the last one repeats. */
  script(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const received: ReceivedCallback[] = [];
  let answers: ScriptedAnswer[] = [{ status: 200, body: '{"ok":true}' }];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/parley/callback`,
    received,
    script(...next) {
      answers = next;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
