/**
 * Retention of the webhook delivery log (server/modules/hooks, docs/webhooks.md "Retention"):
 * deliveries that finished more than 30 days ago go, with their attempts. This partial index finds
 * them oldest first without scanning the log (deliveries still waiting have no finished_at).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [`create index webhook_deliveries_finished_idx on webhook_deliveries (finished_at) where finished_at is not null`]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop index webhook_deliveries_finished_idx']);
}
