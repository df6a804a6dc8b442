import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateApiKeyInput, createdApiKey } from '@common/api/api-keys';
import { apiRequest } from '@/lib/api-client';
import { type ApiKeyKind, apiKeysKeys, apiKeysPath } from './keys';

/** The answer holds the key itself, this once. */
export function createApiKey(kind: ApiKeyKind, input: CreateApiKeyInput) {
  return apiRequest(apiKeysPath(kind), createdApiKey, { method: 'POST', body: input });
}

export function useCreateApiKey(kind: ApiKeyKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => createApiKey(kind, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.list(kind) }),
  });
}
