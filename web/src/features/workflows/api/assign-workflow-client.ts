import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

/** Appends the client on the server (409 when it is assigned already). */
export function assignWorkflowClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${workflowPath(id)}/clients`, workflowView, { method: 'POST', body: { clientId } });
}

export function useAssignWorkflowClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignWorkflowClient,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
