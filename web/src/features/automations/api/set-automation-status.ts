import { useMutation, useQueryClient } from '@tanstack/react-query';
import { automationView, type AutomationView } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';
import { replaceInList } from './update-automation';

/** Pause or resume: admins, managers and the client's own users. */
export function setAutomationStatus({ id, status }: { id: string; status: 'active' | 'paused' | 'inactive' }) {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(id)}/status`, automationView, { method: 'POST', body: { status } });
}

export function useSetAutomationStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutomationStatus,
    retry: false,
    onSuccess: (automation) => queryClient.setQueryData(automationKeys.list(), (list: AutomationView[] | undefined) => replaceInList(list, automation)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: automationKeys.list() }),
  });
}
