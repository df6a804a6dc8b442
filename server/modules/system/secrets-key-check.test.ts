import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers/app';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { SECRETS_KEY_SETTING } from './secrets-key-check';

const KEY_A = 'first-secrets-key-first-secrets-key-0123456789';
const KEY_B = 'other-secrets-key-other-secrets-key-0123456789';
const REFUSED = /Refusing to start: the secrets key in use \(SECRETS_KEY\) is not the key this database was set up with/u;

describe.each(ENGINES)('the secrets key is checked against the database at start (%s)', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database.destroy();
  });

  async function start(key: string) {
    const app = await createTestApp(engine, { database, startJobs: false, env: { SECRETS_KEY: key } });
    return app;
  }

  it('records a fingerprint (not the key) on the first start, starts again with the same key and refuses another one', async () => {
    const first = await start(KEY_A);
    await first.destroy();
    const rows = await database.db.selectFrom('appSettings').select('value').where('key', '=', SECRETS_KEY_SETTING).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value).not.toContain(KEY_A);

    await expect(start(KEY_B)).rejects.toThrow(REFUSED);
    await expect(start(KEY_B)).rejects.toThrow(/SECRETS_KEY to the key the other instances use, or put the original DATA_DIR\/secrets\.key back/u);

    const again = await start(KEY_A);
    await again.destroy();
  });

  it('on a database sealed before fingerprints existed, opens a stored secret before recording one', async () => {
    const app = await start(KEY_A);
    const client = await createTestClient(app, 'Upgrade Shop');
    await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    await app.destroy();
    // As an older version left it: sealed secrets, no fingerprint.
    await database.db.deleteFrom('appSettings').where('key', '=', SECRETS_KEY_SETTING).execute();

    await expect(start(KEY_B)).rejects.toThrow(/cannot open the secrets already stored/u);
    expect(await database.db.selectFrom('appSettings').select('value').where('key', '=', SECRETS_KEY_SETTING).executeTakeFirst()).toBeUndefined();

    const upgraded = await start(KEY_A);
    await upgraded.destroy();
    expect(await database.db.selectFrom('appSettings').select('value').where('key', '=', SECRETS_KEY_SETTING).executeTakeFirst()).toBeDefined();
    await expect(start(KEY_B)).rejects.toThrow(REFUSED);
  });
});
