import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalOutcome, onboardingRequestView, type DeclineRequestInput } from '@common/api/onboarding';
import { apiRequest } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export function approveRequest(id: string) {
  return apiRequest(`/api/v1/onboarding/requests/${encodeURIComponent(id)}/approve`, approvalOutcome, { method: 'POST' });
}

export function declineRequest({ id, ...body }: DeclineRequestInput & { id: string }) {
  return apiRequest(`/api/v1/onboarding/requests/${encodeURIComponent(id)}/decline`, onboardingRequestView, { method: 'POST', body });
}

/** Approving makes a client (and maybe invitations): the client list is refreshed too. */
export function useApproveRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveRequest,
    retry: false,
    // Not awaited: the refetch drops the decided card, and a mutation's per-call callbacks (the
    // card's toast and the outcome it reports) do not run once their component has unmounted.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: onboardingKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}

export function useDeclineRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineRequest,
    retry: false,
    // Not awaited, as above.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: onboardingKeys.all });
    },
  });
}
