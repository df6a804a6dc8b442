import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { hookKeys } from './keys';

/** The subscription goes with its delivery log. */
export function deleteSubscription(id: string) {
  return apiSend(`/api/v1/webhook-subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    retry: false,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: hookKeys.subscriptions() });
    },
  });
}
