import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { n8nKeys } from './keys';

/**
 * Creates Parley's workflow record linked to the n8n workflow (the workflows module; its webhook
 * URL is read from the workflow's Webhook node). The answer's body is the workflows screen's
 * business: this tab only needs to know it worked, then reloads which ids are linked.
 */
export function importN8nWorkflow({ n8nWorkflowId }: { n8nWorkflowId: string }) {
  return apiSend('/api/v1/workflows/import-n8n', { method: 'POST', body: { n8nWorkflowId } });
}

export function useImportN8nWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importN8nWorkflow,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: n8nKeys.linked() }),
  });
}
