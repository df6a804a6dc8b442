import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { workflowKeys, workflowPath } from './keys';

/** Deletes Parley's record only (a linked workflow stays in n8n). */
export function deleteWorkflow(id: string) {
  return apiSend(workflowPath(id), { method: 'DELETE' });
}

export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkflow,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
