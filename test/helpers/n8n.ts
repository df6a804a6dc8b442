/**
 * A real n8n for `npm run test:n8n` (test/n8n/*.n8n.test.ts): installed once into a cache outside
 * the repository by scripts/n8n.mjs (`ensureN8n`), started on a free loopback port with a
 * temporary user folder (its SQLite database), in a process group of its own so `stop()` ends it
 * and everything it started. Its owner and a public-API key are set up through n8n's internal
 * REST, as a person would in its settings — only to prepare the test instance; Parley itself uses
 * only the public API with the key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureN8n, N8N_VERSION } from '../../scripts/n8n.mjs';

const OWNER = { email: 'owner@parley.test', firstName: 'Parley', lastName: 'Tests', password: 'Parley-Tests-2026' };

export interface RealN8n {
  /** http://127.0.0.1:<port> */
  url: string;
  version: string;
  apiKey: string;
  /** A call to n8n's public API with the key; throws on a non-2xx answer. */
  api<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', apiPath: string, body?: unknown): Promise<T>;
  /** n8n's output so far (for failure messages). */
  output(): string;
  /** Seconds from spawn to ready, and to the API key. */
  timings: { readySeconds: number; setupSeconds: number };
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal); // the whole process group n8n leads
    } catch {
      // already gone
    }
  };
  kill('SIGTERM');
  const done = await Promise.race([exited(child).then(() => true), sleep(15_000).then(() => false)]);
  if (!done) {
    kill('SIGKILL');
    await exited(child);
  }
}

/** Installs n8n if needed (minutes, once), starts it and sets up its owner and an API key. */
export async function startN8n(options: { readyTimeoutMs?: number } = {}): Promise<RealN8n> {
  const binary = await ensureN8n({ log: (line) => console.log(line) });
  const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-n8n-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(binary, ['start'], {
    cwd: userFolder,
    detached: true, // its own process group, stopped as one
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: userFolder,
      N8N_USER_FOLDER: userFolder,
      N8N_PORT: String(port),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_HOST: '127.0.0.1',
      WEBHOOK_URL: `${url}/`,
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_RUNNERS_ENABLED: 'false',
      N8N_SECURE_COOKIE: 'false',
      N8N_LOG_LEVEL: 'warn',
      DB_SQLITE_POOL_SIZE: '2',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const stop = async () => {
    await stopGroup(child);
    fs.rmSync(userFolder, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`n8n exited with ${child.exitCode} before it was ready:\n${output.slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`n8n was not ready within ${options.readyTimeoutMs ?? 180_000} ms:\n${output.slice(-3000)}`);
      const ready = await fetch(`${url}/healthz/readiness`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await sleep(500);
    }
    const readySeconds = (performance.now() - started) / 1000;

    // The internal REST answers a moment after readiness: retry the first call briefly.
    const rest = async <T>(method: string, restPath: string, body?: unknown, cookie?: string): Promise<{ data: T; cookie: string | null }> => {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${url}${restPath}`, {
          method,
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).catch((error: unknown) => error as Error);
        if (!(response instanceof Error) && response.ok) {
          const json = (await response.json()) as { data: T };
          const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
          return { data: json.data, cookie: setCookie ? setCookie.split(';')[0]! : null };
        }
        if (attempt >= 20) {
          const detail = response instanceof Error ? response.message : `${response.status} ${await response.text()}`;
          throw new Error(`n8n ${method} ${restPath} failed: ${detail}`);
        }
        await sleep(500);
      }
    };
    await rest('POST', '/rest/owner/setup', OWNER);
    const login = await rest('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
    if (!login.cookie) throw new Error('n8n set no n8n-auth cookie on login');
    const scopes = (await rest<string[]>('GET', '/rest/api-keys/scopes', undefined, login.cookie)).data;
    const created = await rest<{ rawApiKey: string }>('POST', '/rest/api-keys', { label: 'parley-tests', expiresAt: null, scopes }, login.cookie);
    const apiKey = created.data.rawApiKey;
    const setupSeconds = (performance.now() - started) / 1000;

    const api = async <T>(method: string, apiPath: string, body?: unknown): Promise<T> => {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${url}/api/v1${apiPath}`, {
          method,
          headers: { 'x-n8n-api-key': apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as T;
        // The public API may answer 404 for a moment after start.
        if (attempt < 10 && response.status === 404 && apiPath.startsWith('/workflows') && method === 'GET') {
          await sleep(500);
          continue;
        }
        throw new Error(`n8n ${method} /api/v1${apiPath}: ${response.status} ${text.slice(0, 500)}`);
      }
    };
    await api('GET', '/workflows?limit=1');

    return { url, version: N8N_VERSION, apiKey, api, output: () => output, timings: { readySeconds, setupSeconds }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
