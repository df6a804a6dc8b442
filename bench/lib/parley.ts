/**
 * A real Parley server for the messaging figures: `node scripts/start.mjs` in the built copy of
 * the working tree, on PGlite (a temporary data directory) or PostgreSQL (`parley_bench`), with a
 * client and a connected WhatsApp channel created through the operator CLI (`npm run parley --
 * clients:create` / `channels:create`, i.e. the channel service), and an administrator who signs
 * in over HTTP like the portal does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/db/database';
import type { BuiltTree } from './tree';
import { dropBenchDatabase, freshBenchDatabase } from './postgres';
import { type Child, freePort, LOOPBACK, spawnNode, waitFor200 } from './process';
import { sleep } from './stats';
import { tempDir } from './tmp';

export type EngineName = 'PGlite' | 'PostgreSQL';

export const ADMIN_EMAIL = 'bench-admin@example.com';
export const ADMIN_PASSWORD = 'Bench!Messaging#2026-Strong';
const CSRF_HEADERS = { cookie: 'parley_csrf=x', 'x-csrf-token': 'x', 'content-type': 'application/json' };

export interface WhatsAppChannel {
  id: string;
  clientId: string;
  phoneNumberId: string;
  appSecret: string;
}

export interface ParleyServer {
  engine: EngineName;
  url: string;
  child: Child;
  /** The environment the server runs with (the CLI gets the same). */
  env: Record<string, string | undefined>;
  /** Stops the server (SIGTERM: the queue finishes running jobs first). */
  stop(): Promise<void>;
  /** The server's database, opened in the bench process — only once the server has stopped (PGlite allows one process). */
  openDatabase(): Promise<Database>;
  /** Removes the data directory / drops the database. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  engine: EngineName;
  /** Extra environment (JOB_CONCURRENCY, GRAPH_API_BASE_URL…). */
  env?: Record<string, string | undefined>;
  /** Reuse this database / data directory instead of creating a fresh one (a second instance). */
  shareWith?: ParleyServer;
  /**
   * Run on a data directory (and, on PostgreSQL, a database) the caller prepared — a seeded
   * history — instead of fresh ones; `dispose()` leaves them to the caller.
   */
  existing?: { dataDir: string; databaseUrl?: string };
  /** Node options for the server process (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/** Starts Parley and waits for its first 200 on `/`. */
export async function startParley(tree: BuiltTree, options: StartOptions): Promise<ParleyServer> {
  const shared = options.shareWith;
  const existing = options.existing;
  if (existing && options.engine === 'PostgreSQL' && !existing.databaseUrl) throw new Error('startParley: existing.databaseUrl is needed on PostgreSQL');
  const dataDir = shared?.env.DATA_DIR ?? existing?.dataDir ?? tempDir('parley');
  const databaseUrl =
    options.engine === 'PostgreSQL' ? (shared?.env.DATABASE_URL ?? existing?.databaseUrl ?? (await freshBenchDatabase())) : undefined;
  const port = await freePort();
  const url = `http://${LOOPBACK}:${port}`;
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'production',
    AUTH_SECRET: undefined,
    SECRETS_KEY: undefined,
    WEB_DIST_DIR: undefined,
    // Never Meta's real address: a bench server only ever talks to loopback (a closed port unless a fake is given).
    GRAPH_API_BASE_URL: 'http://127.0.0.1:9',
    JOB_CONCURRENCY: undefined,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: LOOPBACK,
    PUBLIC_URL: url,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
    // Request logging off (the baseline has none); warnings and errors still print.
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const child = spawnNode([...(options.nodeArgs ?? []), 'scripts/start.mjs'], { cwd: tree.dir, env });
  try {
    await waitFor200(`${url}/`, child, 90_000, 20);
  } catch (error) {
    await child.stop();
    throw error;
  }
  let disposed = false;
  return {
    engine: options.engine,
    url,
    child,
    env,
    stop: () => child.stop(30_000),
    async openDatabase() {
      if (child.process.exitCode === null && options.engine === 'PGlite') await child.stop(30_000);
      return openDatabase(databaseUrl ? { url: databaseUrl, poolSize: 2 } : { dataDir: path.join(dataDir, 'pglite') });
    },
    async dispose() {
      await child.stop();
      if (disposed || shared || existing) return;
      disposed = true;
      if (databaseUrl) await dropBenchDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `npm run parley -- <args>` against the server's data (through the server itself on PGlite); the parsed JSON. */
export async function parleyCli(tree: BuiltTree, server: ParleyServer, args: string[]): Promise<unknown> {
  const cli = spawnNode([path.join(tree.dir, 'node_modules/tsx/dist/cli.mjs'), 'server/cli/main.ts', ...args], {
    cwd: tree.dir,
    env: { ...server.env, PORT: undefined, LOG_LEVEL: 'warn' },
  });
  const code = await cli.exited;
  const output = cli.output();
  if (code !== 0) throw new Error(`npm run parley -- ${args[0] ?? ''} failed (${code}):\n${output.slice(-2000)}`);
  const start = output.indexOf('{');
  if (start < 0) throw new Error(`npm run parley -- ${args[0] ?? ''} printed no JSON:\n${output.slice(-2000)}`);
  return JSON.parse(output.slice(start)) as unknown;
}

/** A client and a connected WhatsApp channel, created with the operator CLI. */
export async function connectWhatsApp(tree: BuiltTree, server: ParleyServer): Promise<WhatsAppChannel> {
  const appSecret = `bench-app-secret-${Math.random().toString(36).slice(2)}`;
  const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999));
  const client = (await parleyCli(tree, server, ['clients:create', '--name', 'Bench Retail'])) as { id: string };
  const channel = (await parleyCli(tree, server, [
    'channels:create',
    '--client',
    client.id,
    '--kind',
    'whatsapp',
    '--phone-number-id',
    phoneNumberId,
    '--access-token',
    'EAAG-bench-token',
    '--app-secret',
    appSecret,
    '--name',
    'Bench WhatsApp',
  ])) as { id: string };
  return { id: channel.id, clientId: client.id, phoneNumberId, appSecret };
}

/**
 * Switches the client's AI agent on through the operator CLI (`kb:import`, then `agents:configure`):
 * `faq` as its knowledge base (trained before the command returns), answering without delay, and
 * with escalation off — a question it is unsure of gets the fallback text, so every customer
 * message gets exactly one reply and the conversation stays with the AI.
 */
export async function enableAgent(tree: BuiltTree, server: ParleyServer, clientId: string, faq: readonly { questions: string[]; answer: string }[]): Promise<void> {
  const file = path.join(tempDir('faq'), 'faq.json');
  fs.writeFileSync(file, JSON.stringify(faq));
  try {
    await parleyCli(tree, server, ['kb:import', '--client', clientId, '--file', file]);
    await parleyCli(tree, server, ['agents:configure', '--client', clientId, '--delay', '0', '--escalation', 'off', '--engine', 'embedded']);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** Signs the administrator in over HTTP; the Cookie header of the session. */
export async function signInAdmin(server: ParleyServer): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: CSRF_HEADERS,
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const text = await response.text();
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (response.status !== 200 || !cookies.some((c) => c.includes('session_token'))) {
    throw new Error(`The administrator could not sign in (${response.status}): ${text.slice(0, 300)}`);
  }
  return cookies.join('; ');
}

/** Unread customer messages the administrator sees (`GET /api/v1/messages`): how many inbound messages were processed. */
export async function unreadCount(server: ParleyServer, cookie: string): Promise<number> {
  const response = await fetch(`${server.url}/api/v1/messages?filter=unread&limit=1`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET /api/v1/messages answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return ((await response.json()) as { unreadCount: number }).unreadCount;
}

/** user + system CPU time a live process has used, in ms (Linux), or undefined. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Waits until the server has been idle (at most 20 ms of CPU in a second, twice in a row) —
 * start-up work such as training the demo client's AI agent must not land in a timed run.
 * Resolves with the ms waited.
 */
export async function settle(server: ParleyServer, maxMs = 120_000): Promise<number> {
  const pid = server.child.process.pid;
  const started = performance.now();
  let last = processCpuMs(pid);
  let quiet = 0;
  while (quiet < 2 && performance.now() - started < maxMs) {
    await sleep(1_000);
    const now = processCpuMs(pid);
    if (now === undefined || last === undefined) break;
    quiet = now - last <= 20 ? quiet + 1 : 0;
    last = now;
  }
  return performance.now() - started;
}

/** CPU time (ms) used so far by each PostgreSQL backend serving `database` (its command line names it; Linux). */
export function postgresCpuByPid(database: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${database} `)) continue;
      const cpu = processCpuMs(Number(entry));
      if (cpu !== undefined) byPid.set(Number(entry), cpu);
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/**
 * CPU used by a server and (on PostgreSQL) its database backends from now until the returned
 * function is called. A backend that exits in between takes its share with it (an undercount).
 */
export function cpuMeter(server: ParleyServer): () => { serverMs: number; postgresMs: number } {
  const pid = server.child.process.pid;
  const database = server.env.DATABASE_URL ? new URL(server.env.DATABASE_URL).pathname.slice(1) : undefined;
  const server0 = processCpuMs(pid) ?? 0;
  const pg0 = database ? postgresCpuByPid(database) : new Map<number, number>();
  return () => {
    let postgresMs = 0;
    if (database) for (const [backend, cpu] of postgresCpuByPid(database)) postgresMs += cpu - (pg0.get(backend) ?? 0);
    return { serverMs: (processCpuMs(pid) ?? 0) - server0, postgresMs };
  };
}
