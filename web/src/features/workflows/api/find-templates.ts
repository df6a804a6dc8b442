import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findTemplatesResponse, n8nWorkflowJson } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** Templates of both types, newest first; `q` is searched on the server (name and description). */
export function findTemplates(q: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/templates', findTemplatesResponse, { query: { q }, signal }).then((r) => r.templates);
}

export function useTemplates(q: string) {
  return useQuery({
    ...queryOptions({ queryKey: templateKeys.list(q), queryFn: ({ signal }) => findTemplates(q, signal), staleTime: 10_000 }),
    placeholderData: keepPreviousData,
  });
}

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
