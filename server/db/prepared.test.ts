/**
 * Statements marked `PREPARED` give the same results as any other on both engines, and on a
 * PostgreSQL server are prepared once per connection (visible in `pg_prepared_statements` of that
 * session), up to `MAX_PREPARED_PER_CONNECTION` distinct texts.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../test/helpers/database';
import { MAX_PREPARED_PER_CONNECTION, PREPARED } from './database';

describe.each(ENGINES)('prepared statements on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine, { migrate: false });
  });

  afterAll(async () => {
    await database.destroy();
  });

  it('answers like an unprepared statement, with parameters, again and again', async () => {
    const text = `${PREPARED}select $1::int + $2::int as sum, $3::text as label`;
    for (const [a, b] of [
      [1, 2],
      [40, 2],
      [-5, 5],
    ] as const) {
      const { rows } = await database.db.executeQuery<{ sum: number; label: string }>(CompiledQuery.raw(text, [a, b, `n${a}`]));
      expect(rows).toEqual([{ sum: a + b, label: `n${a}` }]);
    }
  });

  it.runIf(engine === 'postgres')('is prepared once per connection, named after its text, and stops preparing past the cap', async () => {
    await database.db.connection().execute(async (connection) => {
      const prepared = async () =>
        (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(connection)).rows;
      const before = (await prepared()).length;
      const text = `${PREPARED}select $1::int * 2 as twice`;
      await connection.executeQuery(CompiledQuery.raw(text, [1]));
      await connection.executeQuery(CompiledQuery.raw(text, [2]));
      const after = await prepared();
      const mine = after.filter((p) => p.statement === text);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.name).toMatch(/^parley_[\w-]{27}$/u);
      // Unmarked statements are not prepared.
      await connection.executeQuery(CompiledQuery.raw('select $1::int as plain', [3]));
      expect(await prepared()).toHaveLength(before + 1);

      // Fill the connection up to the cap; further new texts still run, unprepared.
      const room = MAX_PREPARED_PER_CONNECTION - (before + 1);
      for (let i = 0; i < room + 5; i++) {
        const { rows } = await connection.executeQuery<{ n: number }>(CompiledQuery.raw(`${PREPARED}select $1::int + ${i} as n`, [1]));
        expect(rows[0]!.n).toBe(1 + i);
      }
      expect(await prepared()).toHaveLength(MAX_PREPARED_PER_CONNECTION);
      // A text prepared before the cap was reached still runs prepared.
      const { rows } = await connection.executeQuery<{ twice: number }>(CompiledQuery.raw(text, [21]));
      expect(rows).toEqual([{ twice: 42 }]);
    });
  });
});
