import { queryOptions, useQuery } from '@tanstack/react-query';
import { invoiceDetail } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { billingKeys, invoicePath } from './keys';

/** An invoice and the payments recorded against it. */
export function getInvoice(id: string, signal?: AbortSignal) {
  return apiRequest(invoicePath(id), invoiceDetail, { signal });
}

export function invoiceQueryOptions(id: string) {
  return queryOptions({ queryKey: billingKeys.invoice(id), queryFn: ({ signal }) => getInvoice(id, signal), staleTime: 5_000 });
}

export function useInvoice(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...invoiceQueryOptions(id), enabled: options.enabled ?? true });
}
