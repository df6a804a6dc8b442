import { queryOptions, useQuery } from '@tanstack/react-query';
import { findChannelsResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { channelKeys } from './keys';

/** A client's channels (admins and managers). */
export function findChannels(clientId: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/channels', findChannelsResponse, { query: { clientId }, signal }).then((r) => r.channels);
}

export function useChannels(clientId: string, enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: channelKeys.list(clientId), queryFn: ({ signal }) => findChannels(clientId, signal), staleTime: 30_000 }),
    enabled,
  });
}
