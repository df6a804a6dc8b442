/**
 * `parley backup` / `parley restore` as an operator runs them: real processes on temporary data
 * directories (seeded with the migrated test snapshot), the data written by a real app, the
 * restored directory opened by a real app that must find every conversation and message and open
 * the channel's sealed secrets. Only the Graph API is faked (loopback).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/app';
import { startFakeGraphApi, type FakeGraphApi } from '../../test/helpers/fake-graph-api';
import { customerText } from '../../test/helpers/inbox';
import { signature, whatsappDelivery } from '../../test/helpers/meta-webhooks';
import { type ProcessResult, parleyEntry, runNode, startParleyServer } from '../../test/helpers/processes';
import { SNAPSHOT_FILE } from '../../test/helpers/snapshot';
import { buildApp, type ParleyApp } from '../app';
import { pgliteDir } from '../db/data-dir';
import { openDatabase, type Database } from '../db/database';
import { injectThrough } from '../../test/helpers/app';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ACCESS_TOKEN = 'EAAG-backup-access-token-51c2';
const APP_SECRET = 'backup-app-secret-9f3e';
const PHONE_NUMBER_ID = '1099887766';

type Result = ProcessResult;

function run(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Result> {
  return runNode(args, { cwd, env });
}

function cli(dataDir: string, args: string[], extra: Record<string, string> = {}): Promise<Result> {
  return run([...parleyEntry('cli'), ...args], { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const { child } = await startParleyServer({
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      GRAPH_API_BASE_URL: 'http://127.0.0.1:9',
    },
  });
  return child;
}

/** An in-process app on an embedded data directory, as `npm start` would open it (key from DATA_DIR/secrets.key). */
async function openApp(dataDir: string, env: Record<string, string | undefined> = {}): Promise<{ app: ParleyApp; database: Database; close: () => Promise<void> }> {
  const database = await openDatabase({ dataDir: pgliteDir(dataDir) });
  try {
    const app = await buildApp({ config: testConfig({ DATA_DIR: dataDir, SECRETS_KEY: undefined, ...env }), database, logger: pino({ level: 'silent' }) });
    return {
      app,
      database,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

interface Snapshot {
  conversations: { id: string; status: string }[];
  messages: { id: string; conversationId: string; content: string | null }[];
}

async function contents(database: Database): Promise<Snapshot> {
  return {
    conversations: await database.db.selectFrom('conversations').select(['id', 'status']).orderBy('id').execute(),
    messages: await database.db.selectFrom('messages').select(['id', 'conversationId', 'content']).orderBy('id').execute(),
  };
}

describe('parley backup and restore (embedded database)', { timeout: 240_000 }, () => {
  let root: string;
  let dataDir: string;
  let channelId: string;
  let before: Snapshot;
  let graph: FakeGraphApi | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
    dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    const pglite = new PGlite(pgliteDir(dataDir), { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
    await pglite.waitReady;
    await pglite.close();
    graph = await startFakeGraphApi();

    // A client, a WhatsApp channel with sealed secrets, two conversations with messages.
    const { app, database, close } = await openApp(dataDir);
    try {
      const client = await app.services.clients.createClient({ companyName: 'Backup Bikes', status: 'active' });
      const created = await app.services.channelsService.createChannel({
        kind: 'whatsapp',
        clientId: client.id,
        name: 'WhatsApp',
        phoneNumberId: PHONE_NUMBER_ID,
        accessToken: ACCESS_TOKEN,
        appSecret: APP_SECRET,
        verifyToken: 'backup-verify-token',
      });
      channelId = created.id;
      const channel = await app.services.channelsRepository.getById(channelId);
      for (const [contact, text] of [
        ['447700900001', 'Do you fix brakes?'],
        ['447700900001', 'And gears?'],
        ['447700900002', 'Opening hours please'],
      ] as const) {
        await app.services.messaging.recordInbound(channel, customerText(contact, text));
      }
      before = await contents(database);
    } finally {
      await close();
    }
    expect(before.conversations).toHaveLength(2);
    expect(before.messages).toHaveLength(3);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await graph?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('backs up with the lock held when no server runs: a 0600 file that says it holds the secrets key', async () => {
    const out = path.join(root, 'offline.parley-backup');
    const result = await cli(dataDir, ['backup', '--out', out]);
    expect(result.stderr).toContain('This backup file contains the secrets key');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: out, through: 'this process (no server was running)', containsSecretsKey: true });
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(dataDir, 'parley.lock'))).toBe(false);

    const again = await cli(dataDir, ['backup', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('backs up through the running server while webhooks arrive, restores into an empty directory only, and the restored data works', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    children.push(server);
    const out = path.join(root, 'online.parley-backup');
    // Customers keep writing while the backup runs: four senders, one delivery at a time each.
    const statuses: number[] = [];
    let writing = true;
    const sender = async (n: number) => {
      for (let i = 0; writing && i < 500; i++) {
        const body = JSON.stringify(
          whatsappDelivery(PHONE_NUMBER_ID, {
            contacts: [{ profile: { name: `During ${n}` }, wa_id: `4477009${n}${i}` }],
            messages: [{ from: `4477009${n}${i}`, id: `wamid.during-${n}-${i}`, text: { body: `during ${n}/${i}` }, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text' }],
          }),
        );
        const response = await fetch(`http://127.0.0.1:${port}/webhooks/whatsapp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(body, APP_SECRET) },
          body,
        });
        statuses.push(response.status);
      }
    };
    const senders = Promise.all([0, 1, 2, 3].map(sender));
    try {
      await expect.poll(() => statuses.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(20);
      const result = await cli(dataDir, ['backup', '--out', out]);
      expect(result.stderr).toContain('This backup file contains the secrets key');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ through: 'the running server' });
      expect(fs.statSync(out).mode & 0o777).toBe(0o600);
      writing = false;
      await senders;
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    } finally {
      writing = false;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }

    // Not a backup: refused, nothing created.
    const junk = path.join(root, 'junk.txt');
    fs.writeFileSync(junk, 'hello\n{}\nnot a tar');
    const notBackup = await cli(path.join(root, 'never'), ['restore', '--from', junk]);
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toContain('This is not a Parley backup file');
    expect(fs.existsSync(path.join(root, 'never'))).toBe(false);

    // Never over existing data.
    const refused = await cli(dataDir, ['restore', '--from', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`DATA_DIR ${dataDir} is not empty`);

    const target = path.join(root, 'restored');
    const restored = await cli(target, ['restore', '--from', out]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const summary = JSON.parse(restored.stdout) as { restored: string; conversations: number };
    expect(summary.restored).toBe(target);
    expect(summary.conversations).toBeGreaterThanOrEqual(2);
    expect(fs.statSync(path.join(target, 'secrets.key')).mode & 0o777).toBe(0o600);

    // Another key is refused on the restored database (the key check), by the server with a plain message.
    const wrongKey = await run(parleyEntry('main'), {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: target,
      SECRETS_KEY: 'some-other-secrets-key-some-other-secrets-key',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('Refusing to start: the secrets key in use (SECRETS_KEY) is not the key this database was set up with');
    expect(wrongKey.stderr).not.toMatch(/at .*\.ts:\d+/u);
    expect(fs.existsSync(path.join(target, 'parley.lock'))).toBe(false);
    await expect(openApp(target, { SECRETS_KEY: 'some-other-secrets-key-some-other-secrets-key' })).rejects.toThrow(/Refusing to start/u);
    const command = await cli(target, ['users:list'], { SECRETS_KEY: 'some-other-secrets-key-some-other-secrets-key' });
    expect(command.code).toBe(1);
    expect(command.stderr).toContain('Error: Refusing to start: the secrets key in use (SECRETS_KEY)');
    // The restored key opens everything.
    const fakeGraph = graph!;
    const { app, database, close } = await openApp(target, { GRAPH_API_BASE_URL: fakeGraph.url });
    try {
      // Everything from before, and the deliveries committed before the snapshot (not torn: the database opens and reads them).
      const after = await contents(database);
      expect(after.conversations).toEqual(expect.arrayContaining(before.conversations));
      expect(after.messages).toEqual(expect.arrayContaining(before.messages));
      const events = await database.db.selectFrom('inboundEvents').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(events.n).toBeGreaterThanOrEqual(20);
      expect(events.n).toBeLessThanOrEqual(statuses.length);
      const channel = await app.services.channelsRepository.getWithSecrets(channelId);
      expect(channel.secretValues).toMatchObject({ accessToken: ACCESS_TOKEN, appSecret: APP_SECRET });

      // A delivery signed with the restored app secret is accepted; one signed otherwise is not.
      const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
      const post = (secret: string) =>
        injectThrough(app, { method: 'POST', url: '/webhooks/whatsapp', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(body, secret) }, payload: body });
      expect((await post(APP_SECRET)).statusCode).toBe(200);
      expect((await post('not-the-app-secret')).statusCode).toBe(401);

      // A reply goes out with the restored access token.
      const conversationId = before.messages[0]!.conversationId;
      await app.services.messaging.sendMessage(conversationId, { text: 'Yes, we do.', senderType: 'agent', senderId: null }, { kind: 'system' });
      await expect.poll(() => fakeGraph.requestsTo('POST', `/v21.0/${PHONE_NUMBER_ID}/messages`).length, { timeout: 20_000 }).toBe(1);
      expect(fakeGraph.requestsTo('POST', `/v21.0/${PHONE_NUMBER_ID}/messages`)[0]!.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    } finally {
      await close();
    }
  });
});
