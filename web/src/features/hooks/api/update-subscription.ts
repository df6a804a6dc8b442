import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionView, type SubscriptionView, type UpdateSubscriptionInput } from '@common/api/hooks';
import { apiRequest } from '@/lib/api-client';
import { hookKeys } from './keys';

/** Name, URL, events or status (pause/resume). */
export function updateSubscription({ id, ...changes }: UpdateSubscriptionInput & { id: string }) {
  return apiRequest(`/api/v1/webhook-subscriptions/${encodeURIComponent(id)}`, subscriptionView, { method: 'PATCH', body: changes });
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubscription,
    retry: false,
    onSuccess: (saved) =>
      queryClient.setQueryData(hookKeys.subscriptions(), (list: SubscriptionView[] | undefined) => list?.map((s) => (s.id === saved.id ? saved : s))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() }),
  });
}
