import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdAutomation, type CreateAutomationInput } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';
import { automationKeys } from './keys';

/** Admins only; the answer carries the signing secret, shown this once. */
export function createAutomation(values: CreateAutomationInput) {
  return apiRequest('/api/v1/automations', createdAutomation, { method: 'POST', body: values });
}

export function useCreateAutomation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAutomation,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: automationKeys.list() }),
  });
}
