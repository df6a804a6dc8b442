import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templateView } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys, templatePath } from './keys';

/** Also creates the client's automation from the template (name, workflow URL, triggers); 409 when assigned already. */
export function assignTemplateClient({ id, clientId }: { id: string; clientId: string }) {
  return apiRequest(`${templatePath(id)}/clients`, templateView, { method: 'POST', body: { clientId } });
}

export function useAssignTemplateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignTemplateClient,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
