/**
 * Onboarding requests (issue 17 §1; spec part 2 "AI template onboarding"; docs/onboarding.md).
 *
 * - A visitor's request from `/client-signup` is stored before they are answered, in one
 *   transaction with the confirmation e-mail to the applicant (contact within 24 hours), an in-app
 *   notification to every administrator and an e-mail to those who take e-mail. A signed-in
 *   visitor's request carries their account. Limited per IP; a bot's (honeypot, too fast) is
 *   answered like any other and not stored.
 * - Approving is one transaction under the request's row lock (two administrators at once: one
 *   client, the other gets 409): the client from the form, the applicant's account linked to it (or
 *   an invitation to the address), the subscription started (billing), the offer's mapped template
 *   applied (its automation created), the AI agent set up with the spec's default business hours,
 *   the applicant e-mailed. Declining records the reason and e-mails it.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { BusinessHours } from '../../../common/api/agents';
import { findOffer, TEMPLATE_OFFERS, type OfferId, type TemplateOffer } from '../../../common/api/offers';
import {
  INDUSTRY_LABELS,
  INVITATION_EXPIRY_DAYS,
  ONBOARDING_MIN_FILL_MS,
  ONBOARDING_REQUESTS_PAGE,
  type AccountOutcome,
  type ApprovalOutcome,
  type OfferTemplateView,
  type onboardingRequestInput,
  type OnboardingRequestsResponse,
  type OnboardingRequestStatus,
  type OnboardingRequestView,
} from '../../../common/api/onboarding';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { clientInvitationEmail, onboardingApprovedEmail, onboardingDeclinedEmail, onboardingReceivedEmail, onboardingRequestAdminEmail } from '../email';
import { type InvitationsService, linkability } from './invitations.service';
import type { OnboardingAccount, OnboardingPorts } from './onboarding-ports';
import type { OnboardingRepository, OnboardingRequestRecord, OnboardingRequestRow } from './onboarding.repository';

export type OnboardingSubmission = z.output<typeof onboardingRequestInput>;

/** The spec's default business hours (part 2 §9): Mon–Fri 9:00 AM–6:00 PM, Sat 10:00 AM–4:00 PM, Sun closed. */
export const DEFAULT_BUSINESS_DAYS: BusinessHours['days'] = [
  ...[1, 2, 3, 4, 5].map((day) => ({ day, open: '09:00', close: '18:00' })),
  { day: 6, open: '10:00', close: '16:00' },
];

export function defaultBusinessHours(timeZone: string): BusinessHours {
  return { timezone: timeZone, days: DEFAULT_BUSINESS_DAYS.map((d) => ({ ...d })) };
}

/** The time zone a request without one (or with one this server does not know) is set up in. */
export const DEFAULT_TIME_ZONE = 'UTC';

const EXCERPT_LENGTH = 200;

/**
 * Why a submission is dropped as a bot's, or null: the honeypot is filled, or the form came back
 * sooner than ONBOARDING_MIN_FILL_MS after the page showed it (a page clock ahead of the server's
 * is not held against the visitor).
 */
export function spamReason(input: { website?: string | undefined; shownAt?: number | undefined }, now: Date): 'honeypot' | 'too-fast' | null {
  if (input.website !== undefined && input.website.trim() !== '') return 'honeypot';
  if (input.shownAt !== undefined) {
    const elapsed = now.getTime() - input.shownAt;
    if (elapsed >= 0 && elapsed < ONBOARDING_MIN_FILL_MS) return 'too-fast';
  }
  return null;
}

function offerOrThrow(id: string): TemplateOffer {
  const offer = findOffer(id);
  if (!offer) throw new AppError('INTERNAL', `Unknown offer ${id}`);
  return offer;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function toRequestView(row: OnboardingRequestRow): OnboardingRequestView {
  const offer = offerOrThrow(row.offerId);
  return {
    id: row.id,
    offerId: row.offerId,
    offerName: offer.name,
    priceText: offer.priceText,
    businessName: row.businessName,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    industry: row.industry,
    timeZone: row.timeZone,
    applicant: row.applicantId ? { id: row.applicantId, name: row.applicantName ?? '', email: row.applicantEmail ?? '' } : null,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    decidedAt: iso(row.decidedAt),
    decidedBy: row.deciderId ? { id: row.deciderId, name: row.deciderName ?? '', email: row.deciderEmail ?? '' } : null,
    declineReason: row.declineReason,
    client: row.clientId ? { id: row.clientId, name: row.clientName ?? '' } : null,
    template: row.templateId && row.templateName !== null ? { id: row.templateId, name: row.templateName } : null,
    accountOutcome: row.accountOutcome,
  };
}

export interface OnboardingServiceDeps {
  db: Db;
  repository: OnboardingRepository;
  invitations: InvitationsService;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  ports: OnboardingPorts;
}

/** What the approval did with the applicant's account. */
interface AccountResult {
  outcome: AccountOutcome;
  message: string;
}

export class OnboardingService {
  constructor(private readonly deps: OnboardingServiceDeps) {}

  /** A page's public address; with `email`, `?email=` fills the sign-in or sign-up form's Email field. */
  #url(path: string, email?: string): string {
    const url = new URL(path, this.deps.publicUrl);
    if (email !== undefined) url.searchParams.set('email', email);
    return url.toString();
  }

  /**
   * A request from `/client-signup`; `user` is the signed-in visitor, if any. Counted against the
   * IP's limit first (429 past it). `stored` is for logs and tests: the visitor's answer never
   * depends on it.
   */
  async submit(input: OnboardingSubmission, meta: { ip: string; user: SessionUser | null }): Promise<{ stored: boolean }> {
    const { ports } = this.deps;
    await ports.limitSubmission(meta.ip);
    const now = this.deps.clock.now();
    const spam = spamReason(input, now);
    if (spam) {
      this.deps.logger.info({ reason: spam }, 'onboarding request dropped as spam');
      return { stored: false };
    }
    const offer = offerOrThrow(input.offerId);
    // What the confirmation offers meanwhile: nothing when the request carries an account, else
    // signing in (the address has an account) or creating one with this address.
    const existing = meta.user ? undefined : await ports.findAccountByEmail(input.email);
    const account = meta.user
      ? ({ kind: 'linked' } as const)
      : existing
        ? ({ kind: 'existing', signInUrl: this.#url('/login', input.email) } as const)
        : ({ kind: 'none', registerUrl: this.#url('/register', input.email), email: input.email } as const);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.repository.insertRequest(
        {
          offerId: offer.id,
          businessName: input.businessName,
          contactName: input.contactName,
          email: input.email,
          phone: input.phone,
          industry: input.industry,
          timeZone: input.timeZone ?? DEFAULT_TIME_ZONE,
          userId: meta.user?.id ?? null,
          createdAt: now,
        },
        trx,
      );
      await ports.email(
        input.email,
        onboardingReceivedEmail({ contactName: input.contactName, businessName: input.businessName, offerName: offer.name, priceText: offer.priceText, account }),
        trx,
      );
      const title = `New onboarding request: ${input.businessName}`.slice(0, 200);
      const body = `${input.contactName} asked for ${offer.name} (${INDUSTRY_LABELS[input.industry]}).`.slice(0, EXCERPT_LENGTH);
      for (const admin of await ports.admins(trx)) {
        await ports.notify(admin.id, { kind: 'onboarding.request', title, body, link: ONBOARDING_REQUESTS_PAGE }, trx);
        if (admin.notificationPreferences.emailNotifications) {
          await ports.email(
            admin.email,
            onboardingRequestAdminEmail(admin.fullName || 'there', {
              businessName: input.businessName,
              contactName: input.contactName,
              email: input.email,
              phone: input.phone,
              industry: INDUSTRY_LABELS[input.industry],
              offerName: offer.name,
              url: this.#url(ONBOARDING_REQUESTS_PAGE),
            }),
            trx,
          );
        }
      }
    });
    return { stored: true };
  }

  async findRequests(status: OnboardingRequestStatus | 'all'): Promise<OnboardingRequestsResponse> {
    const [rows, counts] = await Promise.all([this.deps.repository.findRequests(status), this.deps.repository.countRequests()]);
    return { requests: rows.map(toRequestView), counts };
  }

  async getRequest(id: string): Promise<OnboardingRequestView> {
    const row = await this.deps.repository.findRequest(id);
    if (!row) throw notFound('Request');
    return toRequestView(row);
  }

  async #lockPending(id: string, trx: Db): Promise<OnboardingRequestRecord> {
    const request = await this.deps.repository.lockRequest(id, trx);
    if (!request) throw notFound('Request');
    if (request.status !== 'pending') {
      throw new AppError('CONFLICT', `This request was already ${request.status}.`, { details: { reason: 'already_decided', status: request.status } });
    }
    return request;
  }

  /** Approves a pending request (administrators); see the module comment. 409 when it was decided already. */
  async approve(actor: SessionUser, id: string): Promise<ApprovalOutcome> {
    const { ports, repository } = this.deps;
    const now = this.deps.clock.now();
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const request = await this.#lockPending(id, trx);
      const offer = offerOrThrow(request.offerId);
      const clientId = await ports.createClient(trx, {
        companyName: request.businessName,
        contactPerson: request.contactName,
        email: request.email,
        phone: request.phone,
      });
      const account = await this.#settleAccount(trx, request, clientId, actor, offer);

      const templateId = await repository.findOfferTemplateId(offer.id, trx);
      const applied = templateId ? { id: templateId, ...(await ports.applyTemplate(trx, { templateId, clientId, assignedBy: actor.id })) } : null;
      await ports.setUpAgent(trx, clientId, { businessHours: defaultBusinessHours(request.timeZone) });
      if (ports.startSubscription) await ports.startSubscription(trx, { clientId, offerId: offer.id, startedAt: now });

      if (account.outcome !== 'invited') {
        await ports.email(
          request.email,
          onboardingApprovedEmail({
            contactName: request.contactName,
            businessName: request.businessName,
            offerName: offer.name,
            templateName: applied?.templateName ?? null,
            canSignIn: account.outcome === 'linked',
            signInUrl: this.#url('/login'),
          }),
          trx,
        );
      }
      await repository.markApproved(
        id,
        {
          decidedAt: now,
          decidedBy: actor.id,
          clientId,
          templateId: applied?.id ?? null,
          templateName: applied?.templateName ?? null,
          automationId: applied?.automationId ?? null,
          accountOutcome: account.outcome,
        },
        trx,
      );
      await ports.securityEvent(
        {
          type: 'onboarding.approved',
          userId: actor.id,
          email: actor.email,
          details: { requestId: id, clientId, client: request.businessName, offer: offer.id, applicant: request.email, account: account.outcome, template: applied?.templateName ?? null },
          at: now,
        },
        trx,
      );
      return {
        account,
        templateApplied: applied ? { id: applied.id, name: applied.templateName, automationId: applied.automationId } : null,
        subscriptionStarted: ports.startSubscription !== undefined,
      };
    });
    return { request: await this.getRequest(id), ...result };
  }

  /**
   * The applicant's account for the new client: the account that sent the request when it may join,
   * else the account of the request's address when it may (verified: linked; not verified yet:
   * invited, and the link works once it is), else an invitation to the address when it has no
   * account; an account that may not join (staff, disabled, another business's) is left alone.
   */
  async #settleAccount(trx: Db, request: OnboardingRequestRecord, clientId: string, actor: SessionUser, offer: TemplateOffer): Promise<AccountResult> {
    const { ports } = this.deps;
    const sender = request.userId ? await ports.lockAccount({ id: request.userId }, trx) : undefined;
    const link = async (account: OnboardingAccount): Promise<AccountResult> => {
      await ports.linkAccount(account.id, clientId, trx, { verifyEmail: false });
      return { outcome: 'linked', message: `The account of ${account.fullName || account.email} (${account.email}) now belongs to ${request.businessName}; we told them by e-mail.` };
    };
    if (sender && linkability(sender, clientId).kind === 'linkable') return link(sender);

    const owner = sender?.email === request.email ? sender : await ports.lockAccount({ email: request.email }, trx);
    const ownerLink = owner ? linkability(owner, clientId) : undefined;
    if (owner && ownerLink?.kind === 'linkable') return link(owner);
    if (ownerLink?.kind === 'refused') {
      return { outcome: 'not-linked', message: `No account was linked: ${ownerLink.message}. Invite the business's people from the Invitations tab.` };
    }
    const issued = await this.deps.invitations.issue(trx, { clientId, email: request.email, invitedBy: actor.id, onboardingRequestId: request.id });
    await ports.email(
      request.email,
      clientInvitationEmail({
        clientName: request.businessName,
        url: issued.url,
        expiresInDays: INVITATION_EXPIRY_DAYS,
        invitedBy: actor.name || null,
        approval: { contactName: request.contactName, offerName: offer.name },
      }),
      trx,
    );
    return {
      outcome: 'invited',
      message:
        ownerLink?.kind === 'unverified'
          ? `${request.email} has an account that is not verified yet: we e-mailed an invitation, which works once its owner verifies the address.`
          : `No account had ${request.email}: we e-mailed an invitation to create one (the link works for ${INVITATION_EXPIRY_DAYS} days).`,
    };
  }

  /** Declines a pending request with a reason, e-mailed to the applicant. 409 when it was decided already. */
  async decline(actor: SessionUser, id: string, reason: string): Promise<OnboardingRequestView> {
    await this.deps.db.transaction().execute(async (trx) => {
      const request = await this.#lockPending(id, trx);
      const offer = offerOrThrow(request.offerId);
      const now = this.deps.clock.now();
      await this.deps.repository.markDeclined(id, { decidedAt: now, decidedBy: actor.id, declineReason: reason }, trx);
      await this.deps.ports.securityEvent(
        {
          type: 'onboarding.declined',
          userId: actor.id,
          email: actor.email,
          details: { requestId: id, client: request.businessName, offer: offer.id, applicant: request.email, reason },
          at: now,
        },
        trx,
      );
      await this.deps.ports.email(
        request.email,
        onboardingDeclinedEmail({ contactName: request.contactName, businessName: request.businessName, offerName: offer.name, reason, contactUrl: this.#url('/contact') }),
        trx,
      );
    });
    return this.getRequest(id);
  }

  // Offer → template

  async findOfferTemplates(): Promise<OfferTemplateView[]> {
    const mapped = new Map((await this.deps.repository.findOfferTemplates()).map((row) => [row.offerId, row]));
    return TEMPLATE_OFFERS.map((offer) => {
      const row = mapped.get(offer.id);
      return {
        offerId: offer.id,
        offerName: offer.name,
        template: row ? { id: row.templateId, name: row.templateName, status: row.templateStatus } : null,
      };
    });
  }

  /** Maps the offer to a template (null: none). An unknown template is a 400 on `templateId`. */
  async setOfferTemplate(actor: SessionUser, offerId: OfferId, templateId: string | null): Promise<OfferTemplateView> {
    const unknown = () => new AppError('VALIDATION_ERROR', 'Template not found', { fields: { templateId: 'Template not found' } });
    if (templateId !== null && !(await this.deps.repository.templateExists(templateId))) throw unknown();
    try {
      await this.deps.repository.setOfferTemplate(offerId, templateId, actor.id, this.deps.clock.now());
    } catch (error) {
      // The template was deleted since the check (foreign key violation).
      if ((error as { code?: unknown } | null)?.code === '23503') throw new AppError('VALIDATION_ERROR', 'Template not found', { fields: { templateId: 'Template not found' }, cause: error });
      throw error;
    }
    const view = (await this.findOfferTemplates()).find((o) => o.offerId === offerId);
    if (!view) throw notFound('Offer');
    return view;
  }

  /**
   * The offer a client chose (its approved onboarding request): for the client's dashboard and
   * billing. Null for a client made another way (Add Client).
   */
  async offerOf(clientId: string): Promise<{ offerId: OfferId; offerName: string; approvedAt: Date; templateName: string | null } | null> {
    const row = await this.deps.repository.offerOf(clientId);
    if (!row) return null;
    return { offerId: row.offerId, offerName: offerOrThrow(row.offerId).name, approvedAt: row.approvedAt, templateName: row.templateName };
  }
}
