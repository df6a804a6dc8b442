import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deliveryView } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** A signed `ping` event delivered now to the subscription's URL, logged like any delivery. */
export function sendTestEvent(subscriptionId: string) {
  return apiRequest(`/api/v1/webhook-subscriptions/${encodeURIComponent(subscriptionId)}/test`, deliveryView, { method: 'POST' });
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    retry: false,
    onSettled: (_delivery, _error, subscriptionId) => {
      void queryClient.invalidateQueries({ queryKey: hookKeys.deliveries(subscriptionId) });
      void queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() });
    },
  });
}
