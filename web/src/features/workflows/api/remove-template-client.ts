import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** The automation the assignment created stays. */
export function removeTemplateClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${templatePath(id)}/clients/${encodeURIComponent(clientId)}`, templateView, { method: 'DELETE' });
}

export function useRemoveTemplateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTemplateClient,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
