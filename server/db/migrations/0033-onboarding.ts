/**
 * Onboarding (issue 17 §1, §3 "invite a user to a business"; docs/onboarding.md), owned by the
 * onboarding module.
 *
 * - `onboarding_requests`: what a business sent from `/client-signup` (the offer it chose and the
 *   Business Information form), who sent it when signed in (`user_id`), and the decision: approved
 *   (with the client it became, the template applied and what happened to the applicant's account)
 *   or declined (with the reason e-mailed). A request is decided once (`decided_at` set exactly when
 *   it is no longer pending).
 * - `onboarding_offer_templates`: which admin template each offer applies on approval (at most one
 *   per offer; none: the approval applies no template and says so).
 * - `client_invitations`: an e-mailed, single-use link that gives the person at `email` an account
 *   of `client_id`. Only the sha256 of the link's token is stored; resending replaces it (the old
 *   link stops working). At most one open invitation (neither accepted nor revoked) per client and
 *   address: inviting again renews it.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

const OFFERS = `('instagram-dm', 'facebook-leads', 'whatsapp-business')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table onboarding_requests (
      id uuid primary key default gen_random_uuid(),
      offer_id text not null check (offer_id in ${OFFERS}),
      business_name text not null check (length(business_name) between 1 and 200),
      contact_name text not null check (length(contact_name) between 1 and 100),
      email text not null check (length(email) between 3 and 254),
      phone text not null check (length(phone) between 1 and 30),
      industry text not null check (industry in ('restaurant', 'retail', 'healthcare', 'education', 'real-estate', 'other')),
      time_zone text not null default 'UTC' check (length(time_zone) between 1 and 64),
      user_id uuid references users (id) on delete set null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'declined')),
      decided_at timestamptz,
      decided_by uuid references users (id) on delete set null,
      decline_reason text check (length(decline_reason) <= 2000),
      client_id uuid references clients (id) on delete set null,
      template_id uuid,
      template_name text,
      automation_id uuid,
      account_outcome text check (account_outcome in ('linked', 'invited', 'not-linked')),
      created_at timestamptz not null default now(),
      check ((status = 'pending') = (decided_at is null)),
      check (status <> 'declined' or decline_reason is not null),
      check (status <> 'approved' or account_outcome is not null)
    )`,
    'create index onboarding_requests_status_idx on onboarding_requests (status, created_at desc)',
    'create index onboarding_requests_client_idx on onboarding_requests (client_id) where client_id is not null',
    'create index onboarding_requests_user_idx on onboarding_requests (user_id) where user_id is not null',
    `create table onboarding_offer_templates (
      offer_id text primary key check (offer_id in ${OFFERS}),
      template_id uuid not null references templates (id) on delete cascade,
      updated_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now()
    )`,
    `create table client_invitations (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      email text not null check (length(email) between 3 and 254),
      token_hash text not null unique check (length(token_hash) = 64),
      invited_by uuid references users (id) on delete set null,
      onboarding_request_id uuid references onboarding_requests (id) on delete set null,
      created_at timestamptz not null default now(),
      sent_at timestamptz not null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      accepted_user_id uuid references users (id) on delete set null,
      revoked_at timestamptz,
      check (accepted_at is null or revoked_at is null),
      check (expires_at > sent_at)
    )`,
    `create unique index client_invitations_open_idx on client_invitations (client_id, email) where accepted_at is null and revoked_at is null`,
    'create index client_invitations_client_idx on client_invitations (client_id, created_at desc)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table client_invitations', 'drop table onboarding_offer_templates', 'drop table onboarding_requests']);
}
