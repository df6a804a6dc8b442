import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findWorkflowsResponse, type WorkflowKind } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { workflowKeys } from './keys';

/**
 * n8n workflows or zaps, newest first; `q` is searched on the server (name and description).
 * `n8nSync` says whether linked workflows show n8n's live state or the stored one (and why).
 */
export function findWorkflows(kind: WorkflowKind, q: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/workflows', findWorkflowsResponse, { query: { kind, q }, signal });
}

export function workflowsQueryOptions(kind: WorkflowKind, q: string) {
  return queryOptions({ queryKey: workflowKeys.list(kind, q), queryFn: ({ signal }) => findWorkflows(kind, q, signal), staleTime: 10_000 });
}

export function useWorkflows(kind: WorkflowKind, q: string) {
  // Keep the previous answer on screen while the next search loads.
  return useQuery({ ...workflowsQueryOptions(kind, q), placeholderData: keepPreviousData });
}
