import { useMutation, useQueryClient } from '@tanstack/react-query';
import { n8nWorkflow, type N8nWorkflow } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** Activates or deactivates the workflow in n8n; answers n8n's state afterwards. */
export function setN8nWorkflowActive({ id, active }: { id: string; active: boolean }) {
  return apiRequest(`/api/v1/n8n/workflows/${encodeURIComponent(id)}/${active ? 'activate' : 'deactivate'}`, n8nWorkflow, { method: 'POST' });
}

export function useSetN8nWorkflowActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setN8nWorkflowActive,
    retry: false,
    onSuccess: (workflow) =>
      queryClient.setQueryData<N8nWorkflow[]>(n8nKeys.workflows(), (current) => current?.map((item) => (item.id === workflow.id ? workflow : item))),
  });
}
