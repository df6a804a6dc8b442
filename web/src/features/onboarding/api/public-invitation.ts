import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invitationAccepted, publicInvitationView, type AcceptInvitationInput } from '@common/api/onboarding';
import { apiRequest } from '@/lib/api-client';
import { onboardingKeys } from './keys';

const base = (token: string) => `/api/v1/public/invitations/${encodeURIComponent(token)}`;

export function getPublicInvitation(token: string, signal?: AbortSignal) {
  return apiRequest(base(token), publicInvitationView, { signal });
}

export function usePublicInvitation(token: string) {
  return useQuery({
    ...queryOptions({ queryKey: onboardingKeys.publicInvitation(token), queryFn: ({ signal }) => getPublicInvitation(token, signal) }),
    // A 404 or 410 is the answer, not a hiccup.
    retry: false,
  });
}

export function acceptInvitation({ token, ...body }: AcceptInvitationInput & { token: string }) {
  return apiRequest(`${base(token)}/accept`, invitationAccepted, { method: 'POST', body });
}

export function joinInvitation(token: string) {
  return apiRequest(`${base(token)}/join`, invitationAccepted, { method: 'POST' });
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptInvitation, retry: false, onError: () => queryClient.invalidateQueries({ queryKey: onboardingKeys.publicInvitation(token) }) });
}

export function useJoinInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: joinInvitation, retry: false, onError: () => queryClient.invalidateQueries({ queryKey: onboardingKeys.publicInvitation(token) }) });
}
