import { queryOptions, useQuery } from '@tanstack/react-query';
import { n8nPayloadTemplateResponse } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** What a run POSTs to a workflow, with this installation's callback URLs (the webhook Test sends it). */
export async function getPayloadTemplate(signal?: AbortSignal) {
  return (await apiRequest('/api/v1/n8n/payload-template', n8nPayloadTemplateResponse, { signal })).template;
}

export function getPayloadTemplateQueryOptions() {
  return queryOptions({ queryKey: n8nKeys.payloadTemplate(), queryFn: ({ signal }) => getPayloadTemplate(signal), staleTime: 5 * 60_000 });
}

export function usePayloadTemplate(enabled = true) {
  return useQuery({ ...getPayloadTemplateQueryOptions(), enabled });
}
