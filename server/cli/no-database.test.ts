/**
 * The command line run in the wrong place: no database where DATA_DIR (or DATABASE_URL) points.
 * It must say so, naming the variables, and leave nothing behind (it used to create an empty
 * ./data and a fresh database in it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../../test/helpers/database';
import { parleyEntry, type ProcessResult, runNode } from '../../test/helpers/processes';
import { randomToken } from '../lib/crypto';


type Result = ProcessResult;

/** `npm run parley -- …` from `cwd` with exactly this environment. */
function cli(cwd: string, env: Record<string, string>, args: string[]): Promise<Result> {
  return runNode([...parleyEntry('cli'), ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env } });
}

describe('the command line without a database', { timeout: 120_000 }, () => {
  let cwd: string;

  beforeAll(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-nodb-'));
  });
  afterAll(() => {
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('refuses without DATA_DIR instead of creating an empty ./data', async () => {
    const [list, create, backup] = await Promise.all([
      cli(cwd, {}, ['users:list']),
      cli(cwd, {}, ['clients:create', '--name', 'Nowhere Ltd']),
      cli(cwd, {}, ['backup', '--out', path.join(cwd, 'b.parley-backup')]),
    ]);
    for (const result of [list, create, backup]) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`No Parley database in ${path.join(cwd, 'data')} (DATA_DIR is not set, so ./data is used)`);
      expect(result.stderr).toContain("Run the command with the server's DATA_DIR, or DATABASE_URL when the server uses PostgreSQL");
    }
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('refuses a DATA_DIR that holds no database, and leaves it as it was', async () => {
    const dataDir = path.join(cwd, 'elsewhere');
    const result = await cli(cwd, { DATA_DIR: dataDir }, ['users:list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No Parley database in ${dataDir} (DATA_DIR).`);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  describe.runIf(TEST_DATABASE_URL)('with DATABASE_URL', () => {
    const name = `parley_empty_${randomToken(6).toLowerCase().replace(/[^a-z0-9]/gu, '')}`;
    let url: string;

    async function admin<T>(query: (client: pg.Client) => Promise<T>, database?: string): Promise<T> {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL, ...(database ? { database } : {}) });
      await client.connect();
      try {
        return await query(client);
      } finally {
        await client.end();
      }
    }

    beforeAll(async () => {
      await admin((c) => c.query(`create database ${name}`));
      const parsed = new URL(TEST_DATABASE_URL!);
      parsed.pathname = `/${name}`;
      url = parsed.toString();
    });
    afterAll(async () => {
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    });

    it('refuses an empty PostgreSQL database instead of setting it up', async () => {
      const result = await cli(cwd, { DATABASE_URL: url }, ['users:list']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('The PostgreSQL database in DATABASE_URL has no Parley tables');
      const tables = await admin((c) => c.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`), name);
      expect(tables.rows).toEqual([{ n: 0 }]);
    });

    it('backup says how to back up PostgreSQL (pg_dump and the key) rather than half-working', async () => {
      const result = await cli(cwd, { DATABASE_URL: url }, ['backup', '--out', path.join(cwd, 'pg.parley-backup')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('pg_dump --format=custom');
      expect(result.stderr).toContain('keep SECRETS_KEY with the dump');
      expect(fs.existsSync(path.join(cwd, 'pg.parley-backup'))).toBe(false);
    });
  });
});
