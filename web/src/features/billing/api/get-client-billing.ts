import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientBillingView } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { billingKeys, clientBillingPath } from './keys';

/** A client's plan (price, next payment date, payment method) and invoices, newest first. */
export function getClientBilling(clientId: string, signal?: AbortSignal) {
  return apiRequest(`${clientBillingPath(clientId)}/billing`, clientBillingView, { signal });
}

export function clientBillingQueryOptions(clientId: string) {
  return queryOptions({ queryKey: billingKeys.client(clientId), queryFn: ({ signal }) => getClientBilling(clientId, signal), staleTime: 15_000 });
}

export function useClientBilling(clientId: string | null) {
  return useQuery({ ...clientBillingQueryOptions(clientId ?? ''), enabled: clientId !== null });
}
