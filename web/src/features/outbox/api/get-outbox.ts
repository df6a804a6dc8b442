import { queryOptions, useQuery } from '@tanstack/react-query';
import { outboxResponse } from '@common/api/admin';
import { apiRequest } from '@/lib/api-client';

export function getOutbox(signal?: AbortSignal) {
  return apiRequest('/api/v1/admin/outbox', outboxResponse, { signal }).then((r) => r.emails);
}

export function getOutboxQueryOptions() {
  return queryOptions({ queryKey: ['outbox', 'list'], queryFn: ({ signal }) => getOutbox(signal), staleTime: 0 });
}

export function useOutbox() {
  return useQuery(getOutboxQueryOptions());
}
