import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionsResponse, type SubscriptionView } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** Client users get their own business's subscriptions; admins and managers every one. */
export function findSubscriptions(signal?: AbortSignal): Promise<SubscriptionView[]> {
  return apiRequest('/api/v1/webhook-subscriptions', subscriptionsResponse, { signal }).then((r) => r.subscriptions);
}

export function subscriptionsQueryOptions() {
  return queryOptions({ queryKey: hookKeys.subscriptions(), queryFn: ({ signal }) => findSubscriptions(signal), staleTime: 15_000 });
}

export function useSubscriptions() {
  return useQuery(subscriptionsQueryOptions());
}
