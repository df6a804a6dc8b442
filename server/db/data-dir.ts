/**
 * Where the database lives, and whether one is there. The command line must not create an empty
 * database by running in the wrong directory (DATA_DIR defaults to ./data, relative to where it
 * runs): only the server, `npm run db:migrate` and `parley restore` create one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from './database';

/** PGlite's directory inside DATA_DIR. */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Whether DATA_DIR holds an embedded database (PostgreSQL writes PG_VERSION when it initialises a cluster). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return fs.existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION'));
}

/** Whether Parley's migrations ever ran on this connection's schema (a PostgreSQL database may exist empty). */
export async function databaseIsSetUp(db: Db): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null as found`.execute(db);
  return rows[0]?.found === true;
}

export class NoDatabaseError extends Error {
  constructor(where: { dataDir: string; databaseUrl: string | undefined; dataDirFromEnv: boolean }) {
    super(
      where.databaseUrl
        ? 'The PostgreSQL database in DATABASE_URL has no Parley tables. Check DATABASE_URL (is it the server\'s?); ' +
            'to set up a new database, start the server once or run `npm run db:migrate`.'
        : `No Parley database in ${where.dataDir}${where.dataDirFromEnv ? ' (DATA_DIR)' : ' (DATA_DIR is not set, so ./data is used)'}. ` +
            "Run the command with the server's DATA_DIR, or DATABASE_URL when the server uses PostgreSQL. " +
            'A new database is created by starting the server, `npm run db:migrate` or `npm run parley -- restore`.',
    );
    this.name = 'NoDatabaseError';
  }
}
