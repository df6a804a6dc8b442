export const onboardingKeys = {
  all: ['onboarding'] as const,
  requests: (status: string) => [...onboardingKeys.all, 'requests', status] as const,
  offerTemplates: () => [...onboardingKeys.all, 'offer-templates'] as const,
  templates: () => [...onboardingKeys.all, 'templates'] as const,
  invitations: (clientId: string) => [...onboardingKeys.all, 'invitations', clientId] as const,
  publicInvitation: (token: string) => [...onboardingKeys.all, 'public-invitation', token] as const,
};
