import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clientView, type CreateClientInput } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { clientKeys } from './keys';

export function createClient(values: CreateClientInput) {
  return apiRequest('/api/v1/clients', clientView, { method: 'POST', body: values });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}
