/**
 * A crash between the acknowledgement and the processing loses nothing: a real server that runs
 * no job workers (JOB_CONCURRENCY=0, a web-only instance) acknowledges a signed delivery and is
 * killed with SIGKILL; started again with workers, it processes the stored delivery, and the
 * message exists exactly once. On PGlite the restarted server also recovers the crashed data
 * directory itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, TEST_DATABASE_URL } from '../../../test/helpers/database';
import { fixture, signature, whatsappDelivery } from '../../../test/helpers/meta-webhooks';
import { parleyEntry } from '../../../test/helpers/processes';
import { SNAPSHOT_FILE } from '../../../test/helpers/snapshot';
import { type Database, type Engine, openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { parseSecretsKey, SecretBox } from '../../lib/secret-box';
import { SQL_ROUTINES } from '../../routines';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SECRETS_KEY = 'restart-test-secrets-key-0123456789abcdef';
const APP_SECRET = 'restart-app-secret';
const PHONE_NUMBER_ID = '106540352242922';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Server {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, parleyEntry('main'), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', SECRETS_KEY, AUTH_SECRET: 'restart-test-auth-secret-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (c: Buffer) => {
    output += c.toString();
    for (const l of listeners) l();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const server: Server = {
    child,
    output: () => output,
    waitFor: (text, timeoutMs = 90_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) {
            cleanup();
            resolve();
          }
        };
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`server exited (${code}) before printing "${text}":\n${output}`));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      }),
  };
  return server.waitFor('Parley is running at').then(() => server);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A client and a WhatsApp channel, written with SQL (sealed with the server's SECRETS_KEY). */
async function seed(database: Database): Promise<string> {
  const box = new SecretBox(parseSecretsKey(SECRETS_KEY));
  const client = await database.db.insertInto('clients').values({ companyName: 'Restart Shop' }).returning('id').executeTakeFirstOrThrow();
  const channel = await database.db
    .insertInto('channels')
    .values({
      clientId: client.id,
      kind: 'whatsapp',
      name: 'WhatsApp',
      externalId: PHONE_NUMBER_ID,
      secrets: box.sealJson({ accessToken: 't', appSecret: APP_SECRET, verifyToken: 'v' }),
      verifyTokenHash: sha256Hex('v'),
      appSecretHash: sha256Hex(APP_SECRET),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return channel.id;
}

interface State {
  events: { processedAt: Date | null }[];
  jobs: { status: string }[];
  messages: { content: string; externalMessageId: string | null }[];
}

async function state(database: Database): Promise<State> {
  return {
    events: await database.db.selectFrom('inboundEvents').select('processedAt').execute(),
    jobs: await database.db.selectFrom('jobs').select('status').where('name', '=', 'webhooks.process-inbound').execute(),
    messages: await database.db.selectFrom('messages').select(['content', 'externalMessageId']).execute(),
  };
}

/** Where the server keeps its data, and how the test reads it while the server is down. */
interface Store {
  env: Record<string, string>;
  /**
   * The database as the crashed server left it. PostgreSQL only: opening the PGlite directory
   * here would run its crash recovery instead of the restarted server's, and reading a copy costs
   * seconds of WASM start-up for what the PostgreSQL run already shows (nothing was processed).
   */
  inspectCrashed(): Promise<State | null>;
  inspect(): Promise<State>;
  destroy(): Promise<void>;
}

async function pgliteStore(dataDir: string): Promise<Store> {
  const dir = path.join(dataDir, 'pglite');
  const pglite = new PGlite(dir, { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
  const database = await openDatabase({ pglite });
  await seed(database);
  await database.close();
  const read = async (from: string) => {
    const db = await openDatabase({ pglite: new PGlite(from) });
    try {
      return await state(db);
    } finally {
      await db.close();
    }
  };
  return {
    env: { DATA_DIR: dataDir },
    inspectCrashed: () => Promise.resolve(null),
    inspect: () => read(dir),
    destroy: async () => undefined,
  };
}

async function postgresStore(dataDir: string): Promise<Store> {
  const schema = `t_restart_${randomToken(6).toLowerCase().replace(/[^a-z0-9]/gu, '')}`;
  const database = await openDatabase({ url: TEST_DATABASE_URL!, schema, poolSize: 2 });
  await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  await seed(database);
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    inspectCrashed: () => state(database),
    inspect: () => state(database),
    async destroy() {
      await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await database.close();
    },
  };
}

describe.each(ENGINES)('a crash after the acknowledgement (%s)', { timeout: 240_000 }, (engine: Engine) => {
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restart-'));
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: after kill -9 and a restart the message exists exactly once', async () => {
    const store = engine === 'pglite' ? await pgliteStore(dataDir) : await postgresStore(dataDir);
    try {
      const port = String(await freePort());
      const base = { ...store.env, PORT: port, WEB_DIST_DIR: path.join(dataDir, 'no-web-build'), LOG_LEVEL: 'warn' };

      // 1. A web-only instance acknowledges the delivery: stored with its job, nothing processed.
      const web = await startServer({ ...base, JOB_CONCURRENCY: '0' });
      children.push(web.child);
      const raw = JSON.stringify(whatsappDelivery(PHONE_NUMBER_ID, fixture('whatsapp-text.json')));
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(raw, APP_SECRET) },
        body: raw,
      });
      expect(response.status).toBe(200);
      web.child.kill('SIGKILL');
      await exited(web.child);
      expect(web.child.signalCode).toBe('SIGKILL');

      const crashed = await store.inspectCrashed();
      if (crashed) {
        expect(crashed.events).toHaveLength(1);
        expect(crashed.events[0]!.processedAt).toBeNull();
        expect(crashed.jobs).toEqual([{ status: 'queued' }]);
        expect(crashed.messages).toEqual([]);
      }

      // 2. Restarted with workers: the queued job runs.
      const worker = await startServer({ ...base, LOG_LEVEL: 'debug' });
      children.push(worker.child);
      await worker.waitFor('inbound events processed', 30_000);
      worker.child.kill('SIGTERM');
      await exited(worker.child);

      const after = await store.inspect();
      expect(after.messages).toEqual([{ content: 'Test', externalMessageId: 'SDFADSf23sfasdafasdfa' }]);
      expect(after.events).toHaveLength(1);
      expect(after.events[0]!.processedAt).not.toBeNull();
      expect(after.jobs).toEqual([{ status: 'completed' }]);
    } finally {
      await store.destroy();
    }
  });
});
