import { queryOptions, useQuery } from '@tanstack/react-query';
import { n8nWorkflowsResponse } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** The connected instance's workflows, with n8n's own active state and their Webhook node's URL. */
export async function getN8nWorkflows(signal?: AbortSignal) {
  return (await apiRequest('/api/v1/n8n/workflows', n8nWorkflowsResponse, { signal })).workflows;
}

export function getN8nWorkflowsQueryOptions() {
  return queryOptions({
    queryKey: n8nKeys.workflows(),
    queryFn: ({ signal }) => getN8nWorkflows(signal),
    // n8n's answer is the error to show (unreachable, bad key): retrying only delays it.
    retry: false,
  });
}

export function useN8nWorkflows(enabled: boolean) {
  return useQuery({ ...getN8nWorkflowsQueryOptions(), enabled });
}
