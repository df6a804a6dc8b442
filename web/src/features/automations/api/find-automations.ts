import { queryOptions, useQuery } from '@tanstack/react-query';
import { automationsResponse, type AutomationView } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';

/** Newest first by created_at; client users get their own business's only. */
export function findAutomations(signal?: AbortSignal): Promise<AutomationView[]> {
  return apiRequest('/api/v1/automations', automationsResponse, { signal }).then((r) => r.automations);
}

export function automationsQueryOptions() {
  return queryOptions({ queryKey: automationKeys.list(), queryFn: ({ signal }) => findAutomations(signal), staleTime: 15_000 });
}

export function useAutomations() {
  return useQuery(automationsQueryOptions());
}
