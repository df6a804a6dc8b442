import { type Kysely, sql } from 'kysely';

/** Runs DDL statements one by one (the extended protocol takes one statement per query). */
export async function execAll(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
