/**
 * Onboarding requests and client invitations (issue 17 §1 and §3 "invite a user to a business";
 * server: server/modules/onboarding; docs/onboarding.md). The offers themselves are ./offers.ts.
 *
 * Public (no sign-in; a signed-in visitor's request is linked to their account):
 *   POST /api/v1/public/onboarding-requests          onboardingRequestInput -> 201 onboardingRequestAccepted
 *        (5 an hour per IP; a honeypot and a minimum fill time, as the contact form)
 *   GET  /api/v1/public/invitations/:token           -> publicInvitationView (404 for an unknown link)
 *   POST /api/v1/public/invitations/:token/accept    acceptInvitationInput -> invitationAccepted (a new account)
 *   POST /api/v1/public/invitations/:token/join      -> invitationAccepted (the address's existing account)
 *        (410 GONE for a link that expired, was used or was revoked; `details.reason` says which)
 * Admins:
 *   GET  /api/v1/onboarding/requests?status=         -> onboardingRequestsResponse
 *   POST /api/v1/onboarding/requests/:id/approve     -> approvalOutcome (409 when already decided)
 *   POST /api/v1/onboarding/requests/:id/decline     declineRequestInput -> onboardingRequestView (409 when already decided)
 *   GET  /api/v1/onboarding/offer-templates          -> offerTemplatesResponse
 *   PUT  /api/v1/onboarding/offer-templates/:offerId setOfferTemplateInput -> offerTemplateView
 *   GET  /api/v1/clients/:clientId/invitations       -> invitationsResponse
 *   POST /api/v1/clients/:clientId/invitations       createInvitationInput -> 201 invitationSent
 *   POST /api/v1/invitations/:id/resend              -> invitationView (a new link; the old one stops working)
 *   POST /api/v1/invitations/:id/revoke              -> invitationView
 */
import { z } from 'zod';
import { isKnownTimeZone } from '../business-time';
import { emailSchema, messages, NAME_MAX, nameSchema, newPasswordSchema } from '../validation/auth';
import { safeText } from '../validation/sanitize';
import { industry, offerId } from './offers';

const isoDate = z.iso.datetime({ offset: true });

/** How long an invitation link works, in days (from when it was last sent). */
export const INVITATION_EXPIRY_DAYS = 7;
/** A form sent sooner than this after it was shown is treated as a bot's (answered as a success, not stored). */
export const ONBOARDING_MIN_FILL_MS = 3_000;
export const BUSINESS_NAME_MAX = 200;
export const PHONE_MAX = 30;
export const DECLINE_REASON_MAX = 2_000;

/** Where administrators review requests (the link of their notification and e-mail). */
export const ONBOARDING_REQUESTS_PAGE = '/admin/clients?tab=requests';
/** The page an invitation link opens (common/routes.ts `invitation`). */
export const invitationPath = (token: string): string => `/invite/${encodeURIComponent(token)}`;

export const INDUSTRY_LABELS: Record<z.infer<typeof industry>, string> = {
  restaurant: 'Restaurant',
  retail: 'Retail',
  healthcare: 'Healthcare',
  education: 'Education',
  'real-estate': 'Real Estate',
  other: 'Other',
};

/** The toast after a request is sent; the page then shows what happens next. */
export const ONBOARDING_SENT_TOAST = { title: 'Request sent!', description: "We'll contact you within 24 hours." } as const;

const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/u;

/** Required; digits with the usual separators (+, spaces, dots, dashes, brackets), 7 to 15 digits. */
export const phoneSchema = z
  .string({ error: 'Phone is required' })
  .trim()
  .min(1, { error: 'Phone is required' })
  .max(PHONE_MAX, { error: 'Phone number is too long' })
  .refine((value) => PHONE_CHARACTERS.test(value), { error: 'Please enter a valid phone number' })
  .refine(
    (value) => {
      const digits = value.replace(/\D/gu, '').length;
      return digits >= 7 && digits <= 15;
    },
    { error: 'Please enter a valid phone number' },
  );

export function isTimeZone(value: string): boolean {
  return value.length > 0 && value.length <= 64 && isKnownTimeZone(value);
}

/** The Business Information form (spec part 2 §5: business name, contact name, email, phone required). */
export const onboardingRequestInput = z.object({
  offerId,
  businessName: safeText({ required: 'Business name is required', max: BUSINESS_NAME_MAX, tooLong: 'Business name is too long' }),
  contactName: safeText({ required: 'Contact name is required', max: NAME_MAX, tooLong: 'Contact name is too long' }),
  email: emailSchema,
  phone: phoneSchema,
  industry,
  /**
   * The browser's time zone (not a field people fill in): the AI agent's business hours are set in
   * it. One this server does not know is ignored (UTC).
   */
  timeZone: z
    .string()
    .max(100)
    .optional()
    .transform((value) => (value !== undefined && isTimeZone(value) ? value : undefined)),
  /** Honeypot: hidden from people; a bot fills it. */
  website: z.string().max(500).optional(),
  /** When the form was shown (ms since the epoch, from the page). */
  shownAt: z.number().int().nonnegative().optional(),
});
export type OnboardingRequestInput = z.input<typeof onboardingRequestInput>;
export const onboardingRequestAccepted = z.object({ ok: z.literal(true) });

export const ONBOARDING_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export const onboardingRequestStatus = z.enum(ONBOARDING_REQUEST_STATUSES);
export type OnboardingRequestStatus = z.infer<typeof onboardingRequestStatus>;

/** What the approval did with the applicant's account. */
export const accountOutcome = z.enum(['linked', 'invited', 'not-linked']);
export type AccountOutcome = z.infer<typeof accountOutcome>;

const person = z.object({ id: z.uuid(), name: z.string(), email: z.string() });

export const onboardingRequestView = z.object({
  id: z.uuid(),
  offerId,
  offerName: z.string(),
  priceText: z.string(),
  businessName: z.string(),
  contactName: z.string(),
  email: z.string(),
  phone: z.string(),
  industry,
  timeZone: z.string(),
  /** The signed-in account that sent the request (null: sent signed out, or the account is gone). */
  applicant: person.nullable(),
  status: onboardingRequestStatus,
  createdAt: isoDate,
  decidedAt: isoDate.nullable(),
  decidedBy: person.nullable(),
  declineReason: z.string().nullable(),
  /** The client an approval created (null once deleted). */
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** The template the approval applied; null: none was mapped to the offer then. */
  template: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  accountOutcome: accountOutcome.nullable(),
});
export type OnboardingRequestView = z.infer<typeof onboardingRequestView>;

export const findOnboardingRequestsQuery = z.object({
  status: z.enum(['pending', 'approved', 'declined', 'all'], { error: 'Use pending, approved, declined or all' }).default('pending'),
});
export const onboardingRequestsResponse = z.object({
  requests: z.array(onboardingRequestView),
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), declined: z.number().int() }),
});
export type OnboardingRequestsResponse = z.infer<typeof onboardingRequestsResponse>;
export const onboardingRequestParams = z.object({ id: z.uuid({ error: 'Unknown request' }) });

export const approvalOutcome = z.object({
  request: onboardingRequestView,
  /** What happened to the applicant's account, in a sentence for the admin. */
  account: z.object({ outcome: accountOutcome, message: z.string() }),
  /** The template applied (its automation created for the client); null: no template was mapped to the offer. */
  templateApplied: z.object({ id: z.uuid(), name: z.string(), automationId: z.uuid() }).nullable(),
  /** Whether the client's subscription was started (false: billing is not available on this server). */
  subscriptionStarted: z.boolean(),
});
export type ApprovalOutcome = z.infer<typeof approvalOutcome>;

export const declineRequestInput = z.object({
  reason: safeText({ required: 'A reason is required', max: DECLINE_REASON_MAX, tooLong: `The reason must be at most ${DECLINE_REASON_MAX} characters` }),
});
export type DeclineRequestInput = z.input<typeof declineRequestInput>;

export const offerTemplateView = z.object({
  offerId,
  offerName: z.string(),
  /** The admin template an approval applies for this offer; null: none (the approval says so). */
  template: z.object({ id: z.uuid(), name: z.string(), status: z.enum(['draft', 'active', 'paused']) }).nullable(),
});
export type OfferTemplateView = z.infer<typeof offerTemplateView>;
export const offerTemplatesResponse = z.object({ offers: z.array(offerTemplateView) });
export const offerTemplateParams = z.object({ offerId });
export const setOfferTemplateInput = z.object({
  /** null: no template for this offer. */
  templateId: z.uuid({ error: 'Choose a template' }).nullable(),
});
export type SetOfferTemplateInput = z.input<typeof setOfferTemplateInput>;

// Invitations

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export const invitationStatus = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof invitationStatus>;

export const invitationView = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  email: z.string(),
  status: invitationStatus,
  invitedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  createdAt: isoDate,
  /** When the current link was sent. */
  sentAt: isoDate,
  expiresAt: isoDate,
  acceptedAt: isoDate.nullable(),
  acceptedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  revokedAt: isoDate.nullable(),
});
export type InvitationView = z.infer<typeof invitationView>;
export const invitationsResponse = z.object({ invitations: z.array(invitationView) });
export const clientInvitationsParams = z.object({ clientId: z.uuid({ error: 'Unknown client' }) });
export const invitationParams = z.object({ id: z.uuid({ error: 'Unknown invitation' }) });

export const createInvitationInput = z.object({ email: emailSchema });
export type CreateInvitationInput = z.input<typeof createInvitationInput>;
/**
 * `invited`: the link was e-mailed. `linked`: the address already had a plain account (no client,
 * not staff), which now belongs to the client — no link is needed; the person was told by e-mail.
 */
export const invitationSent = z.object({
  outcome: z.enum(['invited', 'linked']),
  invitation: invitationView,
  message: z.string(),
});
export type InvitationSent = z.infer<typeof invitationSent>;

export const invitationTokenParams = z.object({ token: z.string().min(1).max(200) });

/** Why a link no longer works (410 `details.reason`, and the page's text). */
export const INVITATION_GONE_MESSAGES = {
  expired: 'This invitation has expired. Ask the person who invited you to send a new one.',
  accepted: 'This invitation was already used. Sign in with the account it created.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you if you still need access.',
} as const;
export const INVITATION_UNKNOWN_MESSAGE = 'This invitation link is not valid. Check that you copied the whole link.';

export const publicInvitationView = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('pending'),
    clientName: z.string(),
    email: z.string(),
    expiresAt: isoDate,
    /** `new`: the page asks for a name and a password; `existing`: the address has an account, which joins. */
    account: z.enum(['new', 'existing']),
  }),
  z.object({ status: z.enum(['expired', 'accepted', 'revoked']), message: z.string() }),
]);
export type PublicInvitationView = z.infer<typeof publicInvitationView>;

/** A new account from an invitation: the sign-up rules (spec part 1 §5). */
export const acceptInvitationInput = z
  .object({
    name: nameSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: messages.passwordsDoNotMatch }),
  })
  .refine((v) => v.password === v.confirmPassword, { error: messages.passwordsDoNotMatch, path: ['confirmPassword'] });
export type AcceptInvitationInput = z.input<typeof acceptInvitationInput>;

export const invitationAccepted = z.object({
  /** `created`: a new account; `linked`: the existing account of the address joined the business. */
  outcome: z.enum(['created', 'linked']),
  email: z.string(),
  clientName: z.string(),
  message: z.string(),
});
export type InvitationAccepted = z.infer<typeof invitationAccepted>;
