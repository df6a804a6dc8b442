import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { profileKeys } from './keys';

export function revokeOtherSessions(): Promise<void> {
  return apiSend('/api/v1/me/sessions/revoke-others', { method: 'POST' });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions }),
  });
}
