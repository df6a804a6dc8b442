/**
 * Admin Settings that act (issue 17 §3; docs/admin-settings.md).
 *
 * - `error_alerts` (the notifications module's): one row per cause (`job:<name>`,
 *   `webhook:<subscription id>`) and UTC day (`YYYY-MM-DD`) an error alert went out, inserted in
 *   the transaction that tells the administrators, so a cause is alerted at most once a day
 *   whatever the number of checks or instances.
 * - The security log's audit-log filters: by type and by user, newest first.
 *
 * The Security tab's settings live in `app_settings` (`security_settings`) and the notification
 * switches in `users.notification_preferences`: neither needs a column.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table error_alerts (
      cause text not null check (length(cause) between 1 and 200),
      day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      title text not null check (length(title) between 1 and 200),
      created_at timestamptz not null default now(),
      primary key (cause, day)
    )`,
    'create index error_alerts_day_idx on error_alerts (day)',
    'create index security_events_type_created_idx on security_events (type, created_at desc)',
    'create index security_events_user_created_idx on security_events (user_id, created_at desc)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop index security_events_user_created_idx', 'drop index security_events_type_created_idx', 'drop table error_alerts']);
}
