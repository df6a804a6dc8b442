import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findTemplatesResponse } from '@common/api/workflows';
import { apiRequest } from '@/lib/api-client';
import { templateKeys } from './keys';

/** Templates of both types, newest first; `q` is searched on the server (name and description). */
export function findTemplates(q: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/templates', findTemplatesResponse, { query: { q }, signal }).then((r) => r.templates);
}

export function useTemplates(q: string) {
  return useQuery({
    ...queryOptions({ queryKey: templateKeys.list(q), queryFn: ({ signal }) => findTemplates(q, signal), staleTime: 10_000 }),
    placeholderData: keepPreviousData,
  });
}
