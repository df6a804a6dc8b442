import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdSubscription } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** A new signing secret, shown this once; deliveries are signed with it from now on. */
export function rotateSubscriptionSecret(id: string) {
  return apiRequest(`/api/v1/webhook-subscriptions/${encodeURIComponent(id)}/rotate-secret`, createdSubscription, { method: 'POST' });
}

export function useRotateSubscriptionSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateSubscriptionSecret,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() }),
  });
}
