import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionSummary } from '@common/api/billing';
import type { OfferId } from '@common/api/offers';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './invalidate';
import { clientBillingPath } from './keys';

/** Starts a client's plan (its first invoice issued at once), or changes it from the next invoice on (admins). */
export function setPlan({ clientId, offerId }: { clientId: string; offerId: OfferId }) {
  return apiRequest(`${clientBillingPath(clientId)}/subscription`, subscriptionSummary, { method: 'PUT', body: { offerId } });
}

export function useSetPlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setPlan, onSettled: () => refreshBilling(queryClient) });
}
