/**
 * SQL routines: database functions (and views) kept as source files beside the code that calls
 * them — `server/jobs/jobs.sql.ts`, `server/modules/messaging/messaging.sql.ts`… — rather than
 * frozen in the migration that first created them. A rule is edited in place and reviewed in its
 * module; `migrateToLatest` (./migrate.ts), after the migrations, applies every source whose
 * content changed since it was last applied (a sha256 of its statements, recorded in
 * `sql_routines`, migration 0010). Sources are passed in (`server/routines.ts` lists them): this
 * folder imports nothing from the modules.
 *
 * Rules:
 * - Every statement is `create or replace function …` or `create or replace view …`: applying a
 *   source twice changes nothing. Tables, indexes, data and drops belong in migrations;
 *   `defineSqlRoutines` and `applyRoutines` refuse anything else.
 * - `create or replace` cannot change a function's arguments or return type (nor a view's
 *   columns, other than by adding at the end). Such a change needs a migration that drops the old
 *   one first; the source file then holds the new definition. A source is also applied again
 *   when one of its functions or views is missing, so the migration's drop is enough.
 * - A routine lives in its source file only: a migration does not `create or replace` it (the
 *   source would not be applied again, its hash unchanged, and the migration's copy would stay).
 *   The migrations that created the first versions (0005, 0007, 0009) stay as they are: history,
 *   so that a database built from scratch goes through the same steps as an old one.
 * - Statements run in order, so a function may call one defined earlier in its own or an earlier
 *   source (PL/pgSQL resolves calls when they run, so the order only matters for SQL functions
 *   and views).
 *
 * Concurrent starts (several instances against one PostgreSQL) apply each changed source once:
 * one transaction per call, holding a transaction-scoped advisory lock keyed on the current
 * schema (tests run several schemas in one database), reads the recorded hashes only once it
 * holds the lock, applies and records. The one that waited then finds the new hashes and applies
 * nothing.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database';

/** One source file's routines: applied together, recorded under `name`. */
export interface SqlRoutines {
  /** Unique among the sources; the key of its row in `sql_routines` (e.g. 'messaging'). */
  readonly name: string;
  /** `create or replace function …` / `create or replace view …` statements, one per entry. */
  readonly statements: readonly string[];
}

const CREATE_OR_REPLACE = /^create\s+or\s+replace\s+(function|view)\s+(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_$]*)"?/iu;

/** The statement without leading whitespace and comments. */
function leading(statement: string): string {
  let rest = statement;
  for (;;) {
    const trimmed = rest.trimStart();
    if (trimmed.startsWith('--')) {
      const end = trimmed.indexOf('\n');
      rest = end < 0 ? '' : trimmed.slice(end + 1);
    } else if (trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/');
      rest = end < 0 ? '' : trimmed.slice(end + 2);
    } else {
      return trimmed;
    }
  }
}

/** The statement with its dollar-quoted bodies and quoted strings and names emptied. */
function outsideQuotes(statement: string): string {
  return statement.replace(/(\$[a-z_0-9]*\$)[\s\S]*?\1|'(?:[^']|'')*'|"(?:[^"]|"")*"/giu, "''");
}

interface RoutineObject {
  kind: 'function' | 'view';
  name: string;
}

/** What the statement creates, or an error naming the source and the statement. */
function parseStatement(source: string, index: number, statement: string): RoutineObject {
  const text = leading(statement);
  const match = CREATE_OR_REPLACE.exec(text);
  const refuse = (why: string) =>
    new Error(
      `SQL routines "${source}", statement ${index + 1}: ${why}. A routine file holds only "create or replace function" ` +
        `and "create or replace view" statements; tables, indexes, data and drops belong in a migration ` +
        `(server/db/migrations). Statement: ${text.slice(0, 80).replace(/\s+/gu, ' ')}…`,
    );
  if (!match) throw refuse('not a "create or replace function" or "create or replace view"');
  // One statement only: nothing may follow it (a ";" outside its quoted bodies would start another).
  if (outsideQuotes(text).replace(/;\s*$/u, '').includes(';')) throw refuse('more than one statement');
  return { kind: match[1]!.toLowerCase() as RoutineObject['kind'], name: match[2]!.toLowerCase() };
}

/** The functions and views a source creates; throws a clear error for any other statement. */
export function routineObjects(source: SqlRoutines): RoutineObject[] {
  if (!source.name) throw new Error('SQL routines need a name');
  return source.statements.map((statement, i) => parseStatement(source.name, i, statement));
}

/** Declares a source file's routines, checking its statements when the module loads. */
export function defineSqlRoutines(source: SqlRoutines): SqlRoutines {
  routineObjects(source);
  return source;
}

/** sha256 of the statements, each one's length first (no two lists share a hash). */
export function routinesHash(source: SqlRoutines): string {
  const hash = createHash('sha256');
  for (const statement of source.statements) hash.update(`${Buffer.byteLength(statement)}\n${statement}`);
  return hash.digest('hex');
}

/**
 * Applies each source whose hash differs from the recorded one (or that was never applied, or one
 * of whose functions or views is missing), in one transaction, and records the new hashes.
 * Returns the names of the sources applied. Run after the migrations (`sql_routines` is 0010's).
 */
export async function applyRoutines(db: Db, sources: readonly SqlRoutines[]): Promise<string[]> {
  const planned = sources.map((source) => ({ source, objects: routineObjects(source), hash: routinesHash(source) }));
  const names = new Set<string>();
  for (const { source } of planned) {
    if (names.has(source.name)) throw new Error(`Two SQL routine sources are named "${source.name}"`);
    names.add(source.name);
  }
  if (planned.length === 0) return [];

  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.parley_routines'))`.execute(trx);
    const rows = await trx.selectFrom('sqlRoutines').select(['name', 'hash']).execute();
    const recorded = new Map(rows.map((r) => [r.name, r.hash]));
    const { rows: present } = await sql<{ name: string }>`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()
      union all
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'v'`.execute(trx);
    const existing = new Set(present.map((r) => r.name));

    const applied: string[] = [];
    for (const { source, objects, hash } of planned) {
      if (recorded.get(source.name) === hash && objects.every((o) => existing.has(o.name))) continue;
      for (const statement of source.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('sqlRoutines')
        .values({ name: source.name, hash, appliedAt: sql<Date>`statement_timestamp()` })
        .onConflict((oc) => oc.column('name').doUpdateSet({ hash, appliedAt: sql<Date>`statement_timestamp()` }))
        .execute();
      applied.push(source.name);
    }
    return applied;
  });
}
