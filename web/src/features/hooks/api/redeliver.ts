import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deliveryView } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** A new delivery of the same event (same body, signed anew). */
export function redeliver(deliveryId: string) {
  return apiRequest(`/api/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`, deliveryView, { method: 'POST' });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliver,
    retry: false,
    onSettled: (delivery) => {
      if (delivery) void queryClient.invalidateQueries({ queryKey: hookKeys.deliveries(delivery.subscription_id) });
      void queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() });
    },
  });
}
