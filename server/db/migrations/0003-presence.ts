/**
 * Presence for internal chats: when a signed-in user's realtime connection was last seen (written
 * on connect and, throttled, on heartbeats), so every instance agrees who is online.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table users add column last_seen_at timestamptz']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table users drop column last_seen_at']);
}
