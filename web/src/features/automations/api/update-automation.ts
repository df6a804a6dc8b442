import { useMutation, useQueryClient } from '@tanstack/react-query';
import { automationView, type AutomationView, type UpdateAutomationInput } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';

export function updateAutomation({ id, ...changes }: UpdateAutomationInput & { id: string }) {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(id)}`, automationView, { method: 'PATCH', body: changes });
}

/** Put a changed automation in the cached list at once (the refetch confirms it). */
export function replaceInList(list: AutomationView[] | undefined, automation: AutomationView): AutomationView[] | undefined {
  return list?.map((a) => (a.id === automation.id ? automation : a));
}

export function useUpdateAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAutomation,
    onSuccess: (automation) => queryClient.setQueryData(automationKeys.list(), (list: AutomationView[] | undefined) => replaceInList(list, automation)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: automationKeys.list() }),
  });
}
