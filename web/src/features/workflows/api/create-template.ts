import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView, type CreateTemplateInput } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys } from './keys';

/** A new template; it starts as a draft. */
export function createTemplate(values: CreateTemplateInput) {
  return apiRequest('/api/v1/templates', templateView, { method: 'POST', body: values });
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
