/**
 * Room on each page of `conversation_service_levels` (issue 16 §7, docs/insights.md "Cost"),
 * owned by the insights module: a message in a conversation only adds to its row's counts
 * (0039), a change of no indexed column, which PostgreSQL can make in place on the same page (a
 * heap-only update: no new entry in the table's four indexes) only where the page has room. The
 * backfill fills pages completely by default; at 80 % a page keeps room for its rows' updates.
 * Applies to pages written from now on (the backfill's, new conversations'); `VACUUM FULL` would
 * rewrite the existing ones.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table conversation_service_levels set (fillfactor = 80)']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table conversation_service_levels reset (fillfactor)']);
}
