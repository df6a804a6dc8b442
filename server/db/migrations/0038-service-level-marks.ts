/**
 * Service levels recomputed by mark (issue 16 §7, docs/insights.md "Kept current"), owned by the
 * insights module.
 *
 * - `service_level_marks`: one row per conversation whose service levels are due to be
 *   recomputed — marked by `parley_insights_mark` in the transaction of a new conversation or
 *   message (the event bus's `collect` subscriptions, in `parley_publish`), cleared by the
 *   `insights.recompute` job once it has recomputed the row in its own transaction. A message to a
 *   conversation already marked moves `version` on, so a recompute that read the mark before it
 *   leaves the mark for the next one (it clears only the version it read). No foreign key: a mark
 *   of a conversation deleted meanwhile is cleared by the next recompute, which finds nothing.
 *
 * Replaces one `insights.service-level` job per message (insert, claim, complete: three writes
 * to `jobs` and its indexes) by one small row per conversation and window.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table service_level_marks (
      conversation_id uuid primary key,
      version bigint not null default 0
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table service_level_marks']);
}
