import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** The automations made from it stay. */
export function deleteTemplate(id: string) {
  return apiSend(templatePath(id), { method: 'DELETE' });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
