import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { type ApiKeyKind, apiKeysKeys, apiKeysPath } from './keys';

export function revokeApiKey(kind: ApiKeyKind, id: string): Promise<void> {
  return apiSend(`${apiKeysPath(kind)}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeApiKey(kind: ApiKeyKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeApiKey(kind, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.list(kind) }),
  });
}
