import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

/** Active becomes paused, anything else active; a workflow linked to n8n is switched in n8n first (502 with n8n's error when it refuses). */
export function toggleWorkflowStatus(id: string) {
  return apiRequest(`${workflowPath(id)}/toggle-status`, workflowView, { method: 'POST' });
}

export function useToggleWorkflowStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleWorkflowStatus,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
