/**
 * `clients:create` and `channels:create`: in-process through `runCommand` (the same service as the
 * API), and `channels:create` once as a real `npm run parley` process on a temporary data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { parleyEntry, type ProcessResult, runNode } from '../../test/helpers/processes';
import { SNAPSHOT_FILE } from '../../test/helpers/snapshot';
import { sha256Hex } from '../lib/crypto';
import { checkCommand, CommandError, parseFlags, runCommand } from './commands';

const ROOT = path.resolve(import.meta.dirname, '../..');

type Created = { id: string; webhookUrl: string | null; externalId: string | null; embedSnippet: string | null; verifyToken?: string; signingSecret?: string };

const run = (app: TestApp, args: string[]) => {
  const [name, ...rest] = args;
  return runCommand(app.services, name!, parseFlags(rest));
};

describe.each(ENGINES)('client and channel commands, in process (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('clients:create prints the client with its id', async () => {
    const client = await run(app, ['clients:create', '--name', 'Fourth Coffee', '--contact-person', 'Jo Bloggs', '--email', 'Jo@Fourth.example', '--phone', '+44 20 7946 0000']);
    expect(client).toMatchObject({ id: expect.any(String), companyName: 'Fourth Coffee', contactPerson: 'Jo Bloggs', email: 'jo@fourth.example', status: 'active' });
  });

  it('channels:create connects every kind through the same service as the API', async () => {
    const { id: clientId } = (await run(app, ['clients:create', '--name', 'Channel Co'])) as { id: string };
    const meta = ['--access-token', 'EAAG-cli-token-1', '--app-secret', 'cli-app-secret-1', '--verify-token', 'cli-verify-token-1'];

    const wa = (await run(app, ['channels:create', '--client', clientId, '--kind', 'whatsapp', '--phone-number-id', '1065400001', ...meta])) as Created;
    expect(wa).toMatchObject({ id: expect.any(String), webhookUrl: `${TEST_PUBLIC_URL}/webhooks/whatsapp`, externalId: '1065400001' });
    expect(wa.verifyToken).toBeUndefined();
    const row = await app.database.db.selectFrom('channels').selectAll().where('id', '=', wa.id).executeTakeFirstOrThrow();
    expect(row.verifyTokenHash).toBe(sha256Hex('cli-verify-token-1'));
    expect(JSON.stringify(row)).not.toContain('EAAG-cli-token-1');

    const fb = (await run(app, ['channels:create', '--client', clientId, '--kind', 'messenger', '--page-id', '2000001', ...meta])) as Created;
    expect(fb).toMatchObject({ webhookUrl: `${TEST_PUBLIC_URL}/webhooks/messenger`, externalId: '2000001' });
    const ig = (await run(app, ['channels:create', '--client', clientId, '--kind', 'instagram', '--account-id', '178414000001', ...meta])) as Created;
    expect(ig).toMatchObject({ webhookUrl: `${TEST_PUBLIC_URL}/webhooks/instagram`, externalId: '178414000001' });

    const web = (await run(app, ['channels:create', '--client', clientId, '--kind', 'webchat'])) as Created;
    expect(web.externalId).toMatch(/^w_/u);
    expect(web.embedSnippet).toContain(`data-widget-id="${web.externalId}"`);

    const api = (await run(app, ['channels:create', '--client', clientId, '--kind', 'api', '--callback-url', 'https://crm.example/hook', '--signing-secret', 'cli-signing-secret'])) as Created;
    expect(api).toMatchObject({ webhookUrl: `${TEST_PUBLIC_URL}/api/v1/channels/${api.id}/messages` });
    expect(api.signingSecret).toBeUndefined();
    const generated = (await run(app, ['channels:create', '--client', clientId, '--kind', 'api', '--callback-url', 'https://crm.example/hook2'])) as Created;
    expect(generated.signingSecret).toMatch(/^[A-Za-z0-9_-]{43}$/u);
  });

  it('reports bad flags by their command-line names, with the usage', () => {
    const message = (args: string[]) => {
      try {
        const [name, ...rest] = args;
        checkCommand(name!, parseFlags(rest));
      } catch (error) {
        expect(error).toBeInstanceOf(CommandError);
        return (error as Error).message;
      }
      return '';
    };
    const missing = message(['channels:create', '--client', 'nope', '--kind', 'whatsapp', '--access-token', 'EAAG-token-123']);
    expect(missing).toContain('--client: CLIENT_ID must be a client id (uuid)');
    expect(missing).toContain('--phone-number-id: Required');
    expect(missing).toContain('--app-secret: Required');
    expect(missing).toContain('Usage: npm run parley -- channels:create --client CLIENT_ID --kind whatsapp');
    expect(message(['channels:create', '--client', crypto.randomUUID(), '--kind', 'telegram'])).toContain('--kind: KIND must be one of whatsapp, messenger, instagram, webchat, api');
    expect(message(['clients:create'])).toContain('--name:');
  });

  it('names the missing client and the duplicate platform id', async () => {
    await expect(run(app, ['channels:create', '--client', crypto.randomUUID(), '--kind', 'webchat'])).rejects.toThrow('Client not found');
    const { id: clientId } = (await run(app, ['clients:create', '--name', 'Dup Co'])) as { id: string };
    const args = ['channels:create', '--client', clientId, '--kind', 'whatsapp', '--phone-number-id', '99900011', '--access-token', 'EAAG-token-1', '--app-secret', 'app-secret-1'];
    await run(app, args);
    await expect(run(app, args)).rejects.toThrow('This phone number id is already connected to a WhatsApp channel');
  });
});

describe('client and channel commands, as a real process', { timeout: 180_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-messaging-'));
    const pglite = new PGlite(path.join(dataDir, 'pglite'), { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
    await pglite.waitReady;
    await pglite.close();
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function cli(args: string[]): Promise<ProcessResult> {
    return runNode([...parleyEntry('cli'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: 'https://parley.example' } });
  }

  it('channels:create --kind whatsapp prints JSON with the id and the webhook URL, secrets sealed at rest', async () => {
    // One process start is slow enough: the client is written straight into the directory.
    const seed = new PGlite(path.join(dataDir, 'pglite'));
    let id: string;
    try {
      ({ id } = (await seed.query<{ id: string }>("insert into clients (company_name) values ('Process Bakery') returning id")).rows[0]!);
    } finally {
      await seed.close();
    }

    const channel = await cli([
      'channels:create',
      '--client',
      id,
      '--kind',
      'whatsapp',
      '--phone-number-id',
      '106540352242922',
      '--access-token',
      'EAAG-process-token',
      '--app-secret',
      'process-app-secret',
      '--verify-token',
      'process-verify-token',
    ]);
    expect(channel.stderr).toBe('');
    expect(channel.code).toBe(0);
    expect(JSON.parse(channel.stdout)).toMatchObject({
      id: expect.any(String),
      clientId: id,
      kind: 'whatsapp',
      webhookUrl: 'https://parley.example/webhooks/whatsapp',
      secrets: { accessToken: true, appSecret: true, verifyToken: true },
    });
    expect(channel.stdout).not.toContain('EAAG-process-token');

    // Sealed at rest: the raw secrets are nowhere in the table.
    const pglite = new PGlite(path.join(dataDir, 'pglite'));
    try {
      const { rows } = await pglite.query('select * from channels');
      expect(rows).toHaveLength(1);
      for (const secret of ['EAAG-process-token', 'process-app-secret', 'process-verify-token']) expect(JSON.stringify(rows)).not.toContain(secret);
    } finally {
      await pglite.close();
    }
  });
});
