import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

export function removeWorkflowClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${workflowPath(id)}/clients/${encodeURIComponent(clientId)}`, workflowView, { method: 'DELETE' });
}

export function useRemoveWorkflowClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeWorkflowClient,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
