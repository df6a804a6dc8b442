/**
 * `npm start` ends here: configuration, the database (PGlite under DATA_DIR unless DATABASE_URL
 * is set), migrations, the first administrator, then the HTTP server and the job workers.
 */
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { acquireDataDirLock, controlUrlFor, DataDirInUseError, type DataDirLock } from './db/data-dir-lock';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { loggerOptions } from './lib/logger';
import { SecretsKeyMismatchError } from './modules/system/secrets-key-check';
import { SQL_ROUTINES } from './routines';

async function main(): Promise<void> {
  const startedAt = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino(loggerOptions(config.logLevel));

  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirInUseError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }

  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
    poolSize: config.databasePoolSize,
    onError: (error) => logger.error({ err: error }, 'database connection error'),
  });
  const { applied } = await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  if (applied.length) logger.info({ applied }, 'database migrated');

  let app;
  try {
    app = await buildApp({ config, database, logger, controlToken: () => lock?.info.controlToken });
  } catch (error) {
    if (error instanceof SecretsKeyMismatchError) {
      console.error(error.message);
      await database.close();
      lock?.release();
      process.exit(1);
    }
    throw error;
  }

  const admin = await app.services.users.ensureFirstAdmin(config.admin);
  if (config.demoClientName) {
    const widgetId = await app.services.widget.ensureDemoWidget(config.demoClientName);
    if (widgetId) await app.services.agents.ensureDemoAgent(widgetId, config.publicUrl);
  }

  await app.server.listen({ port: config.port, host: config.host });
  const address = app.server.server.address();
  // The address actually bound: HOST may be a specific interface, where 127.0.0.1 would not answer.
  lock?.publish(typeof address === 'object' && address !== null ? controlUrlFor(address) : `http://127.0.0.1:${config.port}`);

  const url = config.publicUrl;
  const lines = [
    '',
    `  Parley is running at ${url}  (database: ${database.engine === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'}; ready in ${Math.round(performance.now() - startedAt)} ms)`,
  ];
  if (admin.created) {
    lines.push(`  First administrator created. Sign in at ${url}/login`);
    lines.push(`    e-mail:   ${admin.email}`);
    lines.push(
      admin.password
        ? `    password: ${admin.password}   (shown only this once; change it on /profile → Security)`
        : '    password: the one in ADMIN_PASSWORD',
    );
  } else if (admin.promotedEmail) {
    lines.push(`  No administrator existed: ${admin.promotedEmail} was made administrator.`);
  } else {
    lines.push(`  Sign in at ${url}/login`);
  }
  console.log(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
    } finally {
      lock?.release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('exit', () => lock?.release());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
