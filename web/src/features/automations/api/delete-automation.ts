import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { automationKeys } from './keys';

/** Admins only: the automation goes with its executions and messages. */
export function deleteAutomation(id: string) {
  return apiSend(`/api/v1/automations/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAutomation,
    retry: false,
    // Not awaited: the refetch removes the details that called mutate, and its callbacks must still run.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: automationKeys.list() });
    },
  });
}
