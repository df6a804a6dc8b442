import { sql } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type { Db } from './database';
import { migrations } from './migrations';

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies pending migrations. Kysely's migrator takes a lock row first, so several instances
 * starting together against one PostgreSQL apply each migration once.
 */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  const migrator = await createMigrator(db);
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed`.replace('  ', ' '), { cause: result.error });
  }
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
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
