/**
 * Foundation: accounts and sessions (the tables better-auth reads and writes, in snake_case),
 * roles, the lockout ledger, security events, the e-mail outbox, notifications, background jobs
 * and the first slice of clients. Constraints live here, not only in forms.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table app_settings (
      key text primary key check (length(key) between 1 and 100),
      value text not null,
      created_at timestamptz not null default now()
    )`,

    `create table clients (
      id uuid primary key default gen_random_uuid(),
      company_name text not null check (length(btrim(company_name)) between 1 and 200),
      contact_person text check (contact_person is null or length(contact_person) <= 200),
      email text check (email is null or (length(email) <= 254 and email = lower(email))),
      phone text check (phone is null or length(phone) <= 50),
      status text not null default 'active' check (status in ('active', 'inactive')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,

    // better-auth "user" model (renamed fields: name -> full_name, image -> avatar_url).
    `create table users (
      id uuid primary key default gen_random_uuid(),
      full_name text not null check (length(full_name) <= 100),
      email text not null unique check (length(email) between 3 and 254 and email = lower(email)),
      email_verified boolean not null default false,
      avatar_url text check (avatar_url is null or length(avatar_url) <= 2048),
      phone text check (phone is null or length(phone) <= 50),
      company text check (company is null or length(company) <= 200),
      two_factor_enabled boolean not null default false,
      client_id uuid references clients (id) on delete set null,
      notification_preferences jsonb not null default '{"emailNotifications": true, "messageAlerts": true, "weeklyReports": false, "securityAlerts": true}'::jsonb,
      last_login_at timestamptz,
      disabled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index users_client_id_idx on users (client_id)`,

    `create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token text not null unique,
      expires_at timestamptz not null,
      ip_address text,
      user_agent text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index sessions_user_id_idx on sessions (user_id)`,

    `create table accounts (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      account_id text not null,
      provider_id text not null,
      access_token text,
      refresh_token text,
      id_token text,
      access_token_expires_at timestamptz,
      refresh_token_expires_at timestamptz,
      scope text,
      password text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (provider_id, account_id)
    )`,
    `create index accounts_user_id_idx on accounts (user_id)`,

    // Reset, verification and OAuth-state tokens; identifiers are stored hashed.
    `create table verifications (
      id uuid primary key default gen_random_uuid(),
      identifier text not null,
      value text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index verifications_identifier_idx on verifications (identifier)`,

    `create table two_factors (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      secret text not null,
      backup_codes text not null,
      verified boolean,
      failed_verification_count integer,
      locked_until timestamptz
    )`,
    `create index two_factors_user_id_idx on two_factors (user_id)`,
    `create index two_factors_secret_idx on two_factors (secret)`,

    // Spec "user role record": user_id, role, assigned_by. One row per user.
    `create table user_roles (
      user_id uuid primary key references users (id) on delete cascade,
      role text not null check (role in ('admin', 'manager', 'client')),
      assigned_by uuid references users (id) on delete set null,
      assigned_at timestamptz not null default now()
    )`,
    `create index user_roles_role_idx on user_roles (role)`,

    // Every role assignment, the first included.
    `create table role_changes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      old_role text check (old_role in ('admin', 'manager', 'client')),
      new_role text not null check (new_role in ('admin', 'manager', 'client')),
      assigned_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now()
    )`,
    `create index role_changes_user_id_idx on role_changes (user_id, created_at)`,

    // Lockout ledger per e-mail (spec "login attempt record", kept in the database).
    `create table login_attempts (
      email text primary key check (length(email) <= 254),
      failed_count integer not null default 0 check (failed_count >= 0),
      window_started_at timestamptz,
      last_failed_at timestamptz,
      locked_until timestamptz,
      severity integer not null default 0 check (severity >= 0),
      updated_at timestamptz not null default now()
    )`,

    `create table security_events (
      id uuid primary key default gen_random_uuid(),
      type text not null check (length(type) between 1 and 64),
      severity text not null default 'info' check (severity in ('info', 'warning', 'critical')),
      user_id uuid references users (id) on delete set null,
      email text,
      ip_address text,
      user_agent text,
      details jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    )`,
    `create index security_events_created_at_idx on security_events (created_at desc)`,

    `create table emails (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (length(kind) between 1 and 64),
      to_address text not null check (length(to_address) <= 254),
      subject text not null check (length(subject) <= 500),
      text_body text not null,
      html_body text,
      status text not null default 'queued' check (status in ('queued', 'sent', 'stored', 'failed')),
      transport text check (transport in ('smtp', 'outbox')),
      attempts integer not null default 0,
      last_error text,
      provider_message_id text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    )`,
    `create index emails_created_at_idx on emails (created_at desc)`,

    `create table notifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      kind text not null check (length(kind) between 1 and 64),
      title text not null check (length(title) between 1 and 200),
      body text,
      link text check (link is null or length(link) <= 2048),
      read_at timestamptz,
      created_at timestamptz not null default now()
    )`,
    `create index notifications_user_created_idx on notifications (user_id, created_at desc)`,
    `create index notifications_unread_idx on notifications (user_id) where read_at is null`,

    `create table jobs (
      id bigint generated always as identity primary key,
      name text not null check (length(name) between 1 and 100),
      payload jsonb not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      max_attempts integer not null default 5 check (max_attempts >= 1),
      run_at timestamptz not null default now(),
      locked_until timestamptz,
      locked_by text,
      last_error text,
      singleton_key text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    )`,
    `create index jobs_ready_idx on jobs (run_at, id) where status = 'queued'`,
    `create index jobs_lease_idx on jobs (locked_until) where status = 'running'`,
    `create unique index jobs_singleton_idx on jobs (name, singleton_key)
      where singleton_key is not null and status in ('queued', 'running')`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'drop table jobs',
    'drop table notifications',
    'drop table emails',
    'drop table security_events',
    'drop table login_attempts',
    'drop table role_changes',
    'drop table user_roles',
    'drop table two_factors',
    'drop table verifications',
    'drop table accounts',
    'drop table sessions',
    'drop table users',
    'drop table clients',
    'drop table app_settings',
  ]);
}
