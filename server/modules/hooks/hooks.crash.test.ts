/**
 * Events out across `kill -9` (issue 14 §7): real server processes on one database (a PGlite data
 * directory, or a PostgreSQL schema), a subscription to a receiver on loopback.
 *
 * 1. A web-only instance (JOB_CONCURRENCY=0) stores a visitor's website-chat message — the change
 *    and its `events.record` jobs commit together — and is killed with SIGKILL before any job ran.
 * 2. Restarted with workers: the materialiser stores the events and the deliveries start; the
 *    receiver holds the first request and the server is killed with SIGKILL right then — the
 *    delivery was sent, its answer never recorded.
 * 3. Restarted again, the receiver now answers 200: every event is stored once and delivered, each
 *    answered 2xx exactly once, each delivery `succeeded` once; the request in flight at the kill is
 *    sent again with the same event id (the at-least-once case docs/webhooks.md names).
 * 4. A fourth start sends nothing more: a recorded success is never delivered again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreatedSubscription } from '../../../common/api/hooks';
import { createTestApp, signedInClient, testConfig } from '../../../test/helpers/app';
import { ENGINES, TEST_DATABASE_URL, type TestDatabase } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { parleyEntry } from '../../../test/helpers/processes';
import { exited, freePort } from '../../../test/helpers/send-crash';
import { SNAPSHOT_FILE } from '../../../test/helpers/snapshot';
import { type Database, type Engine, openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { randomToken } from '../../lib/crypto';
import { SQL_ROUTINES } from '../../routines';
import { checkApiSignature } from '../channels';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server {
  child: ChildProcess;
  output: () => string;
  /** Resolves once it printed that it is running. */
  ready: Promise<void>;
}

/** A Parley server process (`parleyEntry`: the build, or the sources through tsx). */
function spawnServer(env: Record<string, string>): Server {
  const child = spawn(process.execPath, parleyEntry('main'), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.includes('Parley is running at')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it ran:\n${output}`));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, output: () => output, ready };
}

interface Request {
  eventId: string;
  deliveryId: string;
  type: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The status the receiver answered, or null: held (the server was killed meanwhile). */
  answered: number | null;
}

/** The subscriber's endpoint: `hold` keeps requests unanswered and calls `onHeld` at the first; `answer` answers 200. */
async function startReceiver() {
  const requests: Request[] = [];
  const held = new Set<http.ServerResponse>();
  let mode: 'hold' | 'answer' = 'hold';
  let onHeld: (() => void) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: Request = {
        eventId: String(req.headers['x-parley-event-id']),
        deliveryId: String(req.headers['x-parley-delivery-id']),
        type: String(req.headers['x-parley-event-type']),
        headers: req.headers,
        body: Buffer.concat(chunks),
        answered: null,
      };
      requests.push(request);
      if (mode === 'hold') {
        held.add(res);
        const fn = onHeld;
        onHeld = undefined;
        fn?.();
        return;
      }
      request.answered = 200;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley-events`,
    requests,
    holdThen(fn: () => void) {
      mode = 'hold';
      onHeld = fn;
    },
    answer() {
      mode = 'answer';
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface Store {
  env: Record<string, string>;
  widgetId: string;
  clientId: string;
  signingSecret: string;
  subscriptionId: string;
  /** The database; PGlite only while no server runs (closed again by `done`). */
  open(): Promise<{ database: Database; done: () => Promise<void> }>;
  destroy(): Promise<void>;
}

/** A client with a website chat and a subscription to `url` for every event, written through the app, then closed for the servers. */
async function seed(engine: Engine, dataDir: string, url: string): Promise<Store> {
  const config = testConfig();
  let database: Database;
  let env: Record<string, string>;
  let schema: string | undefined;
  const pgliteDir = path.join(dataDir, 'pglite');
  if (engine === 'pglite') {
    database = await openDatabase({ pglite: new PGlite(pgliteDir, { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) }) });
    env = { DATA_DIR: dataDir };
  } else {
    schema = `t_hookcrash_${randomToken(6).toLowerCase().replace(/[^a-z0-9]/gu, '')}`;
    database = await openDatabase({ url: TEST_DATABASE_URL!, schema, poolSize: 2 });
    await migrateToLatest(database.db, { routines: SQL_ROUTINES });
    const databaseUrl = new URL(TEST_DATABASE_URL!);
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString() };
  }
  const testDatabase: TestDatabase = { ...database, reopen: () => Promise.reject(new Error('not needed')), destroy: () => database.close() };
  const app = await createTestApp(engine, { database: testDatabase, env: { ...ALLOW_LOOPBACK_FAKES } });
  let seeded: Pick<Store, 'widgetId' | 'clientId' | 'signingSecret' | 'subscriptionId'>;
  try {
    const client = await createTestClient(app, 'Crash Bikes');
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat', externalId: `w_crash${randomToken(6).replace(/[^a-zA-Z0-9]/gu, '')}` });
    const { client: admin } = await signedInClient(app, 'admin');
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'CRM', url, client_id: client.id, events: 'all' });
    if (created.statusCode !== 201) throw new Error(`subscription: ${created.statusCode} ${created.body}`);
    const subscription = created.json<CreatedSubscription>();
    seeded = { widgetId: channel.externalId!, clientId: client.id, signingSecret: subscription.signing_secret, subscriptionId: subscription.subscription.id };
    await app.queue.waitForIdle(60_000);
  } finally {
    await app.close();
  }
  if (engine === 'pglite') await database.close();
  return {
    env: { ...env, SECRETS_KEY: config.secretsKey ?? '', AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789', ...ALLOW_LOOPBACK_FAKES },
    ...seeded,
    async open() {
      if (engine === 'postgres') return { database, done: () => Promise.resolve() };
      const db = await openDatabase({ pglite: new PGlite(pgliteDir) });
      return { database: db, done: () => db.close() };
    },
    async destroy() {
      if (schema) {
        await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
        await database.close();
      }
    },
  };
}

async function until(check: () => boolean, what: string, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output().slice(-3000)}`);
    await sleep(25);
  }
}

describe.each(ENGINES)('events out across kill -9 (%s)', { timeout: 300_000 }, (engine: Engine) => {
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-hookcrash-'));
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('an event committed before the kill is stored and delivered after restart, each event succeeding exactly once', async () => {
    const receiver = await startReceiver();
    const store = await seed(engine, dataDir, receiver.url);
    try {
      const port = String(await freePort());
      const base = `http://127.0.0.1:${port}`;
      const env = { ...store.env, PORT: port, PUBLIC_URL: base, WEB_DIST_DIR: path.join(dataDir, 'no-web-build'), LOG_LEVEL: 'warn' };
      const launch = (extra: Record<string, string> = {}) => {
        const server = spawnServer({ ...env, ...extra });
        children.push(server.child);
        return server;
      };
      const start = async (extra: Record<string, string> = {}) => {
        const server = launch(extra);
        await server.ready;
        return server;
      };
      const kill9 = async (server: Server) => {
        server.child.kill('SIGKILL');
        await exited(server.child);
        expect(server.child.signalCode).toBe('SIGKILL');
      };

      // 1. A web-only instance stores the visitor's message (and, in the same transactions, the
      //    events' jobs) and dies before any job ran.
      const web = await start({ JOB_CONCURRENCY: '0' });
      const widget = (p: string, body: unknown, token?: string) =>
        fetch(`${base}/api/v1/widget/${store.widgetId}${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://shop.example', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      const visitor = await widget('/visitors', { name: 'Ana' });
      expect(visitor.status).toBe(201);
      const { visitorToken } = (await visitor.json()) as { visitorToken: string };
      const sent = await widget('/messages', { text: 'Is my bike ready? CRASH-1', clientMessageId: 'crash-message-0001' }, visitorToken);
      expect(sent.status).toBe(201);
      const message = (await sent.json()) as { id: string };
      await kill9(web);
      expect(receiver.requests).toEqual([]);
      if (engine === 'postgres') {
        // What the crash left (PGlite's directory is left to the restarted server's recovery).
        const { database } = await store.open();
        expect(await database.db.selectFrom('events').select('type').execute()).toEqual([]);
        const jobs = await database.db.selectFrom('jobs').select(['name', 'status']).where('name', '=', 'events.record').execute();
        expect(jobs.length).toBeGreaterThan(0);
        expect(jobs.every((j) => j.status === 'queued')).toBe(true);
      }

      // 2. With workers: the events are stored and delivered; SIGKILL the moment the first request
      //    reaches the receiver, which never answers it.
      let killing: Promise<void> | undefined;
      const second = launch();
      receiver.holdThen(() => {
        killing = kill9(second);
      });
      // (It may be killed before it printed that it runs: the deliveries start with the workers.)
      second.ready.catch(() => undefined);
      await until(() => killing !== undefined, 'the first delivery request', second.output);
      await killing;
      const inFlight = receiver.requests.map((r) => r.eventId);
      expect(inFlight.length).toBeGreaterThan(0);
      expect(receiver.requests.every((r) => r.answered === null)).toBe(true);

      // 3. Restarted, the receiver answering: every event arrives, the held ones again.
      receiver.answer();
      const third = await start();
      const answeredTypes = () => new Set(receiver.requests.filter((r) => r.answered === 200).map((r) => r.type));
      await until(
        () => ['contact.created', 'conversation.created', 'message.received'].every((t) => answeredTypes().has(t)),
        'every event answered 200',
        third.output,
      );
      await sleep(1_500); // anything more it would send
      third.child.kill('SIGTERM');
      await exited(third.child);

      // 4. A fourth start sends nothing more.
      const seen = receiver.requests.length;
      const fourth = await start();
      await sleep(2_000);
      fourth.child.kill('SIGTERM');
      await exited(fourth.child);
      expect(receiver.requests.length, 'a delivery recorded as succeeded was sent again').toBe(seen);

      const { database, done } = await store.open();
      try {
        const events = await database.db.selectFrom('events').select(['id', 'type']).orderBy('seq').execute();
        expect(events.map((e) => e.type).sort()).toEqual(['contact.created', 'conversation.created', 'message.received']);
        const received = events.find((e) => e.type === 'message.received')!;
        const onTheWire = receiver.requests.find((r) => r.eventId === received.id && r.answered === 200);
        expect(JSON.parse(onTheWire!.body.toString('utf8'))).toMatchObject({
          id: received.id,
          type: 'message.received',
          client_id: store.clientId,
          data: { message: { id: message.id, content: 'Is my bike ready? CRASH-1', direction: 'inbound' }, conversation: { platform: 'webchat' } },
        });

        // Each event: answered 2xx exactly once, one delivery, succeeded after one recorded attempt.
        const deliveries = await database.db
          .selectFrom('webhookDeliveries')
          .select(['id', 'eventId', 'status', 'attempts', 'jobToken'])
          .where('subscriptionId', '=', store.subscriptionId)
          .execute();
        expect(deliveries).toHaveLength(events.length);
        for (const event of events) {
          const answered = receiver.requests.filter((r) => r.eventId === event.id && r.answered === 200);
          expect(answered, `${event.type} answered 2xx`).toHaveLength(1);
          const delivery = deliveries.find((d) => d.eventId === event.id);
          expect(delivery, event.type).toMatchObject({ status: 'succeeded', attempts: 1, jobToken: null });
          expect(answered[0]!.deliveryId).toBe(delivery!.id);
          expect(JSON.parse(answered[0]!.body.toString('utf8'))).toMatchObject({ id: event.id, type: event.type });
          const headers = { timestamp: answered[0]!.headers['x-parley-timestamp'], signature: answered[0]!.headers['x-parley-signature'] };
          expect(checkApiSignature(store.signingSecret, headers, answered[0]!.body, new Date())).toBe('valid');
        }
        // The requests held at the kill were sent again as the same delivery of the same event.
        for (const eventId of inFlight) {
          const again = receiver.requests.filter((r) => r.eventId === eventId);
          expect(again.map((r) => r.answered)).toEqual([null, 200]);
          expect(new Set(again.map((r) => r.deliveryId)).size).toBe(1);
        }
        // Nobody else was sent anything twice.
        expect(receiver.requests).toHaveLength(events.length + inFlight.length);
        const attempts = await database.db
          .selectFrom('webhookDeliveryAttempts')
          .select(['deliveryId', 'responseStatus'])
          .where(
            'deliveryId',
            'in',
            deliveries.map((d) => d.id),
          )
          .execute();
        expect(attempts.map((a) => a.responseStatus)).toEqual(events.map(() => 200));
        const waiting = await database.db.selectFrom('jobs').select(['name', 'status']).where('status', 'in', ['queued', 'running']).execute();
        expect(waiting.filter((j) => j.name === 'events.record' || j.name === 'hooks.deliver')).toEqual([]);
      } finally {
        await done();
      }
    } finally {
      await receiver.close();
      await store.destroy();
    }
  });
});
