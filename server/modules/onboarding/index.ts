/**
 * The onboarding module: requests from `/client-signup` and their review (approve: the client, its
 * account, template, agent and subscription; decline with a reason), the offer → template mapping,
 * and invitations to a client business (docs/onboarding.md). Other modules come in through the
 * OnboardingPorts app.ts fills in.
 */
export { OnboardingRepository } from './onboarding.repository';
export { OnboardingService, DEFAULT_BUSINESS_DAYS, defaultBusinessHours } from './onboarding.service';
export { InvitationsService, INVITATION_EXPIRY_MS } from './invitations.service';
export type { OnboardingAccount, OnboardingAlertRecipient, OnboardingPorts, SubscriptionStarter } from './onboarding-ports';
export { onboardingRoutes } from './onboarding.routes';
