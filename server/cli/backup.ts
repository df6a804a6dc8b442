/**
 * `parley backup --out FILE` and `parley restore --from FILE` (embedded database). A backup is
 * taken through the running server when one holds DATA_DIR (POST /api/internal/backup with the
 * control token), otherwise here with the data-directory lock held; either way the file carries the
 * secrets key. A restore writes into an empty DATA_DIR only. With DATABASE_URL both refuse and say
 * how to use pg_dump / pg_restore instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config';
import { BACKUP_KEY_WARNING, BackupError, isEmptyDir, readBackup } from '../db/backup';
import { embeddedDatabaseExists, NoDatabaseError, pgliteDir } from '../db/data-dir';
import { acquireDataDirLock, type LockInfo } from '../db/data-dir-lock';
import { CommandError } from './commands';

export const backupCommands = [
  {
    name: 'backup',
    usage: 'backup --out FILE',
    summary: 'Write a consistent backup of the embedded database and its secrets key to FILE (mode 0600; keep it secret)',
  },
  {
    name: 'restore',
    usage: 'restore --from FILE',
    summary: 'Restore a backup into an empty DATA_DIR (creates it), secrets key included',
  },
] as const;

export type BackupCommandName = (typeof backupCommands)[number]['name'];

export function isBackupCommand(name: string): name is BackupCommandName {
  return backupCommands.some((c) => c.name === name);
}

const POSTGRES_NOTE =
  'With DATABASE_URL the database is a PostgreSQL server, which parley backup does not copy. Back it up with ' +
  'pg_dump --format=custom --file parley.dump "$DATABASE_URL" and restore with pg_restore --dbname "$DATABASE_URL" ' +
  '--no-owner parley.dump into an empty database; keep SECRETS_KEY with the dump (secret, like the dump) — without ' +
  'it the restored channel secrets cannot be opened. See README, Backups.';

const flagSchemas = {
  backup: z.object({ out: z.string({ error: 'Required: the file to write' }).min(1) }),
  restore: z.object({ from: z.string({ error: 'Required: the backup file to read' }).min(1) }),
};

function parse<K extends BackupCommandName>(name: K, flags: Record<string, unknown>): z.output<(typeof flagSchemas)[K]> {
  const parsed = flagSchemas[name].safeParse(flags);
  if (!parsed.success) {
    const usage = backupCommands.find((c) => c.name === name)?.usage ?? name;
    throw new CommandError(`${parsed.error.issues.map((i) => `--${i.path.join('.') || '?'}: ${i.message}`).join('\n')}\nUsage: npm run parley -- ${usage}`);
  }
  return parsed.data as z.output<(typeof flagSchemas)[K]>;
}

/** Checks flags before anything is opened (as checkCommand does for the other commands). */
export function checkBackupCommand(name: BackupCommandName, flags: Record<string, unknown>): void {
  parse(name, flags);
}

async function backupThroughServer(holder: LockInfo): Promise<Buffer> {
  if (!holder.controlUrl) throw new CommandError('A Parley server is starting on this data directory; try again in a moment.');
  let response: Response;
  try {
    response = await fetch(`${holder.controlUrl}/api/internal/backup`, {
      method: 'POST',
      headers: { 'x-parley-control-token': holder.controlToken },
    });
  } catch (error) {
    throw new CommandError(`The Parley server holding this data directory does not answer at ${holder.controlUrl} (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new CommandError(body.error?.message ?? `The server answered ${response.status} to the backup request.`);
  }
  return Buffer.from(await response.arrayBuffer());
}

async function backupHere(config: Config): Promise<Buffer> {
  const [{ openDatabase }, { loadSecretBox }, { checkSecretsKey }, { VERSION }, { AppSettingsService, BackupsService }] = await Promise.all([
    import('../db/database'),
    import('../lib/secret-box'),
    import('../modules/system/secrets-key-check'),
    import('../app'),
    import('../modules/system'),
  ]);
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({ dataDir: pgliteDir(config.dataDir) });
    try {
      const secretBox = loadSecretBox({ secretsKey: config.secretsKey, dataDir: config.dataDir });
      // A backup with a key that cannot open its secrets would be useless when it is needed.
      await checkSecretsKey(database.db, secretBox);
      // Recorded as the latest backup (the readiness check reads how old it is).
      return await new BackupsService({ database, secretBox, version: VERSION, settings: new AppSettingsService(database.db) }).create();
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

export async function runBackupCommand(
  name: BackupCommandName,
  config: Config,
  flags: Record<string, unknown>,
  holder: LockInfo | undefined,
): Promise<unknown> {
  if (config.databaseUrl) throw new CommandError(POSTGRES_NOTE);
  try {
    return name === 'backup' ? await backup(config, parse('backup', flags).out, holder) : await restore(config, parse('restore', flags).from);
  } catch (error) {
    if (error instanceof BackupError) throw new CommandError(error.message, { cause: error });
    throw error;
  }
}

async function backup(config: Config, out: string, holder: LockInfo | undefined): Promise<unknown> {
  const file = path.resolve(out);
  if (fs.existsSync(file)) throw new CommandError(`--out: ${file} already exists; choose a new file name.`);
  if (!holder && !embeddedDatabaseExists(config.dataDir)) {
    throw new NoDatabaseError({ dataDir: config.dataDir, databaseUrl: undefined, dataDirFromEnv: Boolean(process.env.DATA_DIR) });
  }
  const content = holder ? await backupThroughServer(holder) : await backupHere(config);
  const { manifest } = readBackup(content);
  // Readable by this user only, and never over an existing file.
  fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
  process.stderr.write(`Warning: ${BACKUP_KEY_WARNING}\n`);
  return {
    file,
    bytes: content.length,
    createdAt: manifest.createdAt,
    through: holder ? 'the running server' : 'this process (no server was running)',
    containsSecretsKey: true,
    warning: BACKUP_KEY_WARNING,
  };
}

async function restore(config: Config, from: string): Promise<unknown> {
  const file = path.resolve(from);
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch (error) {
    throw new CommandError(`--from: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const { manifest, data } = readBackup(content);
  const { migrations } = await import('../db/migrations');
  if (manifest.lastMigration !== null && !(manifest.lastMigration in migrations)) {
    throw new CommandError(
      `This backup was made by a newer Parley (${manifest.parleyVersion}; its database has migration ${manifest.lastMigration}, which this ` +
        'version does not know). Restore it with that version or a later one.',
    );
  }
  if (!isEmptyDir(config.dataDir)) {
    throw new CommandError(
      `DATA_DIR ${config.dataDir} is not empty. A restore never writes over existing data: set DATA_DIR to a new or empty directory ` +
        '(move the old one aside first if you mean to replace it).',
    );
  }
  const [{ PGlite }, { secretsKeyPath }] = await Promise.all([import('@electric-sql/pglite'), import('../lib/secret-box')]);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(config.dataDir);
  try {
    let conversations: number;
    try {
      const pglite = new PGlite(pgliteDir(config.dataDir), { loadDataDir: new Blob([new Uint8Array(data)]) });
      await pglite.waitReady;
      const { rows } = await pglite.query<{ n: number }>('select count(*)::int as n from conversations');
      await pglite.close();
      conversations = rows[0]?.n ?? 0;
      fs.writeFileSync(secretsKeyPath(config.dataDir), manifest.secretsKey, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // The directory was empty: leave it so, and a second attempt is possible.
      fs.rmSync(pgliteDir(config.dataDir), { recursive: true, force: true });
      fs.rmSync(secretsKeyPath(config.dataDir), { force: true });
      throw new CommandError(`The restore failed and was undone: ${(error as Error).message}`, { cause: error });
    }
    return {
      restored: config.dataDir,
      createdAt: manifest.createdAt,
      parleyVersion: manifest.parleyVersion,
      conversations,
      secretsKey: secretsKeyPath(config.dataDir),
      note: 'The secrets key was written to DATA_DIR/secrets.key. If the server runs with SECRETS_KEY, it must be the value it had when the backup was taken.',
    };
  } finally {
    lock.release();
  }
}
