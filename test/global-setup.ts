/**
 * Once per test run: migrate an in-memory PGlite and save it as a snapshot that every test loads
 * (half a second instead of creating and migrating a database per file). On PostgreSQL each test
 * file migrates its own schema instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { SQL_ROUTINES } from '../server/routines';
import { SNAPSHOT_FILE } from './helpers/snapshot';

export default async function setup(): Promise<void> {
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  const blob = await pglite.dumpDataDir('none');
  fs.mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
  fs.writeFileSync(SNAPSHOT_FILE, Buffer.from(await blob.arrayBuffer()));
  await database.close();
}
