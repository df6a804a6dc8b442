import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientView } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { clientKeys } from './keys';

export function getClient(id: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/clients/${encodeURIComponent(id)}`, clientView, { signal });
}

export function useClient(id: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: clientKeys.detail(id ?? ''), queryFn: ({ signal }) => getClient(id ?? '', signal), staleTime: 30_000 }),
    enabled: id !== null,
  });
}
