/**
 * A fake n8n on loopback: the public API calls Parley makes (workflows with cursor pages,
 * activate/deactivate, executions), checked against one API key as n8n does (`401
 * {"message":"unauthorized"}`), and the production webhooks of active workflows
 * (`POST /webhook/<path>` → `{"execution_id": …}`, an inactive one 404 as n8n answers). Records
 * every request. The real n8n is exercised by test/n8n/*.n8n.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeN8nWorkflow {
  id: string;
  name: string;
  active: boolean;
  nodes: { name: string; type: string; disabled?: boolean; parameters: Record<string, unknown> }[];
  updatedAt?: string;
}

export interface FakeN8nExecution {
  id: string;
  workflowId: string;
  status: string;
  finished: boolean;
  startedAt: string;
  stoppedAt: string | null;
  data?: unknown;
}

export interface FakeN8nRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeN8n {
  /** http://127.0.0.1:<port> */
  url: string;
  apiKey: string;
  workflows: FakeN8nWorkflow[];
  executions: FakeN8nExecution[];
  requests: FakeN8nRequest[];
  /** The largest page the API hands out (n8n: 250), small here to exercise the cursor. */
  maxPage: number;
  /** Where `POST /webhook/redirect` sends the caller (a 302), to check redirects are not followed. */
  redirectTo: string;
  close(): Promise<void>;
}

export function webhookWorkflow(id: string, name: string, path: string, options: { active?: boolean; method?: string | string[]; disabled?: boolean } = {}): FakeN8nWorkflow {
  return {
    id,
    name,
    active: options.active ?? false,
    updatedAt: '2026-11-20T10:00:00.000Z',
    nodes: [
      {
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        ...(options.disabled ? { disabled: true } : {}),
        parameters: { ...(options.method === undefined ? { httpMethod: 'POST' } : { httpMethod: options.method }), path, responseMode: 'responseNode' },
      },
      { name: 'Respond', type: 'n8n-nodes-base.respondToWebhook', parameters: {} },
    ],
  };
}

export async function startFakeN8n(options: { apiKey?: string; workflows?: FakeN8nWorkflow[]; executions?: FakeN8nExecution[] } = {}): Promise<FakeN8n> {
  let executionCounter = 100;
  const fake: Omit<FakeN8n, 'url' | 'close'> = {
    apiKey: options.apiKey ?? 'n8n_api_fake_0123456789abcdef',
    workflows: options.workflows ?? [],
    executions: options.executions ?? [],
    requests: [],
    maxPage: 2,
    redirectTo: 'http://127.0.0.1:9/',
  };

  function send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }

  function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    if (req.headers['x-n8n-api-key'] !== fake.apiKey) return send(res, 401, { message: 'unauthorized' });
    const path = url.pathname.slice('/api/v1'.length);
    if (req.method === 'GET' && path === '/workflows') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), fake.maxPage);
      const cursor = url.searchParams.get('cursor');
      const offset = cursor ? (JSON.parse(Buffer.from(cursor, 'base64').toString()) as { offset: number }).offset : 0;
      const data = fake.workflows.slice(offset, offset + limit);
      const next = offset + limit < fake.workflows.length ? Buffer.from(JSON.stringify({ limit, offset: offset + limit })).toString('base64') : null;
      return send(res, 200, { data, nextCursor: next });
    }
    const workflow = /^\/workflows\/([^/]+)(?:\/(activate|deactivate))?$/u.exec(path);
    if (workflow) {
      const found = fake.workflows.find((w) => w.id === decodeURIComponent(workflow[1]!));
      if (!found) return send(res, 404, { message: 'Not Found' });
      if (req.method === 'POST' && workflow[2]) {
        found.active = workflow[2] === 'activate';
        return send(res, 200, found);
      }
      if (req.method === 'GET' && !workflow[2]) return send(res, 200, found);
    }
    const execution = /^\/executions\/([^/]+)$/u.exec(path);
    if (req.method === 'GET' && execution) {
      const found = fake.executions.find((e) => e.id === decodeURIComponent(execution[1]!));
      if (!found) return send(res, 404, { message: 'Not Found' });
      const { data, ...rest } = found;
      return send(res, 200, url.searchParams.get('includeData') === 'true' ? { ...rest, data } : rest);
    }
    return send(res, 404, { message: 'not found' });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      fake.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://fake-n8n');
      if (url.pathname.startsWith('/api/v1/')) return api(req, res, url);
      const hook = /^\/webhook\/(.+)$/u.exec(url.pathname);
      if (hook) {
        const path = decodeURIComponent(hook[1]!);
        if (path === 'redirect') {
          res.writeHead(302, { location: fake.redirectTo });
          return res.end();
        }
        const target = fake.workflows.find((w) => w.active && w.nodes.some((n) => n.type === 'n8n-nodes-base.webhook' && n.parameters.path === path));
        if (!target || req.method !== 'POST') {
          return send(res, 404, { code: 404, message: `The requested webhook "${req.method} ${path}" is not registered.`, hint: 'The workflow must be active for a production URL to run successfully.' });
        }
        return send(res, 200, { execution_id: String(++executionCounter) });
      }
      return send(res, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
