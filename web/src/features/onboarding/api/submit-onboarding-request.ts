import { useMutation } from '@tanstack/react-query';
import { onboardingRequestAccepted, type OnboardingRequestInput } from '@common/api/onboarding';
import { apiRequest } from '@/lib/api-client';

export function submitOnboardingRequest(values: OnboardingRequestInput) {
  return apiRequest('/api/v1/public/onboarding-requests', onboardingRequestAccepted, { method: 'POST', body: values });
}

export function useSubmitOnboardingRequest() {
  return useMutation({ mutationFn: submitOnboardingRequest, retry: false });
}
