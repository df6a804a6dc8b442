/**
 * The TypeScript view of the tables (schema.ts) and the migrated database agree: every table and
 * column declared in the `DB` interface exists, with the same nullability, and the database holds
 * no table the interface does not declare. The interface is read from the source, so a table added
 * to it without a migration (or the reverse) fails here. The constraints live in the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../test/helpers/database';

interface DeclaredColumn {
  nullable: boolean;
}

/** table (snake_case) -> column (snake_case) -> what schema.ts says about it. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const file = path.join(import.meta.dirname, 'schema.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const db = interfaces.get('DB');
  if (!db) throw new Error('schema.ts has no DB interface');

  const snake = (name: string) => name.replace(/[A-Z]/gu, (c) => `_${c.toLowerCase()}`);
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of db.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) {
      throw new Error(`DB member ${member.getText(source)} is not "name: SomeTable"`);
    }
    const table = interfaces.get(member.type.typeName.getText(source));
    if (!table) throw new Error(`No interface ${member.type.typeName.getText(source)} in schema.ts`);
    const columns = new Map<string, DeclaredColumn>();
    for (const column of table.members) {
      if (!ts.isPropertySignature(column) || !column.type) continue;
      const nullable =
        ts.isUnionTypeNode(column.type) &&
        column.type.types.some((t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
      columns.set(snake(column.name.getText(source)), { nullable });
    }
    tables.set(snake(member.name.getText(source)), columns);
  }
  return tables;
}

describe('the DB interface as read by this test', () => {
  it('finds every table and column, with nullability', () => {
    const tables = declaredTables();
    expect(tables.get('users')?.get('email')).toEqual({ nullable: false });
    expect(tables.get('users')?.get('disabled_at')).toEqual({ nullable: true });
    expect(tables.get('jobs')?.get('singleton_key')).toEqual({ nullable: true });
    expect(tables.size).toBeGreaterThanOrEqual(14);
  });
});

describe.each(ENGINES)('database schema (%s)', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database.destroy();
  });

  async function actualColumns() {
    const { rows } = await sql<{ table: string; column: string; nullable: string }>`
      select c.table_name as "table", c.column_name as "column", c.is_nullable as nullable
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely%'`.execute(database.db);
    const tables = new Map<string, Map<string, { nullable: boolean }>>();
    for (const row of rows) {
      if (!tables.has(row.table)) tables.set(row.table, new Map());
      tables.get(row.table)!.set(row.column, { nullable: row.nullable === 'YES' });
    }
    return tables;
  }

  it('has every table and column schema.ts declares, nullable exactly where it says', async () => {
    const actual = await actualColumns();
    const problems: string[] = [];
    for (const [table, columns] of declaredTables()) {
      const present = actual.get(table);
      if (!present) {
        problems.push(`table ${table} is declared but no migration creates it`);
        continue;
      }
      for (const [column, declared] of columns) {
        const found = present.get(column);
        if (!found) problems.push(`${table}.${column} is declared but missing`);
        else if (found.nullable !== declared.nullable) {
          problems.push(`${table}.${column} is ${found.nullable ? 'nullable' : 'not null'} but declared ${declared.nullable ? 'nullable' : 'not null'}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no table or column that schema.ts does not declare', async () => {
    const declared = declaredTables();
    const extra: string[] = [];
    for (const [table, columns] of await actualColumns()) {
      const known = declared.get(table);
      if (!known) extra.push(`table ${table}`);
      else for (const column of columns.keys()) if (!known.has(column)) extra.push(`${table}.${column}`);
    }
    expect(extra).toEqual([]);
  });

  describe('constraints hold in the database, whatever the code does', () => {
    /** The SQLSTATE a statement fails with (run in a rolled-back transaction). */
    async function failureOf(statement: ReturnType<typeof sql>): Promise<string | undefined> {
      const rollback = new Error('rollback');
      try {
        await database.db.transaction().execute(async (trx) => {
          await statement.execute(trx);
          throw rollback;
        });
      } catch (error) {
        if (error === rollback) return undefined;
        const code = (error as { code?: unknown }).code;
        return typeof code === 'string' ? code : (error as Error).message;
      }
      return undefined;
    }

    const CHECK = '23514';
    const UNIQUE = '23505';
    const FOREIGN_KEY = '23503';
    const NOT_NULL = '23502';
    let userId: string;

    beforeAll(async () => {
      const { rows } = await sql<{ id: string }>`insert into users (full_name, email) values ('Con Straint', 'constraint@example.com') returning id`.execute(
        database.db,
      );
      userId = rows[0]!.id;
    });

    it.each([
      ['a role outside admin, manager, client', () => sql`insert into user_roles (user_id, role) values (${userId}, 'owner')`, CHECK],
      ['an e-mail that is not lower-case', () => sql`insert into users (full_name, email) values ('X', 'Upper@Example.com')`, CHECK],
      ['an e-mail longer than 254', () => sql`insert into users (full_name, email) values ('X', ${`${'a'.repeat(250)}@b.co`})`, CHECK],
      ['a second account with the same e-mail', () => sql`insert into users (full_name, email) values ('X', 'constraint@example.com')`, UNIQUE],
      ['a name longer than 100', () => sql`insert into users (full_name, email) values (${'n'.repeat(101)}, 'long-name@example.com')`, CHECK],
      ['a user without a name', () => sql`insert into users (full_name, email) values (null, 'no-name@example.com')`, NOT_NULL],
      ['a role for a user that does not exist', () => sql`insert into user_roles (user_id, role) values (gen_random_uuid(), 'client')`, FOREIGN_KEY],
      ['a session for a user that does not exist', () => sql`insert into sessions (user_id, token, expires_at) values (gen_random_uuid(), 't', now())`, FOREIGN_KEY],
      ['a job status outside the four', () => sql`insert into jobs (name, payload, status) values ('x', '{}', 'paused')`, CHECK],
      ['a job with no attempts allowed', () => sql`insert into jobs (name, payload, max_attempts) values ('x', '{}', 0)`, CHECK],
      ['an e-mail row with an unknown status', () => sql`insert into emails (kind, to_address, subject, text_body, status) values ('k', 'a@b.co', 's', 't', 'lost')`, CHECK],
      ['a negative failure count', () => sql`insert into login_attempts (email, failed_count) values ('neg@example.com', -1)`, CHECK],
      ['a security event severity outside info, warning, critical', () => sql`insert into security_events (type, severity) values ('x', 'fatal')`, CHECK],
      ['a client e-mail that is not lower-case', () => sql`insert into clients (company_name, email) values ('Acme', 'Sales@Acme.com')`, CHECK],
      ['a blank company name', () => sql`insert into clients (company_name) values ('   ')`, CHECK],
    ])('refuses %s', async (_what, statement, code) => {
      expect(await failureOf(statement())).toBe(code);
    });

    it('allows one pending job per singleton key, and another once the first is done', async () => {
      await sql`insert into jobs (name, payload, singleton_key) values ('single', '{}', 'k')`.execute(database.db);
      expect(await failureOf(sql`insert into jobs (name, payload, singleton_key) values ('single', '{}', 'k')`)).toBe(UNIQUE);
      await sql`update jobs set status = 'completed' where name = 'single'`.execute(database.db);
      expect(await failureOf(sql`insert into jobs (name, payload, singleton_key) values ('single', '{}', 'k')`)).toBeUndefined();
    });

    it('deleting a user deletes their sessions, accounts and role, and keeps role history authors as null', async () => {
      const { rows } = await sql<{ id: string }>`insert into users (full_name, email) values ('Gone', 'gone@example.com') returning id`.execute(database.db);
      const gone = rows[0]!.id;
      await sql`insert into sessions (user_id, token, expires_at) values (${gone}, 'gone-token', now())`.execute(database.db);
      await sql`insert into user_roles (user_id, role) values (${gone}, 'admin')`.execute(database.db);
      await sql`insert into role_changes (user_id, new_role, assigned_by) values (${userId}, 'client', ${gone})`.execute(database.db);
      await sql`delete from users where id = ${gone}`.execute(database.db);
      const left = await sql<{ n: number }>`
        select (select count(*) from sessions where user_id = ${gone})::int
             + (select count(*) from user_roles where user_id = ${gone})::int
             + (select count(*) from role_changes where assigned_by = ${gone})::int as n`.execute(database.db);
      expect(left.rows[0]?.n).toBe(0);
      const history = await sql<{ n: number }>`select count(*)::int as n from role_changes where user_id = ${userId} and assigned_by is null`.execute(database.db);
      expect(history.rows[0]?.n).toBe(1);
    });
  });
});
