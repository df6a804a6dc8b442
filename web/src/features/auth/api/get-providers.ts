import { queryOptions, useQuery } from '@tanstack/react-query';
import { providersResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export function getProviders(signal?: AbortSignal) {
  return apiRequest('/api/v1/auth/providers', providersResponse, { signal });
}

export function getProvidersQueryOptions() {
  return queryOptions({ queryKey: ['auth', 'providers'], queryFn: ({ signal }) => getProviders(signal) });
}

export function useProviders() {
  return useQuery(getProvidersQueryOptions());
}
