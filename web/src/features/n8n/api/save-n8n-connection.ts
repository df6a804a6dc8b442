import { useMutation, useQueryClient } from '@tanstack/react-query';
import { n8nConnectionView, type SaveN8nConnectionInput } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** Saves the base URL (and the key when typed), then the server tests them: the answer carries that test. */
export function saveN8nConnection(input: SaveN8nConnectionInput) {
  return apiRequest('/api/v1/n8n/connection', n8nConnectionView, { method: 'PUT', body: input });
}

export function useSaveN8nConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveN8nConnection,
    retry: false,
    onSuccess: async (connection) => {
      queryClient.setQueryData(n8nKeys.connection(), connection);
      await queryClient.invalidateQueries({ queryKey: n8nKeys.workflows() });
    },
  });
}
