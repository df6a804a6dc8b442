/**
 * `parley_finish_send` (server/modules/messaging/messaging.sql.ts) now returns what it did as jsonb
 * — whether the message changed and the jobs its event's subscribers got claimed by the calling
 * instance (the public events' `events.record`, run there at once instead of queued, NOTIFYed and
 * claimed: issue 14 §8, the outbox's cost on the reply path) — instead of a boolean. A function's
 * return type cannot change by `create or replace`, so the old one is dropped here and the
 * routine source creates the new one (server/db/routines.ts).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop function if exists parley_finish_send(jsonb)']);
}

export async function down(): Promise<void> {
  // The routine source defines only the new function; going back means restoring an older build.
}
