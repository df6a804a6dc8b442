/**
 * What the onboarding module needs from other modules, as interfaces `app.ts` fills in: the users
 * module (accounts: find, lock, link to a client, create), the clients module (create the
 * business), the workflows module (apply a template), the agents module (set up the agent), the
 * billing module (start the subscription), notifications, e-mail, and the public forms' per-IP
 * limit (the contact module's). Everything that takes `trx` runs in the caller's transaction.
 */
import type { BusinessHours } from '../../../common/api/agents';
import type { OfferId } from '../../../common/api/offers';
import type { Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import type { RenderedEmail } from '../email';
import type { SecurityEventInput } from '../security';

/** An account as onboarding sees one (UsersService's `UserWithRole`). */
export interface OnboardingAccount {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  clientId: string | null;
  emailVerified: boolean;
  disabledAt: Date | null;
}

/** An administrator told about a new request (UsersService.findRecipients). */
export interface OnboardingAlertRecipient {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: { emailNotifications: boolean };
}

export interface SubscriptionStarter {
  /** Starts the client's subscription to the offer (the billing module), in the caller's transaction `db`. */
  (db: Db, input: { clientId: string; offerId: OfferId; startedAt: Date }): Promise<void>;
}

export interface OnboardingPorts {
  /** Enabled administrators, with their e-mail preference. */
  admins(trx: Db): Promise<OnboardingAlertRecipient[]>;
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, trx: Db): Promise<unknown>;
  /** Stores the e-mail in the outbox and queues its delivery, in `trx`; the outbox id. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<string>;
  /** Counts one submission of the public form from `ip`; throws RATE_LIMITED past the limit. */
  limitSubmission(ip: string): Promise<void>;

  findAccountByEmail(email: string): Promise<OnboardingAccount | undefined>;
  /** The account with this id or e-mail, its row locked until `trx` ends. */
  lockAccount(filter: { id: string } | { email: string }, trx: Db): Promise<OnboardingAccount | undefined>;
  /** Makes a plain account (role client, no client) a user of the client; `verifyEmail` when a link proved the address. */
  linkAccount(userId: string, clientId: string, trx: Db, options: { verifyEmail: boolean }): Promise<void>;
  /** A verified client-user account of `clientId`; its id (CONFLICT when the address is taken). */
  createAccount(input: { email: string; name: string; passwordHash: string; clientId: string }, trx: Db): Promise<string>;

  /** A client business; its id. */
  createClient(trx: Db, input: { companyName: string; contactPerson: string; email: string; phone: string }): Promise<string>;
  /** Assigns the template to the client, creating its automation (the workflows module's assignment). */
  applyTemplate(trx: Db, input: { templateId: string; clientId: string; assignedBy: string }): Promise<{ templateName: string; automationId: string }>;
  /** Sets up the client's AI agent (the agents module's configuration). */
  setUpAgent(trx: Db, clientId: string, settings: { businessHours: BusinessHours }): Promise<void>;
  /** Absent when this server runs without billing: the approval then says no subscription was started. */
  startSubscription?: SubscriptionStarter | undefined;
  /** Records a security (audit) log event in `trx`: requests decided, invitations sent, accepted, revoked. */
  securityEvent(event: SecurityEventInput, trx: Db): Promise<void>;
}
