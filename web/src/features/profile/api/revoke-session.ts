import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { profileKeys } from './keys';

export function revokeSession(id: string): Promise<void> {
  return apiSend(`/api/v1/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions }),
  });
}
