/**
 * The onboarding module's tables: `onboarding_requests`, `onboarding_offer_templates` and
 * `client_invitations` (0033). Views join `users` (the applicant's, the decider's, the inviter's
 * names), `clients` (the client's name and status) and `templates` (a mapped template's name).
 */
import { sql } from 'kysely';
import type { OfferId } from '../../../common/api/offers';
import type { Db } from '../../db/database';
import type { ClientStatus, OnboardingAccountOutcome, OnboardingRequestsTable, OnboardingRequestStatus, WorkflowStatus } from '../../db/schema';

export type NewOnboardingRequest = Pick<
  OnboardingRequestsTable,
  'offerId' | 'businessName' | 'contactName' | 'email' | 'phone' | 'industry' | 'userId'
> & { timeZone: string; createdAt: Date };

/** A request as the service decides on it (locked). */
export interface OnboardingRequestRecord {
  id: string;
  offerId: OfferId;
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  industry: NewOnboardingRequest['industry'];
  timeZone: string;
  userId: string | null;
  status: OnboardingRequestStatus;
}

function requestViewsQuery(db: Db) {
  return db
    .selectFrom('onboardingRequests as r')
    .leftJoin('users as applicant', 'applicant.id', 'r.userId')
    .leftJoin('users as decider', 'decider.id', 'r.decidedBy')
    .leftJoin('clients as c', 'c.id', 'r.clientId')
    .select([
      'r.id',
      'r.offerId',
      'r.businessName',
      'r.contactName',
      'r.email',
      'r.phone',
      'r.industry',
      'r.timeZone',
      'r.status',
      'r.createdAt',
      'r.decidedAt',
      'r.declineReason',
      'r.templateId',
      'r.templateName',
      'r.accountOutcome',
      'applicant.id as applicantId',
      'applicant.fullName as applicantName',
      'applicant.email as applicantEmail',
      'decider.id as deciderId',
      'decider.fullName as deciderName',
      'decider.email as deciderEmail',
      'c.id as clientId',
      'c.companyName as clientName',
    ]);
}

export type OnboardingRequestRow = Awaited<ReturnType<ReturnType<typeof requestViewsQuery>['executeTakeFirstOrThrow']>>;

function invitationViewsQuery(db: Db) {
  return db
    .selectFrom('clientInvitations as i')
    .leftJoin('users as inviter', 'inviter.id', 'i.invitedBy')
    .leftJoin('users as acceptor', 'acceptor.id', 'i.acceptedUserId')
    .select([
      'i.id',
      'i.clientId',
      'i.email',
      'i.createdAt',
      'i.sentAt',
      'i.expiresAt',
      'i.acceptedAt',
      'i.revokedAt',
      'inviter.id as inviterId',
      'inviter.fullName as inviterName',
      'acceptor.id as acceptorId',
      'acceptor.fullName as acceptorName',
    ]);
}

export type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationViewsQuery>['executeTakeFirstOrThrow']>>;

/** An invitation as the service decides on it (locked), with its client. */
export interface InvitationRecord {
  id: string;
  clientId: string;
  email: string;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  clientName: string;
  clientStatus: ClientStatus;
}

/** The most requests the admin list shows (the newest; older ones stay stored). */
export const REQUEST_LIST_LIMIT = 500;

export class OnboardingRepository {
  constructor(private readonly db: Db) {}

  // Requests

  async insertRequest(request: NewOnboardingRequest, db: Db = this.db): Promise<string> {
    const { id } = await db.insertInto('onboardingRequests').values(request).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Newest first, at most REQUEST_LIST_LIMIT. */
  async findRequests(status: OnboardingRequestStatus | 'all'): Promise<OnboardingRequestRow[]> {
    let query = requestViewsQuery(this.db);
    if (status !== 'all') query = query.where('r.status', '=', status);
    return query.orderBy('r.createdAt', 'desc').orderBy('r.id', 'desc').limit(REQUEST_LIST_LIMIT).execute();
  }

  async countRequests(): Promise<Record<OnboardingRequestStatus, number>> {
    const rows = await this.db
      .selectFrom('onboardingRequests')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute();
    const counts: Record<OnboardingRequestStatus, number> = { pending: 0, approved: 0, declined: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  async findRequest(id: string, db: Db = this.db): Promise<OnboardingRequestRow | undefined> {
    return requestViewsQuery(db).where('r.id', '=', id).executeTakeFirst();
  }

  /** The request, locked until `trx` ends: two administrators deciding at once are taken in turn. */
  async lockRequest(id: string, trx: Db): Promise<OnboardingRequestRecord | undefined> {
    return trx
      .selectFrom('onboardingRequests')
      .select(['id', 'offerId', 'businessName', 'contactName', 'email', 'phone', 'industry', 'timeZone', 'userId', 'status'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }

  async markApproved(
    id: string,
    decision: {
      decidedAt: Date;
      decidedBy: string;
      clientId: string;
      templateId: string | null;
      templateName: string | null;
      automationId: string | null;
      accountOutcome: OnboardingAccountOutcome;
    },
    trx: Db,
  ): Promise<void> {
    await trx
      .updateTable('onboardingRequests')
      .set({ status: 'approved', ...decision })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  async markDeclined(id: string, decision: { decidedAt: Date; decidedBy: string; declineReason: string }, trx: Db): Promise<void> {
    await trx
      .updateTable('onboardingRequests')
      .set({ status: 'declined', ...decision })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** The offer of the client's approved request (the newest, should there be several), with when it was approved. */
  async offerOf(clientId: string): Promise<{ offerId: OfferId; approvedAt: Date; templateName: string | null } | undefined> {
    const row = await this.db
      .selectFrom('onboardingRequests')
      .select(['offerId', 'decidedAt', 'templateName'])
      .where('clientId', '=', clientId)
      .where('status', '=', 'approved')
      .orderBy('decidedAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.decidedAt ? { offerId: row.offerId, approvedAt: row.decidedAt, templateName: row.templateName } : undefined;
  }

  // Offer → template

  async findOfferTemplates(): Promise<{ offerId: OfferId; templateId: string; templateName: string; templateStatus: WorkflowStatus }[]> {
    return this.db
      .selectFrom('onboardingOfferTemplates as o')
      .innerJoin('templates as t', 't.id', 'o.templateId')
      .select(['o.offerId', 'o.templateId', 't.name as templateName', 't.status as templateStatus'])
      .execute();
  }

  /** The template mapped to the offer, read in `db` (the approval's transaction). */
  async findOfferTemplateId(offerId: OfferId, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('onboardingOfferTemplates').select('templateId').where('offerId', '=', offerId).executeTakeFirst();
    return row?.templateId;
  }

  async templateExists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('templates').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async setOfferTemplate(offerId: OfferId, templateId: string | null, updatedBy: string, at: Date): Promise<void> {
    if (templateId === null) {
      await this.db.deleteFrom('onboardingOfferTemplates').where('offerId', '=', offerId).execute();
      return;
    }
    await this.db
      .insertInto('onboardingOfferTemplates')
      .values({ offerId, templateId, updatedBy, updatedAt: at })
      .onConflict((oc) => oc.column('offerId').doUpdateSet({ templateId, updatedBy, updatedAt: at }))
      .execute();
  }

  // Clients (read)

  async findClient(id: string, db: Db = this.db): Promise<{ name: string; status: ClientStatus } | undefined> {
    const row = await db.selectFrom('clients').select(['companyName', 'status']).where('id', '=', id).executeTakeFirst();
    return row ? { name: row.companyName, status: row.status } : undefined;
  }

  // Invitations

  async findInvitations(clientId: string): Promise<InvitationRow[]> {
    return invitationViewsQuery(this.db).where('i.clientId', '=', clientId).orderBy('i.createdAt', 'desc').orderBy('i.id', 'desc').execute();
  }

  async findInvitation(id: string, db: Db = this.db): Promise<InvitationRow | undefined> {
    return invitationViewsQuery(db).where('i.id', '=', id).executeTakeFirst();
  }

  #invitationRecords(db: Db) {
    return db
      .selectFrom('clientInvitations as i')
      .innerJoin('clients as c', 'c.id', 'i.clientId')
      .select(['i.id', 'i.clientId', 'i.email', 'i.expiresAt', 'i.acceptedAt', 'i.revokedAt', 'c.companyName as clientName', 'c.status as clientStatus']);
  }

  /** The invitation, locked until `trx` ends. */
  async lockInvitation(id: string, trx: Db): Promise<InvitationRecord | undefined> {
    return this.#invitationRecords(trx).where('i.id', '=', id).forUpdate('i').executeTakeFirst();
  }

  /** The invitation whose link carries the token with this sha256 (locked until `trx` ends when given one). */
  async findInvitationByTokenHash(tokenHash: string, trx?: Db): Promise<InvitationRecord | undefined> {
    const query = this.#invitationRecords(trx ?? this.db).where('i.tokenHash', '=', tokenHash);
    return trx ? query.forUpdate('i').executeTakeFirst() : query.executeTakeFirst();
  }

  /** The open invitation (neither accepted nor revoked) of the client for the address, locked until `trx` ends. */
  async lockOpenInvitation(clientId: string, email: string, trx: Db): Promise<InvitationRecord | undefined> {
    return this.#invitationRecords(trx)
      .where('i.clientId', '=', clientId)
      .where('i.email', '=', email)
      .where('i.acceptedAt', 'is', null)
      .where('i.revokedAt', 'is', null)
      .forUpdate('i')
      .executeTakeFirst();
  }

  async insertInvitation(
    invitation: { clientId: string; email: string; tokenHash: string; invitedBy: string | null; onboardingRequestId: string | null; sentAt: Date; expiresAt: Date },
    trx: Db,
  ): Promise<string> {
    const { id } = await trx
      .insertInto('clientInvitations')
      .values({ ...invitation, createdAt: invitation.sentAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** A new link for the invitation: the old token's hash is replaced, so the old link stops working. */
  async renewInvitation(id: string, renewal: { tokenHash: string; sentAt: Date; expiresAt: Date; invitedBy: string | null }, trx: Db): Promise<void> {
    await trx.updateTable('clientInvitations').set(renewal).where('id', '=', id).execute();
  }

  async markInvitationAccepted(id: string, userId: string, at: Date, trx: Db): Promise<void> {
    await trx.updateTable('clientInvitations').set({ acceptedAt: at, acceptedUserId: userId }).where('id', '=', id).execute();
  }

  async markInvitationRevoked(id: string, at: Date, trx: Db): Promise<void> {
    await trx.updateTable('clientInvitations').set({ revokedAt: at }).where('id', '=', id).execute();
  }
}
