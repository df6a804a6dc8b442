import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** Forgets the connection and its API key. */
export function deleteN8nConnection() {
  return apiSend('/api/v1/n8n/connection', { method: 'DELETE' });
}

export function useDeleteN8nConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteN8nConnection,
    retry: false,
    onSuccess: () => {
      queryClient.setQueryData(n8nKeys.connection(), null);
      queryClient.removeQueries({ queryKey: n8nKeys.workflows() });
    },
  });
}
