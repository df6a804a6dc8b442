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
    onSuccess: (execution) => {
      // Only into a history already read: a list holding just this run would hide the older ones.
      queryClient.setQueryData(automationKeys.executions(execution.automation_id), (list: ExecutionView[] | undefined) =>
        list === undefined ? undefined : upsertExecution(list, execution),
      );
      void queryClient.invalidateQueries({ queryKey: automationKeys.executions(execution.automation_id) });
    },
  });
}
