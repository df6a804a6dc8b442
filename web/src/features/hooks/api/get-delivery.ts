import { queryOptions, useQuery } from '@tanstack/react-query';
import { deliveryDetail, type DeliveryDetail } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** One delivery with every attempt: request headers and body, response status, excerpt, error, duration. */
export function getDelivery(deliveryId: string, signal?: AbortSignal): Promise<DeliveryDetail> {
  return apiRequest(`/api/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}`, deliveryDetail, { signal });
}

export function deliveryQueryOptions(deliveryId: string) {
  return queryOptions({ queryKey: hookKeys.delivery(deliveryId), queryFn: ({ signal }) => getDelivery(deliveryId, signal), staleTime: 5_000 });
}

export function useDelivery(deliveryId: string) {
  return useQuery(deliveryQueryOptions(deliveryId));
}
