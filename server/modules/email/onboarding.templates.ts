/** E-mails of onboarding: requests from `/client-signup`, their approval or decline, invitations (docs/onboarding.md). */
import { render, type RenderedEmail } from './email.templates';

const subject = (text: string) => text.slice(0, 200);

/**
 * To the applicant, right after they sent the form: we contact them within 24 hours (spec part 2
 * §9). `account` says what they can do meanwhile: nothing (their request is linked to the account
 * they were signed in with), sign in (the address has an account), or create an account with this
 * address, which the approval then links.
 */
export function onboardingReceivedEmail(input: {
  contactName: string;
  businessName: string;
  offerName: string;
  priceText: string;
  account: { kind: 'linked' } | { kind: 'existing'; signInUrl: string } | { kind: 'none'; registerUrl: string; email: string };
}): RenderedEmail {
  const accountLine =
    input.account.kind === 'linked'
      ? 'Your request is linked to the Parley account you were signed in with: once it is approved, that account opens your business dashboard.'
      : input.account.kind === 'existing'
        ? 'This address already has a Parley account: once your request is approved, that account opens your business dashboard.'
        : `You do not need an account yet: when we approve your request we e-mail you a link to set your password. If you prefer, create your account now with this address (${input.account.email}); the approval links it to your business.`;
  const action =
    input.account.kind === 'none'
      ? { label: 'Create your account', url: input.account.registerUrl }
      : input.account.kind === 'existing'
        ? { label: 'Sign in', url: input.account.signInUrl }
        : undefined;
  return render(
    'onboarding-received',
    subject(`We received your request: ${input.offerName} for ${input.businessName}`),
    [
      `Hi ${input.contactName},`,
      `Thank you for choosing ${input.offerName} (${input.priceText}) for ${input.businessName}. We will contact you within 24 hours to set up your template, then you connect your social accounts and go live.`,
      accountLine,
    ],
    action,
  );
}

/** To an administrator who takes e-mail: a business asked to get started. Reply-To is the applicant. */
export function onboardingRequestAdminEmail(
  name: string,
  input: { businessName: string; contactName: string; email: string; phone: string; industry: string; offerName: string; url: string },
): RenderedEmail {
  return {
    ...render(
      'onboarding-request',
      subject(`New onboarding request: ${input.businessName} (${input.offerName})`),
      [
        `Hi ${name},`,
        `${input.businessName} asked for ${input.offerName}. We promised to contact them within 24 hours.`,
        `Contact: ${input.contactName} <${input.email}>, ${input.phone}\nIndustry: ${input.industry}`,
        'Approve or decline it from the Requests tab of the client management page.',
      ],
      { label: 'Review the request', url: input.url },
    ),
    headers: { 'Reply-To': input.email },
  };
}

/**
 * To the applicant of an approved request whose account was linked to the new client (or whose
 * address belongs to an account that cannot be: `canSignIn` false, and we get in touch).
 */
export function onboardingApprovedEmail(input: {
  contactName: string;
  businessName: string;
  offerName: string;
  templateName: string | null;
  canSignIn: boolean;
  signInUrl: string;
}): RenderedEmail {
  return render(
    'onboarding-approved',
    subject(`${input.businessName} is set up on Parley`),
    [
      `Hi ${input.contactName},`,
      `Your request for ${input.offerName} is approved: ${input.businessName} is set up on Parley${input.templateName ? ` with the template “${input.templateName}”` : ''}.`,
      input.canSignIn
        ? 'Sign in with your Parley account to open your business dashboard. Next, connect your social accounts and go live.'
        : 'Your address belongs to a Parley account that cannot be linked to this business, so we will contact you to give you access.',
    ],
    input.canSignIn ? { label: 'Sign in', url: input.signInUrl } : undefined,
  );
}

/**
 * An invitation to a client business: a single-use link to set a name and a password. With
 * `approval`, it is the answer to an approved onboarding request.
 */
export function clientInvitationEmail(input: {
  clientName: string;
  url: string;
  expiresInDays: number;
  invitedBy: string | null;
  approval?: { contactName: string; offerName: string };
}): RenderedEmail {
  const opening = input.approval
    ? [`Hi ${input.approval.contactName},`, `Your request for ${input.approval.offerName} is approved: ${input.clientName} is set up on Parley.`]
    : ['Hi,', `${input.invitedBy ?? 'Parley'} invited you to ${input.clientName} on Parley, where the business answers its customers with an AI agent.`];
  return render(
    'client-invitation',
    subject(input.approval ? `${input.clientName} is set up on Parley: create your account` : `You are invited to ${input.clientName} on Parley`),
    [
      ...opening,
      `Set your name and a password to open the business dashboard. The link works once and expires in ${input.expiresInDays} days.`,
      'If you did not expect this e-mail, ignore it: nothing happens without the link.',
    ],
    { label: 'Accept the invitation', url: input.url },
  );
}

/** An existing account (no client, not staff) that an administrator added to a client business. */
export function clientAccessEmail(input: { name: string; clientName: string; signInUrl: string }): RenderedEmail {
  return render(
    'client-access',
    subject(`You now have access to ${input.clientName} on Parley`),
    [`Hi ${input.name},`, `Your Parley account now belongs to ${input.clientName}. Sign in to open its dashboard.`],
    { label: 'Sign in', url: input.signInUrl },
  );
}

/** To the applicant of a declined request, with the administrator's reason. */
export function onboardingDeclinedEmail(input: { contactName: string; businessName: string; offerName: string; reason: string; contactUrl: string }): RenderedEmail {
  return render(
    'onboarding-declined',
    subject(`Your request for ${input.businessName}`),
    [
      `Hi ${input.contactName},`,
      `Thank you for your interest in ${input.offerName}. We cannot set up ${input.businessName} on Parley at this time, for this reason:`,
      input.reason,
      'If you have questions, or your situation changes, write to us.',
    ],
    { label: 'Contact us', url: input.contactUrl },
  );
}
