import type { DeliveryView } from '@common/api/hooks';

export interface DeliveryFilters {
  status?: DeliveryView['status'] | undefined;
  event?: string | undefined;
}

export const hookKeys = {
  all: ['webhooks'] as const,
  subscriptions: () => [...hookKeys.all, 'subscriptions'] as const,
  deliveries: (subscriptionId: string) => [...hookKeys.all, 'deliveries', subscriptionId] as const,
  deliveryList: (subscriptionId: string, filters: DeliveryFilters) => [...hookKeys.deliveries(subscriptionId), 'list', filters] as const,
  delivery: (deliveryId: string) => [...hookKeys.all, 'delivery', deliveryId] as const,
};
