import { useMutation, useQueryClient } from '@tanstack/react-query';
import { executionView, type ExecutionView } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { upsertExecution } from '../lib/automations';
import { automationKeys } from './keys';

/** Stores a running execution; the server's job then POSTs the signed trigger to the workflow URL. */
export function runAutomation(id: string) {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(id)}/run`, executionView, { method: 'POST' });
}

export function useRunAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAutomation,
    retry: false,
    onSuccess: (execution) =>
      queryClient.setQueryData(automationKeys.executions(execution.automation_id), (list: ExecutionView[] | undefined) => upsertExecution(list, execution)),
  });
}
