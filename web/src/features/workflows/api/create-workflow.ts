import { useMutation, useQueryClient } from '@tanstack/react-query';
import { workflowView, type CreateWorkflowInput } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys } from './keys';

/** A new workflow or zap; it starts as a draft. */
export function createWorkflow(values: CreateWorkflowInput) {
  return apiRequest('/api/v1/workflows', workflowView, { method: 'POST', body: values });
}

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWorkflow,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workflowKeys.all }),
  });
}
