import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** Active becomes paused, anything else active. */
export function toggleTemplateStatus(id: string) {
  return apiRequest(`${templatePath(id)}/toggle-status`, templateView, { method: 'POST' });
}

export function useToggleTemplateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleTemplateStatus,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
