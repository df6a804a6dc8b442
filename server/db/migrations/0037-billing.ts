/**
 * Billing (issue 17 §2; docs/billing.md), owned by the billing module.
 *
 * - `subscriptions`: one per client — the offer, its monthly price in minor units and currency
 *   copied from the offer when it started or last changed, and `started_at` ("active since").
 * - `invoice_counters`: per year of issue, the last invoice number given. Every invoice is inserted
 *   in a transaction that holds this row's lock and moves it on by exactly the invoices it inserts,
 *   so numbers have no gaps and no duplicates however many instances issue invoices at once.
 * - `invoices`: one per client and billing period (a calendar month, UTC; unique, so a rerun
 *   issues nothing twice), with its number, the days it covers, the line item, amount, what has
 *   been paid, due date and status (open → overdue → paid, or void). Kept when the client goes:
 *   a client with invoices cannot be deleted.
 * - `invoice_payments`: the cash payments administrators record against an invoice.
 * - `invoice_reminders`: one row per overdue invoice whose reminder went out, inserted in the
 *   transaction that queues the e-mails, so each invoice is reminded of once.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

const OFFERS = `('instagram-dm', 'facebook-leads', 'whatsapp-business')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table subscriptions (
      client_id uuid primary key references clients (id) on delete cascade,
      offer_id text not null check (offer_id in ${OFFERS}),
      price_minor integer not null check (price_minor > 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      started_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create table invoice_counters (
      year integer primary key check (year between 2000 and 9999),
      last_number integer not null default 0 check (last_number >= 0)
    )`,
    `create table invoices (
      id uuid primary key default gen_random_uuid(),
      number text not null unique check (number ~ '^PARLEY-[0-9]{4}-[0-9]{6,}$'),
      number_year integer not null references invoice_counters (year),
      number_seq integer not null check (number_seq > 0),
      client_id uuid not null references clients (id) on delete restrict,
      period text not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      period_start date not null,
      period_end date not null,
      offer_id text not null check (offer_id in ${OFFERS}),
      description text not null check (length(description) between 1 and 200),
      amount_minor integer not null check (amount_minor > 0),
      paid_minor integer not null default 0 check (paid_minor >= 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      issued_on date not null,
      due_on date not null,
      status text not null default 'open' check (status in ('open', 'overdue', 'paid', 'void')),
      overdue_at timestamptz,
      paid_at timestamptz,
      voided_at timestamptz,
      voided_by uuid references users (id) on delete set null,
      void_reason text check (length(void_reason) <= 500),
      created_at timestamptz not null default now(),
      unique (number_year, number_seq),
      unique (client_id, period),
      check (period_end >= period_start),
      check (due_on >= issued_on),
      check (paid_minor <= amount_minor),
      check ((status = 'paid') = (paid_at is not null)),
      check (status <> 'paid' or paid_minor = amount_minor),
      check ((status = 'void') = (voided_at is not null))
    )`,
    'create index invoices_client_idx on invoices (client_id, number_year desc, number_seq desc)',
    'create index invoices_status_idx on invoices (status, number_year desc, number_seq desc)',
    `create index invoices_due_idx on invoices (due_on) where status = 'open'`,
    `create table invoice_payments (
      id uuid primary key default gen_random_uuid(),
      invoice_id uuid not null references invoices (id) on delete restrict,
      amount_minor integer not null check (amount_minor > 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      paid_on date not null,
      note text check (length(note) <= 500),
      recorded_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now()
    )`,
    'create index invoice_payments_invoice_idx on invoice_payments (invoice_id, created_at)',
    `create table invoice_reminders (
      invoice_id uuid primary key references invoices (id) on delete cascade,
      recipients integer not null default 0 check (recipients >= 0),
      created_at timestamptz not null default now()
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table invoice_reminders', 'drop table invoice_payments', 'drop table invoices', 'drop table invoice_counters', 'drop table subscriptions']);
}
