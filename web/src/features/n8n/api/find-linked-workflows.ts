import { queryOptions, useQuery } from '@tanstack/react-query';
import { findWorkflowsResponse } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** The ids of the n8n workflows Parley already has a linked record for. */
export async function findLinkedN8nWorkflowIds(signal?: AbortSignal): Promise<Set<string>> {
  const { workflows } = await apiRequest('/api/v1/workflows', findWorkflowsResponse, { query: { kind: 'n8n' }, signal });
  return new Set(workflows.flatMap((workflow) => (workflow.n8nWorkflowId === null ? [] : [workflow.n8nWorkflowId])));
}

export function findLinkedN8nWorkflowIdsQueryOptions() {
  return queryOptions({ queryKey: n8nKeys.linked(), queryFn: ({ signal }) => findLinkedN8nWorkflowIds(signal), retry: false });
}

export function useLinkedN8nWorkflowIds(enabled: boolean) {
  return useQuery({ ...findLinkedN8nWorkflowIdsQueryOptions(), enabled });
}
