import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView, type UpdateWorkflowInput } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

/** Changes Parley's record only (a linked workflow is not changed in n8n). */
export function updateWorkflow({ id, ...changes }: UpdateWorkflowInput & { id: string }) {
  return apiRequest(workflowPath(id), workflowView, { method: 'PATCH', body: changes });
}

export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkflow,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
