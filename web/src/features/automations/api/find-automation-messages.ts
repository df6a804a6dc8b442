import { queryOptions, useQuery } from '@tanstack/react-query';
import { automationMessagesResponse, type AutomationMessageView } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';

/** Newest first by timestamp, 100 at most. */
export function findAutomationMessages(automationId: string, signal?: AbortSignal): Promise<AutomationMessageView[]> {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(automationId)}/messages`, automationMessagesResponse, { signal }).then((r) => r.messages);
}

export function automationMessagesQueryOptions(automationId: string) {
  return queryOptions({
    queryKey: automationKeys.messages(automationId),
    queryFn: ({ signal }) => findAutomationMessages(automationId, signal),
    staleTime: 15_000,
  });
}

export function useAutomationMessages(automationId: string) {
  return useQuery(automationMessagesQueryOptions(automationId));
}
