import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../test/helpers/database';
import { SQL_ROUTINES } from '../routines';
import type { Db } from './database';
import { migrateToLatest } from './migrate';
import { applyRoutines, defineSqlRoutines, routinesHash, type SqlRoutines } from './routines';

/** A routine source of one function returning `n`. */
function probe(n: number, name = 'probe'): SqlRoutines {
  return {
    name,
    statements: [`create or replace function parley_test_probe() returns int language plpgsql as $$ begin return ${n}; end $$`],
  };
}

async function probeResult(db: Db): Promise<number | undefined> {
  const { rows } = await sql<{ n: number }>`select parley_test_probe() as n`.execute(db);
  return rows[0]?.n;
}

async function recorded(db: Db): Promise<Record<string, string>> {
  const rows = await db.selectFrom('sqlRoutines').select(['name', 'hash']).orderBy('name').execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

/** Every function a statement creates: its name and its body (between the dollar quotes). */
function functionsOf(sources: readonly SqlRoutines[]): { name: string; body: string }[] {
  return sources.flatMap((source) =>
    source.statements.map((statement) => {
      const name = /^\s*create or replace function (\w+)\(/u.exec(statement)?.[1];
      const start = statement.indexOf('$$');
      const end = statement.lastIndexOf('$$');
      if (!name || start < 0 || end <= start) throw new Error(`Cannot read ${statement.slice(0, 60)}`);
      return { name, body: statement.slice(start + 2, end) };
    }),
  );
}

describe.each(ENGINES)('SQL routines (%s)', (engine) => {
  let database: TestDatabase;
  const opened: TestDatabase[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database.destroy();
  });
  afterEach(async () => {
    for (const other of opened.splice(0)) await other.destroy();
    await sql`drop function if exists parley_test_probe()`.execute(database.db);
    await database.db.deleteFrom('sqlRoutines').where('name', 'like', 'probe%').execute();
  });

  it('are applied by migrateToLatest on a new database, recorded with their hashes, and not again when unchanged', async () => {
    const fresh = await createTestDatabase(engine, { migrate: false });
    opened.push(fresh);
    const report = await migrateToLatest(fresh.db, { routines: SQL_ROUTINES });
    expect(report.applied).toContain('0010-sql-routines');
    const expected = Object.fromEntries(SQL_ROUTINES.map((s) => [s.name, routinesHash(s)]));
    expect(await recorded(fresh.db)).toEqual(expected);
    const [first] = await fresh.db.selectFrom('sqlRoutines').select('appliedAt').orderBy('name').execute();

    expect(await migrateToLatest(fresh.db, { routines: SQL_ROUTINES })).toEqual({ applied: [] });
    expect(await applyRoutines(fresh.db, SQL_ROUTINES)).toEqual([]);
    expect(await recorded(fresh.db)).toEqual(expected);
    const [again] = await fresh.db.selectFrom('sqlRoutines').select('appliedAt').orderBy('name').execute();
    expect(again?.appliedAt).toEqual(first?.appliedAt);

    // The test databases (the PGlite snapshot, each PostgreSQL schema) are migrated the same way.
    expect(await recorded(database.db)).toEqual(expected);
    expect(await applyRoutines(database.db, SQL_ROUTINES)).toEqual([]);
  });

  it('apply a changed source, and only that one, and its new definition is the one that runs', async () => {
    expect(await applyRoutines(database.db, [...SQL_ROUTINES, probe(1)])).toEqual(['probe']);
    expect(await probeResult(database.db)).toBe(1);
    expect((await recorded(database.db)).probe).toBe(routinesHash(probe(1)));
    expect(await applyRoutines(database.db, [...SQL_ROUTINES, probe(1)])).toEqual([]);

    expect(await applyRoutines(database.db, [...SQL_ROUTINES, probe(2)])).toEqual(['probe']);
    expect(await probeResult(database.db)).toBe(2);
    expect((await recorded(database.db)).probe).toBe(routinesHash(probe(2)));
    expect(await migrateToLatest(database.db, { routines: [...SQL_ROUTINES, probe(2)] })).toEqual({ applied: [] });
    expect(await applyRoutines(database.db, [...SQL_ROUTINES, probe(2)])).toEqual([]);
    expect(await probeResult(database.db)).toBe(2);

    // Through migrateToLatest too (its report stays the migrations').
    expect(await migrateToLatest(database.db, { routines: [...SQL_ROUTINES, probe(3)] })).toEqual({ applied: [] });
    expect(await probeResult(database.db)).toBe(3);
  });

  it('apply a source again when one of its functions is missing (a migration dropped it to change its signature)', async () => {
    expect(await applyRoutines(database.db, [probe(4)])).toEqual(['probe']);
    await sql`drop function parley_test_probe()`.execute(database.db);
    expect(await applyRoutines(database.db, [probe(4)])).toEqual(['probe']);
    expect(await probeResult(database.db)).toBe(4);
    expect(await applyRoutines(database.db, [probe(4)])).toEqual([]);
  });

  it('refuse a statement that is not "create or replace function/view", applying nothing', async () => {
    const table = { name: 'probe-bad', statements: ['create table parley_test_probe_table (id int)'] };
    await expect(applyRoutines(database.db, [probe(5), table])).rejects.toThrow(
      /SQL routines "probe-bad", statement 1: not a "create or replace function".*belong in a migration/su,
    );
    expect(() => defineSqlRoutines(table)).toThrow(/belong in a migration/u);
    for (const statement of [
      'create function parley_test_probe() returns int language sql as $$ select 1 $$',
      'drop function parley_test_probe()',
      'alter table users add column x int',
      '-- create or replace function\ninsert into sql_routines values (1)',
    ]) {
      expect(() => defineSqlRoutines({ name: 'probe-bad', statements: [statement] })).toThrow(/not a "create or replace function"/u);
    }
    // A second statement after the function (";" outside its body).
    const smuggled = `create or replace function parley_test_probe() returns int language plpgsql as $$ begin return 6; end $$; drop table sql_routines`;
    expect(() => defineSqlRoutines({ name: 'probe-bad', statements: [smuggled] })).toThrow(/more than one statement/u);
    await expect(applyRoutines(database.db, [probe(6)])).resolves.toEqual(['probe']);
    // Accepted: comments first, a view, semicolons inside bodies and strings.
    expect(() =>
      defineSqlRoutines({
        name: 'probe-ok',
        statements: [
          `-- why\n/* how */ create or replace view parley_test_probe_view as select ';' as x;`,
          `create or replace function parley_test_probe() returns int language plpgsql as $body$ begin return 7; end $body$`,
        ],
      }),
    ).not.toThrow();
    await expect(applyRoutines(database.db, [probe(1), probe(2)])).rejects.toThrow(/Two SQL routine sources are named "probe"/u);

    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.tables
      where table_schema = current_schema() and table_name = 'parley_test_probe_table'`.execute(database.db);
    expect(rows[0]?.n).toBe(0);
    expect(Object.keys(await recorded(database.db))).not.toContain('probe-bad');
  });

  it('define every function of every source in the migrated database, as the source states it', async () => {
    const functions = functionsOf(SQL_ROUTINES);
    expect(functions.map((f) => f.name)).toEqual(
      expect.arrayContaining(['parley_record_inbound', 'parley_send_message', 'parley_begin_send', 'parley_publish', 'parley_agent_context']),
    );
    const { rows } = await sql<{ name: string; body: string }>`
      select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.proname like 'parley\\_%'`.execute(database.db);
    for (const f of functions) expect(rows.filter((r) => r.name === f.name), f.name).toEqual([{ name: f.name, body: f.body }]);
  });

  // One process owns a PGlite database: concurrent starts matter on a shared server.
  it.skipIf(engine === 'pglite')('two instances applying a changed source at once apply it once', async () => {
    const other = await database.reopen();
    for (let n = 10; n < 15; n++) {
      const sources = [...SQL_ROUTINES, probe(n)];
      const [a, b] = await Promise.all([applyRoutines(database.db, sources), applyRoutines(other.db, sources)]);
      expect([...a, ...b]).toEqual(['probe']);
      expect(await probeResult(other.db)).toBe(n);
    }
    // Both instances starting at once, through migrateToLatest.
    const sources = [...SQL_ROUTINES, probe(20)];
    const [a, b] = await Promise.all([
      migrateToLatest(database.db, { routines: sources }),
      migrateToLatest(other.db, { routines: sources }),
    ]);
    expect([a, b]).toEqual([{ applied: [] }, { applied: [] }]);
    expect(await probeResult(database.db)).toBe(20);
  });
});
