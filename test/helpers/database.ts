/**
 * Test databases on both engines. Data-layer tests run once per engine in ENGINES: PGlite always,
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). Each PostgreSQL database is its own
 * schema, dropped afterwards, so test files run in parallel on one server.
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, type Engine, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { randomToken } from '../../server/lib/crypto';
import { SQL_ROUTINES } from '../../server/routines';
import { SNAPSHOT_FILE } from './snapshot';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const ENGINES: Engine[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends Database {
  /** The PostgreSQL schema (postgres engine only). */
  schema?: string;
  /** Opens another connection set to the same database (a second app instance). */
  reopen(): Promise<Database>;
  /** Closes and drops everything. */
  destroy(): Promise<void>;
}

function snapshot(): Blob {
  return new Blob([fs.readFileSync(SNAPSHOT_FILE)]);
}

export async function createTestDatabase(engine: Engine, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (engine === 'pglite') {
    const pglite = migrate ? new PGlite({ loadDataDir: snapshot() }) : new PGlite();
    const database = await openDatabase({ pglite });
    return {
      ...database,
      reopen: () => Promise.reject(new Error('PGlite is single-process: share the Database object instead')),
      destroy: () => database.close(),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomToken(9).toLowerCase().replace(/[^a-z0-9]/gu, '')}`;
  const database = await openDatabase({ url: TEST_DATABASE_URL, schema, poolSize: 8 });
  if (migrate) await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  const others: Database[] = [];
  return {
    ...database,
    schema,
    async reopen() {
      const other = await openDatabase({ url: TEST_DATABASE_URL, schema, poolSize: 8 });
      others.push(other);
      return other;
    },
    async destroy() {
      for (const other of others) await other.close();
      await database.close();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Another instance's view of the same database: on PostgreSQL its own connection pool (and
 * LISTEN connection), on PGlite the same embedded database (one process can only open it once).
 * Destroying it closes only what it opened.
 */
export async function secondInstance(database: TestDatabase): Promise<TestDatabase> {
  if (database.engine === 'pglite') {
    return { ...database, destroy: () => Promise.resolve() };
  }
  const other = await database.reopen();
  return { ...other, schema: database.schema, reopen: () => database.reopen(), destroy: () => Promise.resolve() };
}
