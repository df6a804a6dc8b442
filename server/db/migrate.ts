import { sql } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type { Db } from './database';
import { migrations } from './migrations';
import { applyRoutines, type SqlRoutines } from './routines';

export interface MigrationReport {
  /** The migrations applied (not the SQL routines). */
  applied: string[];
}

export interface MigrateOptions {
  /**
   * The SQL routine sources (server/routines.ts, `SQL_ROUTINES`), applied after the migrations
   * when their content changed (./routines.ts). Passed in: server/db imports no module.
   */
  routines?: readonly SqlRoutines[];
}

/**
 * Applies pending migrations, then the changed SQL routines. Kysely's migrator takes a lock row
 * first and the routines an advisory lock, so several instances starting together against one
 * PostgreSQL apply each migration and each changed routine source once.
 */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationReport> {
  const migrator = await createMigrator(db);
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed`.replace('  ', ' '), { cause: result.error });
  }
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (options.routines?.length) await applyRoutines(db, options.routines);
  return { applied };
}

/**
 * The migrator for the schema the connection works in. Kysely looks for its bookkeeping tables in
 * every schema of the database unless told which one, so a second schema holding them (another
 * Parley, a parallel test run) made it skip creating its own and fail with "relation does not
 * exist"; naming the current schema keeps each schema's migrations its own.
 */
export async function createMigrator(db: Db): Promise<Migrator> {
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableSchema: rows[0]?.name ?? 'public',
  });
}

/**
 * The migrations this code knows and those the database records as applied, by name (the
 * readiness check "migrations current": one it knows and the database lacks is pending; one the
 * database has and it does not know was applied by a newer Parley).
 */
export async function findMigrationState(db: Db): Promise<{ known: string[]; applied: string[] }> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return { known: Object.keys(migrations).sort(), applied: rows.map((row) => row.name) };
}
