import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** A draft copy named '{name} (Copy)' with no clients; answers the copy. */
export function cloneTemplate(id: string) {
  return apiRequest(`${templatePath(id)}/clone`, templateView, { method: 'POST' });
}

export function useCloneTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cloneTemplate,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
