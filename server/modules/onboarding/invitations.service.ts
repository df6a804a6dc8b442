/**
 * Invitations to a client business (issue 17 §3; docs/onboarding.md, "Invitations"). An
 * administrator invites an e-mail address to a client; the person gets a single-use link
 * (`/invite/<token>`, only the token's sha256 stored) that works for INVITATION_EXPIRY_DAYS days
 * and lets them set a name and a password — a client user's account of that business whose e-mail
 * counts as verified, since the link proved it. An address that already has a plain account (role
 * client, no business yet) is linked at once instead of invited. Resending gives the invitation a
 * new link (the old one stops working) and a new expiry; revoking ends it. Every change is one
 * transaction with its e-mail in the outbox.
 */
import {
  INVITATION_EXPIRY_DAYS,
  INVITATION_GONE_MESSAGES,
  INVITATION_UNKNOWN_MESSAGE,
  invitationPath,
  type InvitationAccepted,
  type InvitationSent,
  type InvitationStatus,
  type InvitationView,
  type PublicInvitationView,
} from '../../../common/api/onboarding';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/password-hash';
import { clientAccessEmail, clientInvitationEmail } from '../email';
import type { OnboardingAccount, OnboardingPorts } from './onboarding-ports';
import type { InvitationRecord, InvitationRow, OnboardingRepository } from './onboarding.repository';

export const INVITATION_EXPIRY_MS = INVITATION_EXPIRY_DAYS * 24 * 60 * 60_000;

const CLIENT_INACTIVE_MESSAGE = 'This business is not active on Parley at the moment, so the invitation cannot be used.';

export function invitationStatus(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): InvitationStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return new Date(row.expiresAt).getTime() <= now.getTime() ? 'expired' : 'pending';
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function toInvitationView(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    clientId: row.clientId,
    email: row.email,
    status: invitationStatus(row, now),
    invitedBy: row.inviterId ? { id: row.inviterId, name: row.inviterName ?? '' } : null,
    createdAt: new Date(row.createdAt).toISOString(),
    sentAt: new Date(row.sentAt).toISOString(),
    expiresAt: new Date(row.expiresAt).toISOString(),
    acceptedAt: iso(row.acceptedAt),
    acceptedBy: row.acceptorId ? { id: row.acceptorId, name: row.acceptorName ?? '' } : null,
    revokedAt: iso(row.revokedAt),
  };
}

/**
 * Whether an account may join `clientId`: a plain, enabled client-role account without a business
 * may (`linkable`, or `unverified` until its address is verified); staff accounts, disabled ones and
 * another business's users may not (`refused`, with a sentence saying why); `member` already is.
 */
export type Linkability =
  | { kind: 'linkable' }
  | { kind: 'member' }
  | { kind: 'unverified' }
  | { kind: 'refused'; reason: 'disabled' | 'staff_account' | 'other_client'; message: string };

export function linkability(account: OnboardingAccount, clientId: string): Linkability {
  if (account.disabledAt) return { kind: 'refused', reason: 'disabled', message: `${account.email} belongs to a disabled account` };
  if (account.role !== 'client') {
    return { kind: 'refused', reason: 'staff_account', message: `${account.email} belongs to a staff account (${account.role}), which sees every client already` };
  }
  if (account.clientId === clientId) return { kind: 'member' };
  if (account.clientId !== null) return { kind: 'refused', reason: 'other_client', message: `${account.email} belongs to a user of another business` };
  return account.emailVerified ? { kind: 'linkable' } : { kind: 'unverified' };
}

export interface InvitationsServiceDeps {
  db: Db;
  repository: OnboardingRepository;
  clock: Clock;
  /** The app's public address: links are `<publicUrl>/invite/<token>`. */
  publicUrl: string;
  ports: OnboardingPorts;
}

export class InvitationsService {
  constructor(private readonly deps: InvitationsServiceDeps) {}

  #url(path: string): string {
    return new URL(path, this.deps.publicUrl).toString();
  }

  async #clientOrThrow(clientId: string, db: Db = this.deps.db): Promise<{ name: string; status: 'active' | 'inactive' }> {
    const client = await this.deps.repository.findClient(clientId, db);
    if (!client) throw notFound('Client');
    return client;
  }

  /** The security log's record of an invitation e-mailed (invited, resent, or by an onboarding approval). */
  async #logSent(trx: Db, actor: SessionUser, details: { invitationId: string; clientId: string; client: string; email: string; resent: boolean; onboardingRequestId?: string }): Promise<void> {
    const { email, ...rest } = details;
    await this.deps.ports.securityEvent({ type: 'invitations.sent', userId: actor.id, email: actor.email, details: { ...rest, invited: email }, at: this.deps.clock.now() }, trx);
  }

  async #logAccepted(trx: Db, invitation: InvitationRecord, userId: string, outcome: 'created' | 'joined'): Promise<void> {
    await this.deps.ports.securityEvent(
      {
        type: 'invitations.accepted',
        userId,
        email: invitation.email,
        details: { invitationId: invitation.id, clientId: invitation.clientId, client: invitation.clientName, outcome },
        at: this.deps.clock.now(),
      },
      trx,
    );
  }

  async findInvitations(clientId: string): Promise<InvitationView[]> {
    await this.#clientOrThrow(clientId);
    const now = this.deps.clock.now();
    return (await this.deps.repository.findInvitations(clientId)).map((row) => toInvitationView(row, now));
  }

  async #view(id: string): Promise<InvitationView> {
    const row = await this.deps.repository.findInvitation(id);
    if (!row) throw notFound('Invitation');
    return toInvitationView(row, this.deps.clock.now());
  }

  /**
   * A link for the client's invitation of `email`, in `trx`: the open invitation (pending or
   * expired) gets a new token and expiry, else a new invitation is made. Its id and the link (the
   * token appears only there).
   */
  async issue(
    trx: Db,
    input: { clientId: string; email: string; invitedBy: string | null; onboardingRequestId: string | null },
  ): Promise<{ id: string; url: string }> {
    const now = this.deps.clock.now();
    const token = randomToken();
    const link = { tokenHash: sha256Hex(token), sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_EXPIRY_MS), invitedBy: input.invitedBy };
    const open = await this.deps.repository.lockOpenInvitation(input.clientId, input.email, trx);
    let id: string;
    if (open) {
      await this.deps.repository.renewInvitation(open.id, link, trx);
      id = open.id;
    } else {
      try {
        id = await this.deps.repository.insertInvitation({ clientId: input.clientId, email: input.email, onboardingRequestId: input.onboardingRequestId, ...link }, trx);
      } catch (error) {
        // Another administrator invited the same address to the same client at this moment.
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', `An invitation to ${input.email} was just sent. Refresh the list.`, { cause: error });
        throw error;
      }
    }
    return { id, url: this.#url(invitationPath(token)) };
  }

  /**
   * Invites `email` to the client (administrators). An address with a plain, verified account is
   * linked at once (recorded as an accepted invitation, the person told by e-mail); one that
   * belongs to staff, a disabled account, another business or this one already is refused (409).
   */
  async invite(actor: SessionUser, clientId: string, email: string): Promise<InvitationSent> {
    const { ports, repository } = this.deps;
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const client = await this.#clientOrThrow(clientId, trx);
      if (client.status === 'inactive') {
        throw new AppError('CONFLICT', 'This client is deactivated: reactivate it before inviting people', { details: { reason: 'client_inactive' } });
      }
      const account = await ports.lockAccount({ email }, trx);
      const link = account ? linkability(account, clientId) : undefined;
      if (link?.kind === 'member') {
        throw new AppError('CONFLICT', `${email} already has access to ${client.name}`, { fields: { email: 'This person already has access to this business' }, details: { reason: 'already_member' } });
      }
      if (link?.kind === 'refused') {
        throw new AppError('CONFLICT', `${link.message}, so it cannot join ${client.name}`, { fields: { email: link.message }, details: { reason: link.reason } });
      }
      if (account && link?.kind === 'linkable') {
        await ports.linkAccount(account.id, clientId, trx, { verifyEmail: false });
        const now = this.deps.clock.now();
        const open = await repository.lockOpenInvitation(clientId, email, trx);
        const id =
          open?.id ??
          (await repository.insertInvitation(
            // A row for the list ("accepted"); its token is never sent.
            { clientId, email, tokenHash: sha256Hex(randomToken()), invitedBy: actor.id, onboardingRequestId: null, sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_EXPIRY_MS) },
            trx,
          ));
        await repository.markInvitationAccepted(id, account.id, now, trx);
        await ports.securityEvent(
          { type: 'invitations.accepted', userId: account.id, email: account.email, details: { invitationId: id, clientId, client: client.name, addedBy: actor.email, outcome: 'linked' }, at: now },
          trx,
        );
        await ports.email(account.email, clientAccessEmail({ name: account.fullName || 'there', clientName: client.name, signInUrl: this.#url('/login') }), trx);
        return { id, outcome: 'linked' as const, message: `${email} already had a Parley account: it now belongs to ${client.name}, and we told them by e-mail.` };
      }
      const issued = await this.issue(trx, { clientId, email, invitedBy: actor.id, onboardingRequestId: null });
      await this.#logSent(trx, actor, { invitationId: issued.id, clientId, client: client.name, email, resent: false });
      await ports.email(email, clientInvitationEmail({ clientName: client.name, url: issued.url, expiresInDays: INVITATION_EXPIRY_DAYS, invitedBy: actor.name || null }), trx);
      return {
        id: issued.id,
        outcome: 'invited' as const,
        message:
          link?.kind === 'unverified'
            ? `Invitation sent to ${email}. This address has an account that is not verified yet: the link works once its owner verifies it.`
            : `Invitation sent to ${email}. The link works once, for ${INVITATION_EXPIRY_DAYS} days.`,
      };
    });
    return { outcome: result.outcome, message: result.message, invitation: await this.#view(result.id) };
  }

  /** A new link for a pending or expired invitation (the old link stops working), e-mailed again. */
  async resend(actor: SessionUser, id: string): Promise<InvitationView> {
    await this.deps.db.transaction().execute(async (trx) => {
      const invitation = await this.deps.repository.lockInvitation(id, trx);
      if (!invitation) throw notFound('Invitation');
      const status = invitationStatus(invitation, this.deps.clock.now());
      if (status === 'accepted') throw new AppError('CONFLICT', 'This invitation was already accepted', { details: { reason: 'accepted' } });
      if (status === 'revoked') {
        throw new AppError('CONFLICT', 'This invitation was revoked. Invite the address again to send a new link.', { details: { reason: 'revoked' } });
      }
      if (invitation.clientStatus === 'inactive') {
        throw new AppError('CONFLICT', 'This client is deactivated: reactivate it before inviting people', { details: { reason: 'client_inactive' } });
      }
      const issued = await this.issue(trx, { clientId: invitation.clientId, email: invitation.email, invitedBy: actor.id, onboardingRequestId: null });
      await this.#logSent(trx, actor, { invitationId: issued.id, clientId: invitation.clientId, client: invitation.clientName, email: invitation.email, resent: true });
      await this.deps.ports.email(
        invitation.email,
        clientInvitationEmail({ clientName: invitation.clientName, url: issued.url, expiresInDays: INVITATION_EXPIRY_DAYS, invitedBy: actor.name || null }),
        trx,
      );
    });
    return this.#view(id);
  }

  /** Ends a pending or expired invitation: its link stops working. Revoking twice changes nothing. */
  async revoke(actor: SessionUser, id: string): Promise<InvitationView> {
    await this.deps.db.transaction().execute(async (trx) => {
      const invitation = await this.deps.repository.lockInvitation(id, trx);
      if (!invitation) throw notFound('Invitation');
      const now = this.deps.clock.now();
      const status = invitationStatus(invitation, now);
      if (status === 'accepted') {
        throw new AppError('CONFLICT', 'This invitation was already accepted: the account it gave keeps its access', { details: { reason: 'accepted' } });
      }
      if (status === 'revoked') return;
      await this.deps.repository.markInvitationRevoked(id, now, trx);
      await this.deps.ports.securityEvent(
        {
          type: 'invitations.revoked',
          userId: actor.id,
          email: actor.email,
          details: { invitationId: id, clientId: invitation.clientId, client: invitation.clientName, invited: invitation.email },
          at: now,
        },
        trx,
      );
    });
    return this.#view(id);
  }

  // The invitation page (public: the link is the credential)

  /** 410 with the reason when the link can no longer be used. */
  #checkUsable(invitation: InvitationRecord): void {
    const status = invitationStatus(invitation, this.deps.clock.now());
    if (status !== 'pending') throw new AppError('GONE', INVITATION_GONE_MESSAGES[status], { details: { reason: status } });
    if (invitation.clientStatus === 'inactive') throw new AppError('GONE', CLIENT_INACTIVE_MESSAGE, { details: { reason: 'client_inactive' } });
  }

  async #find(token: string, trx?: Db): Promise<InvitationRecord> {
    const invitation = await this.deps.repository.findInvitationByTokenHash(sha256Hex(token), trx);
    if (!invitation) throw new AppError('NOT_FOUND', INVITATION_UNKNOWN_MESSAGE);
    return invitation;
  }

  /** What the page shows: the business and the address, and whether it asks for a password; or why the link is dead. */
  async publicView(token: string): Promise<PublicInvitationView> {
    const invitation = await this.#find(token);
    const status = invitationStatus(invitation, this.deps.clock.now());
    if (status !== 'pending') return { status, message: INVITATION_GONE_MESSAGES[status] };
    if (invitation.clientStatus === 'inactive') return { status: 'revoked', message: CLIENT_INACTIVE_MESSAGE };
    const account = await this.deps.ports.findAccountByEmail(invitation.email);
    return {
      status: 'pending',
      clientName: invitation.clientName,
      email: invitation.email,
      expiresAt: new Date(invitation.expiresAt).toISOString(),
      account: account ? 'existing' : 'new',
    };
  }

  /**
   * A new account from the link: the invitation's address, the name and password given, e-mail
   * verified, a client user of the business; the invitation used, in the same transaction. 409
   * when the address has an account by now (the page offers to join with it instead).
   */
  async accept(token: string, input: { name: string; password: string }): Promise<InvitationAccepted> {
    // Dead links are refused before the password's hash is computed (about 100 ms of CPU).
    this.#checkUsable(await this.#find(token));
    const passwordHash = await hashPassword(input.password);
    return this.deps.db.transaction().execute(async (trx) => {
      const invitation = await this.#find(token, trx);
      this.#checkUsable(invitation);
      if (await this.deps.ports.lockAccount({ email: invitation.email }, trx)) {
        throw new AppError('CONFLICT', 'An account with this e-mail already exists. Join with that account instead.', { details: { reason: 'account_exists' } });
      }
      const userId = await this.deps.ports.createAccount({ email: invitation.email, name: input.name, passwordHash, clientId: invitation.clientId }, trx);
      await this.deps.repository.markInvitationAccepted(invitation.id, userId, this.deps.clock.now(), trx);
      await this.#logAccepted(trx, invitation, userId, 'created');
      return {
        outcome: 'created' as const,
        email: invitation.email,
        clientName: invitation.clientName,
        message: `Your account is ready. Sign in with ${invitation.email} and your new password to open ${invitation.clientName}.`,
      };
    });
  }

  /** The address's existing account joins the business (it must be a plain, verified, enabled account). */
  async join(token: string): Promise<InvitationAccepted> {
    return this.deps.db.transaction().execute(async (trx) => {
      const invitation = await this.#find(token, trx);
      this.#checkUsable(invitation);
      const account = await this.deps.ports.lockAccount({ email: invitation.email }, trx);
      if (!account) {
        throw new AppError('CONFLICT', 'There is no account with this e-mail yet: set a name and a password to create one.', { details: { reason: 'no_account' } });
      }
      const link = linkability(account, invitation.clientId);
      if (link.kind === 'refused') throw new AppError('CONFLICT', `${link.message}, so it cannot join ${invitation.clientName}.`, { details: { reason: link.reason } });
      if (link.kind === 'unverified') {
        throw new AppError(
          'CONFLICT',
          'The account with this e-mail is not verified yet. Sign in to get a new verification link, verify your address, then open this invitation again.',
          { details: { reason: 'unverified' } },
        );
      }
      if (link.kind === 'linkable') await this.deps.ports.linkAccount(account.id, invitation.clientId, trx, { verifyEmail: false });
      await this.deps.repository.markInvitationAccepted(invitation.id, account.id, this.deps.clock.now(), trx);
      await this.#logAccepted(trx, invitation, account.id, 'joined');
      return {
        outcome: 'linked' as const,
        email: invitation.email,
        clientName: invitation.clientName,
        message: `Your account now belongs to ${invitation.clientName}. Sign in with your password to open its dashboard.`,
      };
    });
  }
}
