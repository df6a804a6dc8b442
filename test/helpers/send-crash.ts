/**
 * `kill -9` while replies are going out (issue 10, item 4), shared by the crash test
 * (server/modules/channels/send.crash.test.ts) and the bench's `crash` group: a real Parley server
 * as a child process, a fake Graph API on loopback that records every send, the AI agent on
 * (embedded engine, no delay, escalation off: every customer message gets exactly one reply) over
 * a small shop FAQ, and a stream of signed WhatsApp, Messenger and Instagram deliveries — one
 * customer per delivery, each delivery retried until acknowledged as Meta does. The server is
 * killed with SIGKILL the moment a send reaches the fake (so at least that one is in flight),
 * restarted, and left until idle. Then: customers whose message was lost (not stored, or neither
 * answered nor visibly marked unknown/failed), and customers who got a reply twice on the wire.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { type Database, type Engine, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { randomToken } from '../../server/lib/crypto';
import { SQL_ROUTINES } from '../../server/routines';
import { STORE_FAQ } from './agents';
import { createTestApp, testConfig } from './app';
import { TEST_DATABASE_URL, type TestDatabase } from './database';
import { parleyEntry } from './processes';
import { createMetaChannel, type MetaKind, messagingDelivery, signature, whatsappDelivery } from './meta-webhooks';
import { SNAPSHOT_FILE } from './snapshot';

const ROOT = path.resolve(import.meta.dirname, '../..');
const QUESTIONS = ['Where is my order?', 'How much does shipping cost?', 'Can I return my order?', 'When are you open?', 'Track my package please'];

export interface SendCrashOptions {
  engine: Engine;
  /** Customer messages, spread over WhatsApp, Messenger and Instagram (default 120). */
  messages?: number;
  /** The server is killed when this many sends have reached the fake Graph API (default a third of the messages). */
  killAtSend?: number;
  /** How long the fake Graph API takes to answer a send (default 20 ms), so sends are in flight when the kill comes. */
  answerDelayMs?: number;
  /** Starts a server process (default: `parleyEntry('main')`, the build or the sources through tsx). */
  spawnServer?: (env: Record<string, string>) => ChildProcess;
  /** PostgreSQL: the database URL to create a schema in (default TEST_DATABASE_URL). */
  postgresUrl?: string;
  /** PGlite: start from the tests' migrated snapshot (default) or migrate a new directory (the bench). */
  fromSnapshot?: boolean;
  log?: (line: string) => void;
}

export interface SendCrashResult {
  engine: Engine;
  customers: number;
  /** Customer messages not stored, or neither answered nor marked unknown/failed. */
  lost: number;
  /** Customers who received more than one reply on the wire. */
  duplicated: number;
  /** Replies marked unknown ("check and resend") and failed. */
  unknown: number;
  failed: number;
  /** Sends the fake Graph API received in all. */
  wireSends: number;
  /** Details of what went wrong, for the test's message. */
  problems: string[];
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server process (the build, or the sources through tsx); its output is kept for error messages. */
export function spawnFromSource(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, parleyEntry('main'), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves once `url` answers (any status), rejects if the child exits first. */
export async function waitUntilListening(url: string, child: ChildProcess, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${output().slice(-3000)}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the server did not listen within ${timeoutMs} ms:\n${output().slice(-3000)}`);
      await sleep(50);
    }
  }
}

export interface WireSend {
  /** The customer's id on the platform. */
  to: string;
  text: string;
  path: string;
}

/** A fake Graph API that records every send and answers like Meta after `delayMs`; `onSend` sees each as it arrives. */
export async function startRecordingGraph(delayMs: number): Promise<{ url: string; sends: WireSend[]; onSend: (fn: (count: number) => void) => void; hold: (on: boolean) => void; close: () => Promise<void> }> {
  const sends: WireSend[] = [];
  let listener: ((count: number) => void) | undefined;
  let held = false;
  let sequence = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method !== 'POST' || !url.pathname.endsWith('/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      let body: { messaging_product?: string; to?: string; recipient?: { id?: string }; text?: { body?: string; text?: string } | string; message?: { text?: string }; sender_action?: string; status?: string } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // recorded as an empty send
      }
      // Typing indicators and read receipts are not replies.
      if (body.sender_action !== undefined || body.status === 'read') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
        return;
      }
      const whatsapp = body.messaging_product === 'whatsapp';
      const text = whatsapp ? (typeof body.text === 'object' ? (body.text.body ?? '') : '') : (body.message?.text ?? '');
      sends.push({ to: (whatsapp ? body.to : body.recipient?.id) ?? '', text, path: url.pathname });
      const id = ++sequence;
      open.add(res);
      res.on('close', () => open.delete(res));
      listener?.(sends.length);
      if (held) return;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(whatsapp ? { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.crash-${id}` }] } : { recipient_id: body.recipient?.id, message_id: `m_crash-${id}` }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sends,
    onSend: (fn) => {
      listener = fn;
    },
    hold: (on) => {
      held = on;
    },
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface SeededShop {
  env: Record<string, string>;
  channels: Record<MetaKind, { externalId: string; appSecret: string }>;
  /** The database, opened in this process (PostgreSQL: any time; PGlite: only while no server runs). */
  open(): Promise<Database>;
  destroy(): Promise<void>;
}

/**
 * A database (a PGlite directory or a PostgreSQL schema) with a client, its WhatsApp, Messenger
 * and Instagram channels and its AI agent trained on STORE_FAQ — seeded through the app's own
 * services in this process, then closed for the server process to open.
 */
export async function seedShop(engine: Engine, postgresUrl = TEST_DATABASE_URL, fromSnapshot = true): Promise<SeededShop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-crash-'));
  const config = testConfig();
  let database: Database;
  let env: Record<string, string>;
  let schema: string | undefined;
  if (engine === 'pglite') {
    const dir = path.join(dataDir, 'pglite');
    database = await openDatabase({ pglite: fromSnapshot ? new PGlite(dir, { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) }) : new PGlite(dir) });
    if (!fromSnapshot) await migrateToLatest(database.db, { routines: SQL_ROUTINES });
    env = { DATA_DIR: dataDir };
  } else {
    if (!postgresUrl) throw new Error('No PostgreSQL URL');
    schema = `t_crash_${randomToken(6).toLowerCase().replace(/[^a-z0-9]/gu, '')}`;
    database = await openDatabase({ url: postgresUrl, schema, poolSize: 4 });
    await migrateToLatest(database.db, { routines: SQL_ROUTINES });
    const url = new URL(postgresUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
  }
  const testDatabase: TestDatabase = { ...database, reopen: () => Promise.reject(new Error('not needed')), destroy: () => database.close() };
  const app = await createTestApp(engine, { database: testDatabase });
  const channels = {} as SeededShop['channels'];
  try {
    const meta = await createMetaChannel(app, 'whatsapp', String(100_000_000_000_000 + Math.floor(Math.random() * 1e12)), { appSecret: 'crash-app-secret' });
    const clientId = meta.clientId;
    channels.whatsapp = { externalId: meta.externalId, appSecret: meta.appSecret };
    for (const kind of ['messenger', 'instagram'] as const) {
      const c = await createMetaChannel(app, kind, `${kind}-${randomToken(4)}`, { clientId, appSecret: 'crash-app-secret' });
      channels[kind] = { externalId: c.externalId, appSecret: c.appSecret };
    }
    await app.services.agents.importKnowledge(clientId, { format: 'json', content: JSON.stringify(STORE_FAQ), mode: 'replace' });
    await app.services.agents.updateAgent(clientId, { enabled: true, responseDelaySeconds: 0, escalationEnabled: false });
    await app.queue.waitForIdle(120_000);
  } finally {
    await app.close();
  }
  if (engine === 'pglite') await database.close();
  return {
    env: { ...env, SECRETS_KEY: config.secretsKey ?? '', AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789' },
    channels,
    open: () => (engine === 'pglite' ? openDatabase({ pglite: new PGlite(path.join(dataDir, 'pglite')) }) : Promise.resolve(database)),
    async destroy() {
      if (engine === 'postgres' && schema) {
        await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
        await database.close();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Delivery {
  kind: MetaKind;
  customer: string;
  body: string;
  signature: string;
}

export function deliveries(shop: SeededShop, n: number, run: string, kinds: readonly MetaKind[] = ['whatsapp', 'messenger', 'instagram']): Delivery[] {
  return Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const { externalId, appSecret } = shop.channels[kind];
    const text = QUESTIONS[i % QUESTIONS.length]!;
    const now = Date.now();
    let customer: string;
    let body: unknown;
    if (kind === 'whatsapp') {
      customer = String(351_900_000_000 + i);
      body = whatsappDelivery(externalId, {
        contacts: [{ profile: { name: `Customer ${i}` }, wa_id: customer }],
        messages: [{ from: customer, id: `wamid.${run}-${i}`, timestamp: String(Math.floor(now / 1000)), type: 'text', text: { body: text } }],
      });
    } else {
      customer = `${kind}-customer-${run}-${i}`;
      body = messagingDelivery(kind, externalId, { sender: { id: customer }, recipient: { id: externalId }, timestamp: now, message: { mid: `m_${run}-${i}`, text } });
    }
    const raw = JSON.stringify(body);
    return { kind, customer, body: raw, signature: signature(raw, appSecret) };
  });
}

/** Posts a delivery until it is acknowledged with 200, as Meta retries. */
export async function deliver(url: string, d: Delivery, deadline: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/webhooks/${d.kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': d.signature },
        body: d.body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.text();
      if (response.status === 200) return;
    } catch {
      // down or restarting: Meta tries again
    }
    if (Date.now() > deadline) throw new Error(`a ${d.kind} delivery was never acknowledged`);
    await sleep(100);
  }
}

export interface RunningServer {
  child: ChildProcess;
  output: () => string;
}

export async function startServer(spawnServer: (env: Record<string, string>) => ChildProcess, env: Record<string, string>, url: string): Promise<RunningServer> {
  const child = spawnServer(env);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  await waitUntilListening(`${url}/api/v1/health`, child, () => output);
  return { child, output: () => output };
}

/** The environment a server process of `shop` runs with, on `port`, sending to `graphUrl`. */
export function serverEnv(shop: SeededShop, port: number, graphUrl: string): Record<string, string> {
  return {
    ...shop.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    GRAPH_API_BASE_URL: graphUrl,
    WEB_DIST_DIR: path.join(shop.env.DATA_DIR!, 'no-web-build'),
    LOG_LEVEL: 'warn',
  };
}

export async function runSendCrash(options: SendCrashOptions): Promise<SendCrashResult> {
  const log = options.log ?? (() => undefined);
  const n = options.messages ?? 120;
  const killAt = options.killAtSend ?? Math.max(1, Math.floor(n / 3));
  const spawnServer = options.spawnServer ?? spawnFromSource;
  const graph = await startRecordingGraph(options.answerDelayMs ?? 20);
  const shop = await seedShop(options.engine, options.postgresUrl, options.fromSnapshot ?? true);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = serverEnv(shop, port, graph.url);
  const children: ChildProcess[] = [];
  try {
    let server = await startServer(spawnServer, env, url);
    children.push(server.child);
    const first = server;
    let killed = false;
    graph.onSend((count) => {
      if (!killed && count >= killAt) {
        killed = true;
        // In the middle of this send: it reached "Meta", its answer never reaches the server.
        first.child.kill('SIGKILL');
        log(`killed with SIGKILL at send ${count}`);
      }
    });
    const list = deliveries(shop, n, randomToken(4).replace(/[^a-zA-Z0-9]/gu, ''));
    const deadline = Date.now() + 120_000;
    let next = 0;
    const posters = Array.from({ length: 8 }, async () => {
      while (next < list.length) {
        const d = list[next++]!;
        await deliver(url, d, deadline);
      }
    });
    const restarted = (async () => {
      await exitedOrKilled(first.child, () => killed, deadline);
      if (!killed) return;
      server = await startServer(spawnServer, env, url);
      children.push(server.child);
      log('restarted');
    })();
    await Promise.all(posters);
    await restarted;
    if (!killed) throw new Error(`the server was never killed: only ${graph.sends.length} sends reached the fake Graph API`);
    // Idle: no send for 3 s after every delivery was acknowledged; then stopped (SIGTERM: running
    // jobs finish) and its jobs table read. Work still waiting (a slow machine paused longer than
    // that) gets the server started again, as an operator would.
    for (let round = 0; ; round++) {
      let seen = -1;
      let quietSince = Date.now();
      while (Date.now() - quietSince < 3_000 && Date.now() < deadline + 60_000) {
        if (graph.sends.length !== seen) {
          seen = graph.sends.length;
          quietSince = Date.now();
        }
        await sleep(100);
      }
      server.child.kill('SIGTERM');
      await exited(server.child);
      const waiting = await pendingJobs(shop, options.engine);
      if (waiting === 0 || round >= 4 || Date.now() > deadline + 60_000) break;
      log(`${waiting} jobs still waiting: started again`);
      server = await startServer(spawnServer, env, url);
      children.push(server.child);
    }
    return await inspect(shop, list, graph.sends, options.engine);
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await graph.close();
    await shop.destroy();
  }
}

/** Jobs queued or running in the stopped server's database. */
async function pendingJobs(shop: SeededShop, engine: Engine): Promise<number> {
  const database = await shop.open();
  try {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from jobs where status in ('queued', 'running')`.execute(database.db);
    return rows[0]?.n ?? 0;
  } finally {
    if (engine === 'pglite') await database.close();
  }
}

async function exitedOrKilled(child: ChildProcess, killed: () => boolean, deadline: number): Promise<void> {
  while (!killed() && Date.now() < deadline) await sleep(20);
  if (killed()) await exited(child);
}

async function inspect(shop: SeededShop, list: readonly Delivery[], sends: readonly WireSend[], engine: Engine): Promise<SendCrashResult> {
  const database = await shop.open();
  try {
    const rows = await database.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversationId')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .select(['ct.externalId as customer', 'm.direction', 'm.status', 'm.senderType'])
      .execute();
    // Idle: nothing left to do but the recurring jobs' next runs (payload `{ period }`, due later).
    const jobs = await database.db
      .selectFrom('jobs')
      .select(['name', 'status'])
      .where('status', 'in', ['queued', 'running'])
      .where(sql<boolean>`not (status = 'queued' and payload ? 'period' and run_at > now())`)
      .execute();
    const problems: string[] = [];
    if (jobs.length > 0) problems.push(`not idle: ${jobs.map((j) => `${j.name} ${j.status}`).join(', ')}`);
    const byCustomer = new Map<string, { inbound: number; replies: string[] }>();
    for (const r of rows) {
      const entry = byCustomer.get(r.customer) ?? { inbound: 0, replies: [] };
      if (r.direction === 'inbound') entry.inbound += 1;
      else entry.replies.push(r.status);
      byCustomer.set(r.customer, entry);
    }
    let lost = 0;
    for (const d of list) {
      const entry = byCustomer.get(d.customer);
      const settled = entry?.replies.some((s) => s !== 'queued');
      if (!entry || entry.inbound === 0 || !settled) {
        lost += 1;
        if (problems.length < 20) problems.push(`${d.kind} ${d.customer}: ${entry ? `${entry.inbound} stored, replies ${entry.replies.join('/') || 'none'}` : 'not stored'}`);
      }
    }
    const wirePerCustomer = new Map<string, number>();
    for (const s of sends) wirePerCustomer.set(s.to, (wirePerCustomer.get(s.to) ?? 0) + 1);
    let duplicated = 0;
    for (const [customer, count] of wirePerCustomer) {
      if (count > 1) {
        duplicated += 1;
        if (problems.length < 40) problems.push(`${customer} got ${count} replies on the wire`);
      }
    }
    const statuses = rows.filter((r) => r.direction === 'outbound').map((r) => r.status);
    return {
      engine,
      customers: list.length,
      lost,
      duplicated,
      unknown: statuses.filter((s) => s === 'unknown').length,
      failed: statuses.filter((s) => s === 'failed').length,
      wireSends: sends.length,
      problems,
    };
  } finally {
    if (engine === 'pglite') await database.close();
  }
}
