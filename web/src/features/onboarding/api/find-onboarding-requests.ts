import { queryOptions, useQuery } from '@tanstack/react-query';
import { onboardingRequestsResponse, type OnboardingRequestStatus } from '@common/api/onboarding';
import { apiRequest } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export type RequestFilter = OnboardingRequestStatus | 'all';

export function findOnboardingRequests(status: RequestFilter, signal?: AbortSignal) {
  return apiRequest('/api/v1/onboarding/requests', onboardingRequestsResponse, { query: { status }, signal });
}

export function useOnboardingRequests(status: RequestFilter) {
  return useQuery(
    queryOptions({ queryKey: onboardingKeys.requests(status), queryFn: ({ signal }) => findOnboardingRequests(status, signal), staleTime: 10_000 }),
  );
}
