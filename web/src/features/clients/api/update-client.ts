import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { clientView, type updateClientInput } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { clientKeys } from './keys';

export type UpdateClientValues = z.input<typeof updateClientInput>;

export function updateClient({ id, ...changes }: UpdateClientValues & { id: string }) {
  return apiRequest(`/api/v1/clients/${encodeURIComponent(id)}`, clientView, { method: 'PATCH', body: changes });
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: (client) => queryClient.setQueryData(clientKeys.detail(client.id), client),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}
