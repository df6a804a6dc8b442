import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiKeysResponse } from '@common/api/api-keys';
import { apiRequest } from '@/lib/api-client';
import { type ApiKeyKind, apiKeysKeys, apiKeysPath } from './keys';

export function getApiKeys(kind: ApiKeyKind, signal?: AbortSignal) {
  return apiRequest(apiKeysPath(kind), apiKeysResponse, { signal }).then((r) => r.apiKeys);
}

export function getApiKeysQueryOptions(kind: ApiKeyKind) {
  return queryOptions({ queryKey: apiKeysKeys.list(kind), queryFn: ({ signal }) => getApiKeys(kind, signal), staleTime: 0 });
}

export function useApiKeys(kind: ApiKeyKind) {
  return useQuery(getApiKeysQueryOptions(kind));
}
