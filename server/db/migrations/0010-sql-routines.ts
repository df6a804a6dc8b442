/**
 * SQL routines as source files (issue 11): the hot-path functions live beside their services
 * (`*.sql.ts`) and `migrateToLatest` applies a file again whenever its content changes
 * (server/db/routines.ts). This table records, per source file, the hash of what was applied.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table sql_routines (
      name text primary key,
      hash text not null,
      applied_at timestamptz not null
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table sql_routines']);
}
