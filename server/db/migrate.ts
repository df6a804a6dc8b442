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
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed`.replace('  ', ' '), { cause: result.error });
  }
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
