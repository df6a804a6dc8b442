import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView, type UpdateTemplateInput } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

export function updateTemplate({ id, ...changes }: UpdateTemplateInput & { id: string }) {
  return apiRequest(templatePath(id), templateView, { method: 'PATCH', body: changes });
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTemplate,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
