import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { deliveriesResponse } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys, type DeliveryFilters } from './keys';

export const DELIVERIES_PAGE_SIZE = 50;

/** One page of a subscription's delivery log, newest first; `before` is the previous page's cursor. */
export function findDeliveries(subscriptionId: string, filters: DeliveryFilters, before: string | undefined, signal?: AbortSignal) {
  return apiRequest(`/api/v1/webhook-subscriptions/${encodeURIComponent(subscriptionId)}/deliveries`, deliveriesResponse, {
    signal,
    query: { status: filters.status, event: filters.event, limit: DELIVERIES_PAGE_SIZE, before },
  });
}

export function deliveriesQueryOptions(subscriptionId: string, filters: DeliveryFilters) {
  return infiniteQueryOptions({
    queryKey: hookKeys.deliveryList(subscriptionId, filters),
    queryFn: ({ pageParam, signal }) => findDeliveries(subscriptionId, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_before ?? undefined,
    staleTime: 5_000,
  });
}

export function useDeliveries(subscriptionId: string, filters: DeliveryFilters) {
  return useInfiniteQuery(deliveriesQueryOptions(subscriptionId, filters));
}
