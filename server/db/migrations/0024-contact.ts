/**
 * Contact form, contact messages and the newsletter (issue 15; server/modules/contact,
 * docs/contact.md).
 *
 * - `contact_messages`: what a visitor sent, and who read it. No IP address is kept with a message.
 * - `contact_replies`: the e-mails Parley sent in answer, with the outbox row that carried each.
 * - `newsletter_subscribers`: double opt-in. Only sha256 hashes of the links' tokens are stored.
 * - `contact_rate_limits`: the public forms' per-IP counters, shared by every instance; the key is
 *   an HMAC of the IP (never the IP itself), and a row lives only while its window is recent.
 * - `emails.headers`: extra headers of an outgoing e-mail (List-Unsubscribe, Reply-To), kept until
 *   SMTP delivered it like its body (the email module).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table contact_messages (
      id uuid primary key default gen_random_uuid(),
      first_name text not null check (length(first_name) between 1 and 100),
      last_name text not null check (length(last_name) between 1 and 100),
      email text not null check (length(email) between 3 and 254),
      company text check (length(company) <= 200),
      message text not null check (length(message) between 1 and 5000),
      created_at timestamptz not null default now(),
      read_at timestamptz,
      read_by uuid references users (id) on delete set null
    )`,
    `create index contact_messages_created_idx on contact_messages (created_at desc, id desc)`,
    `create index contact_messages_unread_idx on contact_messages (created_at) where read_at is null`,
    `create table contact_replies (
      id uuid primary key default gen_random_uuid(),
      message_id uuid not null references contact_messages (id) on delete cascade,
      body text not null check (length(body) between 1 and 10000),
      sent_at timestamptz not null default now(),
      sent_by uuid references users (id) on delete set null,
      email_id uuid references emails (id) on delete set null
    )`,
    `create index contact_replies_message_idx on contact_replies (message_id, sent_at)`,
    `create table newsletter_subscribers (
      id uuid primary key default gen_random_uuid(),
      email text not null unique check (email = lower(email) and length(email) between 3 and 254),
      status text not null default 'pending' check (status in ('pending', 'subscribed', 'unsubscribed')),
      confirm_token_hash text unique check (confirm_token_hash ~ '^[0-9a-f]{64}$'),
      confirm_expires_at timestamptz,
      confirm_sent_at timestamptz,
      unsubscribe_token_hash text not null unique check (unsubscribe_token_hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null default now(),
      confirmed_at timestamptz,
      unsubscribed_at timestamptz,
      check ((confirm_token_hash is null) = (confirm_expires_at is null)),
      check (status <> 'subscribed' or confirmed_at is not null),
      check (status <> 'unsubscribed' or unsubscribed_at is not null)
    )`,
    `create index newsletter_subscribers_created_idx on newsletter_subscribers (created_at desc)`,
    `create table contact_rate_limits (
      key text primary key check (length(key) <= 100),
      window_started_at timestamptz not null,
      hits integer not null check (hits >= 0)
    )`,
    `create index contact_rate_limits_window_idx on contact_rate_limits (window_started_at)`,
    `alter table emails add column headers jsonb`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'alter table emails drop column headers',
    'drop table contact_rate_limits',
    'drop table newsletter_subscribers',
    'drop table contact_replies',
    'drop table contact_messages',
  ]);
}
