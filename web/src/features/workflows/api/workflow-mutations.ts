/**
 * Changes to one workflow or zap. Every one answers the workflow as it now is; the lists refetch
 * after each (two admins at once never lose each other's assignment: the server appends).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView, type CreateWorkflowInput, type UpdateWorkflowInput } from '@common/api/workflows';
import { apiRequest, apiSend } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

export function createWorkflow(values: CreateWorkflowInput) {
  return apiRequest('/api/v1/workflows', workflowView, { method: 'POST', body: values });
}

export function updateWorkflow({ id, ...changes }: UpdateWorkflowInput & { id: string }) {
  return apiRequest(workflowPath(id), workflowView, { method: 'PATCH', body: changes });
}

export function deleteWorkflow(id: string) {
  return apiSend(workflowPath(id), { method: 'DELETE' });
}

/** Active becomes paused, anything else active; a workflow linked to n8n is switched in n8n first. */
export function toggleWorkflowStatus(id: string) {
  return apiRequest(`${workflowPath(id)}/toggle-status`, workflowView, { method: 'POST' });
}

export function assignWorkflowClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${workflowPath(id)}/clients`, workflowView, { method: 'POST', body: { clientId } });
}

export function removeWorkflowClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${workflowPath(id)}/clients/${encodeURIComponent(clientId)}`, workflowView, { method: 'DELETE' });
}

function useWorkflowMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}

export const useCreateWorkflow = () => useWorkflowMutation(createWorkflow);
export const useUpdateWorkflow = () => useWorkflowMutation(updateWorkflow);
export const useDeleteWorkflow = () => useWorkflowMutation(deleteWorkflow);
export const useToggleWorkflowStatus = () => useWorkflowMutation(toggleWorkflowStatus);
export const useAssignWorkflowClient = () => useWorkflowMutation(assignWorkflowClient);
export const useRemoveWorkflowClient = () => useWorkflowMutation(removeWorkflowClient);
