/**
 * `npm run parley -- <command> [--flags]`: prints JSON on stdout; on error a clear message on
 * stderr and a non-zero exit.
 *
 * With the embedded database, only one process may open DATA_DIR. If a Parley server holds it,
 * the command runs inside that server (through its control endpoint); otherwise the CLI takes the
 * lock itself for the duration of the command. With DATABASE_URL it always runs directly.
 */
import { ConfigError, loadConfig } from '../config';
import { databaseIsSetUp, embeddedDatabaseExists, NoDatabaseError, pgliteDir } from '../db/data-dir';
import { acquireDataDirLock, DataDirInUseError, readLock } from '../db/data-dir-lock';
import { AppError } from '../lib/errors';
import { SecretsKeyMismatchError } from '../modules/system/secrets-key-check';
import { backupCommands, checkBackupCommand, isBackupCommand, runBackupCommand } from './backup';
import { checkCommand, commands, CommandError, parseFlags, readFileFlags, runCommand } from './commands';

function usage(): string {
  const all = [...commands, ...backupCommands];
  return `Usage: npm run parley -- <command> [--flags]\n\nCommands:\n${all.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}`;
}

async function viaServer(controlUrl: string, token: string, command: string, flags: Record<string, unknown>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${controlUrl}/api/internal/cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-control-token': token },
      body: JSON.stringify({ command, flags }),
    });
  } catch (error) {
    throw new CommandError(
      `The Parley server holding this data directory does not answer at ${controlUrl} (${(error as Error).message}). ` +
        'If it is stopping or starting, try again in a moment.',
      { cause: error },
    );
  }
  const body = (await response.json()) as { result?: unknown; error?: { message?: string; fields?: Record<string, string> } };
  if (!response.ok) {
    const fields = body.error?.fields ? `\n${Object.entries(body.error.fields).map(([k, v]) => `--${k}: ${v}`).join('\n')}` : '';
    throw new CommandError(`${body.error?.message ?? `Server answered ${response.status}`}${fields}`);
  }
  return body.result;
}

function noDatabase(dataDir: string, databaseUrl: string | undefined): NoDatabaseError {
  return new NoDatabaseError({ dataDir, databaseUrl, dataDirFromEnv: Boolean(process.env.DATA_DIR) });
}

async function direct(command: string, flags: Record<string, unknown>): Promise<unknown> {
  // Loaded here, not at the top: the other paths (help, bad flags, via the server) stay quick.
  const [{ pino }, { buildApp }, { openDatabase }, { migrateToLatest }, { SQL_ROUTINES }] = await Promise.all([
    import('pino'),
    import('../app'),
    import('../db/database'),
    import('../db/migrate'),
    import('../routines'),
  ]);
  const config = loadConfig();
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDir(config.dataDir), poolSize: 2 });
    try {
      // An empty PostgreSQL database (a wrong DATABASE_URL?) is not set up behind the operator's back.
      if (!(await databaseIsSetUp(database.db))) throw noDatabase(config.dataDir, config.databaseUrl);
      await migrateToLatest(database.db, { routines: SQL_ROUTINES });
      const app = await buildApp({ config, database, logger: pino({ level: 'warn' }, pino.destination(2)), startJobs: false });
      try {
        return await runCommand(app.services, command, flags);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === '--help' || command === 'help') {
    console.log(usage());
    return 0;
  }
  if (!command) {
    console.error(usage());
    return 2;
  }
  const flags = await readFileFlags(parseFlags(rest));
  let result: unknown;
  if (isBackupCommand(command)) {
    checkBackupCommand(command, flags);
    const config = loadConfig();
    result = await runBackupCommand(command, config, flags, config.databaseUrl ? undefined : readLock(config.dataDir));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  // Refuse bad input before touching the database (or the server).
  checkCommand(command, flags);
  const config = loadConfig();
  const holder = config.databaseUrl ? undefined : readLock(config.dataDir);
  // Never create an empty ./data by running in the wrong place: only the server, db:migrate and restore create a database.
  if (!holder && !config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) throw noDatabase(config.dataDir, undefined);
  if (holder) {
    if (!holder.controlUrl) throw new CommandError('A Parley server is starting on this data directory; try again in a moment.');
    result = await viaServer(holder.controlUrl, holder.controlToken, command, flags);
  } else {
    result = await direct(command, flags);
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof CommandError ||
      error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof SecretsKeyMismatchError ||
      error instanceof NoDatabaseError
    ) {
      console.error(`Error: ${error.message}`);
    } else if (error instanceof AppError) {
      const fields = error.fields ? Object.entries(error.fields).map(([k, v]) => `\n--${k}: ${v}`).join('') : '';
      console.error(`Error: ${error.message}${fields}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
