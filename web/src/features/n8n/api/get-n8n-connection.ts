import { queryOptions, useQuery } from '@tanstack/react-query';
import { n8nConnectionResponse } from '@common/api/n8n';
import { apiRequest } from '@/lib/api-client';
import { n8nKeys } from './keys';

/** The installation's n8n connection (null when none is saved); the API key is never part of it. */
export async function getN8nConnection(signal?: AbortSignal) {
  return (await apiRequest('/api/v1/n8n/connection', n8nConnectionResponse, { signal })).connection;
}

export function getN8nConnectionQueryOptions() {
  return queryOptions({ queryKey: n8nKeys.connection(), queryFn: ({ signal }) => getN8nConnection(signal) });
}

export function useN8nConnection() {
  return useQuery(getN8nConnectionQueryOptions());
}
