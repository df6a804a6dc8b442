/**
 * Once per test run: migrate an in-memory PGlite and save it as a snapshot that every test loads
 * (half a second instead of creating and migrating a database per file). On PostgreSQL each test
 * file migrates its own schema instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../server/db/database';
import { loadPackagedWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { migrateToLatest } from '../server/db/migrate';
import { SQL_ROUTINES } from '../server/routines';
import { SNAPSHOT_FILE } from './helpers/snapshot';

export default async function setup(): Promise<void> {
  // The word vectors' cache (node_modules/.cache/parley), converted once per installation as a
  // real installation's first training does — here before the test files start in parallel, or
  // on a fresh clone every file's first small-FAQ training would convert them at the same time,
  // seconds of CPU each, inside its jobs' time limits.
  loadPackagedWordVectors();
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  const blob = await pglite.dumpDataDir('none');
  fs.mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
  fs.writeFileSync(SNAPSHOT_FILE, Buffer.from(await blob.arrayBuffer()));
  await database.close();
}
