import { sql } from 'kysely';
import { NO_MIGRATIONS } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../test/helpers/database';
import { createMigrator, migrateToLatest } from './migrate';
import { migrations } from './migrations';

const ALL = Object.keys(migrations);

async function tablesOf(database: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely%'
    order by 1`.execute(database.db);
  return rows.map((r) => r.name);
}

describe.each(ENGINES)('migrations (%s)', (engine) => {
  const opened: TestDatabase[] = [];
  const fresh = async () => {
    const database = await createTestDatabase(engine, { migrate: false });
    opened.push(database);
    return database;
  };
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.destroy();
  });

  it('apply every migration to an empty database, nothing on a second run, and can be undone and redone', async () => {
    const database = await fresh();
    expect(await tablesOf(database)).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual({ applied: ALL });
    expect(await tablesOf(database)).toContain('users');
    expect(await migrateToLatest(database.db)).toEqual({ applied: [] });
    expect(await migrateToLatest(database.db)).toEqual({ applied: [] });

    const down = await (await createMigrator(database.db)).migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(await tablesOf(database)).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual({ applied: ALL });
  });

  // One process owns a PGlite database, which has one schema: these matter on a shared server.
  it.skipIf(engine === 'pglite')('two instances migrating the same empty database at once apply each migration once', async () => {
    const database = await fresh();
    const other = await database.reopen();
    const [a, b] = await Promise.all([migrateToLatest(database.db), migrateToLatest(other.db)]);
    expect([...a.applied, ...b.applied]).toEqual(ALL);
  });

  it.skipIf(engine === 'pglite')('migrate a schema of their own while another schema of the same database is already migrated', async () => {
    const neighbour = await fresh();
    await migrateToLatest(neighbour.db);
    const database = await fresh();
    expect(await migrateToLatest(database.db)).toEqual({ applied: ALL });
    expect(await tablesOf(database)).toEqual(await tablesOf(neighbour));
  });
});
