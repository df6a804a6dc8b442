import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdSubscription, type CreateSubscriptionInput } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** The answer carries the signing secret, shown this once. */
export function createSubscription(input: CreateSubscriptionInput) {
  return apiRequest('/api/v1/webhook-subscriptions', createdSubscription, { method: 'POST', body: input });
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() }),
  });
}
