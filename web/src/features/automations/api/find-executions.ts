import { queryOptions, useQuery } from '@tanstack/react-query';
import { executionsResponse, type ExecutionView } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';

/** Newest first by started_at, 50 at most. */
export function findExecutions(automationId: string, signal?: AbortSignal): Promise<ExecutionView[]> {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(automationId)}/executions`, executionsResponse, { signal }).then((r) => r.executions);
}

export function executionsQueryOptions(automationId: string) {
  return queryOptions({ queryKey: automationKeys.executions(automationId), queryFn: ({ signal }) => findExecutions(automationId, signal), staleTime: 15_000 });
}

export function useExecutions(automationId: string) {
  return useQuery(executionsQueryOptions(automationId));
}
