/**
 * `parley backup` / `parley restore` for the embedded database. A backup file is one line of text
 * naming the format, one line of JSON (the manifest, which carries the secrets key) and the
 * gzipped tar of PGlite's data directory:
 *
 *   PARLEY-BACKUP 1\n{"engine":"pglite","secretsKey":"…",…}\n<tar.gz>
 *
 * The snapshot is consistent: it is taken while this process holds PGlite's only connection, after
 * a CHECKPOINT, with PGlite's query lock held (dumpDataDir) — no statement or transaction is half
 * way. The key travels with it because the restored channel secrets cannot be opened without it.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import type { SecretBox } from '../lib/secret-box';
import type { Database } from './database';

const MAGIC = 'PARLEY-BACKUP 1';

export interface BackupManifest {
  format: 1;
  engine: 'pglite';
  createdAt: string;
  parleyVersion: string;
  /** The last migration applied: a restore into an older Parley would not know the schema. */
  lastMigration: string | null;
  /** The secrets key, 64 hex characters. */
  secretsKey: string;
  databaseBytes: number;
}

export class BackupError extends Error {}

export const BACKUP_KEY_WARNING =
  'This backup file contains the secrets key, which opens every channel secret and API key in it: ' +
  'keep it as secret as the database itself (it is written readable only by you, mode 0600).';

/** A consistent backup of an embedded database, with its key. */
export async function createBackup(database: Database, secretBox: SecretBox, parleyVersion: string): Promise<Buffer> {
  const dump = database.dumpDataDir;
  if (database.engine !== 'pglite' || dump === undefined) {
    throw new BackupError('parley backup covers the embedded database; back up PostgreSQL with pg_dump (see README, Backups).');
  }
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(database.db);
  const data = await dump();
  const manifest: BackupManifest = {
    format: 1,
    engine: 'pglite',
    createdAt: new Date().toISOString(),
    parleyVersion,
    lastMigration: rows[0]?.name ?? null,
    secretsKey: secretBox.exportKey(),
    databaseBytes: data.length,
  };
  return Buffer.concat([Buffer.from(`${MAGIC}\n${JSON.stringify(manifest)}\n`, 'utf8'), data]);
}

export function readBackup(file: Buffer): { manifest: BackupManifest; data: Buffer } {
  const first = file.indexOf(0x0a);
  const second = first < 0 ? -1 : file.indexOf(0x0a, first + 1);
  if (first < 0 || second < 0 || file.subarray(0, first).toString('utf8') !== MAGIC) {
    throw new BackupError('This is not a Parley backup file (made by `npm run parley -- backup`).');
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(file.subarray(first + 1, second).toString('utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupError('The backup file is damaged: its header does not parse.', { cause: error });
  }
  const data = file.subarray(second + 1);
  if (manifest.format !== 1 || manifest.engine !== 'pglite' || !/^[0-9a-f]{64}$/u.test(manifest.secretsKey) || data.length !== manifest.databaseBytes) {
    throw new BackupError('The backup file is damaged or incomplete (its size or header does not match).');
  }
  return { manifest, data };
}

/** Whether `dir` is absent or an empty directory (a restore never mixes with existing data). */
export function isEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return true;
    if (code === 'ENOTDIR') return false;
    throw error;
  }
}
