import { queryOptions, useQuery } from '@tanstack/react-query';
import { n8nWorkflowJson } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** The template's importable n8n workflow (only asked for when it has one). */
export function getTemplateN8nWorkflow(id: string, signal?: AbortSignal) {
  return apiRequest(`${templatePath(id)}/n8n-workflow`, n8nWorkflowJson, { signal });
}

export function useTemplateN8nWorkflow(id: string, enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: templateKeys.n8nWorkflow(id), queryFn: ({ signal }) => getTemplateN8nWorkflow(id, signal), staleTime: 0 }),
    enabled,
  });
}
