import { queryOptions, useQuery } from '@tanstack/react-query';
import { outboxEmail } from '@common/api/admin';
import { apiRequest } from '@/lib/api-client';

export function getOutboxEmail(id: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/admin/outbox/${encodeURIComponent(id)}`, outboxEmail, { signal });
}

export function getOutboxEmailQueryOptions(id: string) {
  return queryOptions({ queryKey: ['outbox', 'email', id], queryFn: ({ signal }) => getOutboxEmail(id, signal) });
}

export function useOutboxEmail(id: string | null) {
  return useQuery({ ...getOutboxEmailQueryOptions(id ?? ''), enabled: id !== null });
}
