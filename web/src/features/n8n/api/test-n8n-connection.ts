import { useMutation, useQueryClient } from '@tanstack/react-query';
import { n8nConnectionTest, type N8nConnectionView } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** Asks n8n's public API for the instance's workflows: their count, or the exact error. */
export function testN8nConnection() {
  return apiRequest('/api/v1/n8n/connection/test', n8nConnectionTest, { method: 'POST' });
}

export function useTestN8nConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testN8nConnection,
    retry: false,
    onSuccess: async (lastTest) => {
      // The server records the outcome on the connection: show it there without a reload.
      queryClient.setQueryData<N8nConnectionView | null>(n8nKeys.connection(), (current) => (current ? { ...current, lastTest } : current));
      if (lastTest.ok) await queryClient.invalidateQueries({ queryKey: n8nKeys.workflows() });
    },
  });
}
