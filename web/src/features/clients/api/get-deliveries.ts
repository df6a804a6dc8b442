import { queryOptions, useQuery } from '@tanstack/react-query';
import { deliveriesResponse } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { channelKeys } from './keys';

/** An API channel's callback attempts, newest first. */
export function getDeliveries(channelId: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/channels/${encodeURIComponent(channelId)}/deliveries`, deliveriesResponse, { signal }).then((r) => r.deliveries);
}

export function useDeliveries(channelId: string, enabled: boolean) {
  return useQuery({
    ...queryOptions({ queryKey: channelKeys.deliveries(channelId), queryFn: ({ signal }) => getDeliveries(channelId, signal), staleTime: 0 }),
    enabled,
  });
}
