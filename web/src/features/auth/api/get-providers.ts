import { queryOptions, useQuery } from '@tanstack/react-query';
import { providersResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';
import { bootData } from '@/lib/boot-data';

export function getProviders(signal?: AbortSignal) {
  return apiRequest('/api/v1/auth/providers', providersResponse, { signal });
}

export function getProvidersQueryOptions() {
  // A pre-rendered auth page carries the answer (server/http/web-app.ts), so the buttons it showed stay put.
  const initialData = bootData().providers;
  return queryOptions({ queryKey: ['auth', 'providers'], queryFn: ({ signal }) => getProviders(signal), ...(initialData ? { initialData } : {}) });
}

export function useProviders() {
  return useQuery(getProvidersQueryOptions());
}
