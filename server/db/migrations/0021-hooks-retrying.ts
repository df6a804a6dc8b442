/**
 * Outbound webhooks' catch-up after an outage (server/modules/hooks, docs/webhooks.md "Retries"):
 * when a delivery to a subscription succeeds, its deliveries still `retrying` (each waiting for its
 * backoff, up to an hour) are attempted at once. This partial index answers "has this
 * subscription any delivery retrying?" and finds them without scanning its history (the lane
 * index holds only deliveries of a conversation, and every pending one).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [`create index webhook_deliveries_retrying_idx on webhook_deliveries (subscription_id, next_attempt_at) where status = 'retrying'`]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop index webhook_deliveries_retrying_idx']);
}
