import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invitationSent, invitationsResponse, invitationView, type CreateInvitationInput } from '@common/api/onboarding';
import { apiRequest } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export function findInvitations(clientId: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/clients/${encodeURIComponent(clientId)}/invitations`, invitationsResponse, { signal }).then((r) => r.invitations);
}

export function useInvitations(clientId: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: onboardingKeys.invitations(clientId ?? ''), queryFn: ({ signal }) => findInvitations(clientId ?? '', signal), staleTime: 10_000 }),
    enabled: clientId !== null,
  });
}

export function createInvitation({ clientId, ...body }: CreateInvitationInput & { clientId: string }) {
  return apiRequest(`/api/v1/clients/${encodeURIComponent(clientId)}/invitations`, invitationSent, { method: 'POST', body });
}

export function resendInvitation(id: string) {
  return apiRequest(`/api/v1/invitations/${encodeURIComponent(id)}/resend`, invitationView, { method: 'POST' });
}

export function revokeInvitation(id: string) {
  return apiRequest(`/api/v1/invitations/${encodeURIComponent(id)}/revoke`, invitationView, { method: 'POST' });
}

/** Every invitation change refreshes the client's list (and the client list: a linked account changes its user count). */
function useInvitationMutation<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    retry: false,
    // Not awaited, so the caller's own callbacks (its toast) run before the lists change under it.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [...onboardingKeys.all, 'invitations'] });
      void queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}

export const useCreateInvitation = () => useInvitationMutation(createInvitation);
export const useResendInvitation = () => useInvitationMutation(resendInvitation);
export const useRevokeInvitation = () => useInvitationMutation(revokeInvitation);
