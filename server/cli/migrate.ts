/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import path from 'node:path';
import { loadConfig } from '../config';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { SQL_ROUTINES } from '../routines';

const config = loadConfig();
const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
try {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite'), poolSize: 1 });
  try {
    const { applied } = await migrateToLatest(database.db, { routines: SQL_ROUTINES });
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? `Error: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  lock?.release();
}
