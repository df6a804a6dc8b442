import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { invoicesResponse } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { billingKeys, type InvoiceFilters } from './keys';

export const INVOICES_PAGE_SIZE = 50;

/** One page of every client's invoices (admins), newest first; `cursor` is the previous page's. */
export function findInvoices(filters: InvoiceFilters, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest('/api/v1/billing/invoices', invoicesResponse, {
    signal,
    query: { status: filters.status, clientId: filters.clientId, cursor, limit: INVOICES_PAGE_SIZE },
  });
}

export function invoicesQueryOptions(filters: InvoiceFilters) {
  return infiniteQueryOptions({
    queryKey: billingKeys.invoices(filters),
    queryFn: ({ pageParam, signal }) => findInvoices(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    staleTime: 10_000,
  });
}

export function useInvoices(filters: InvoiceFilters) {
  return useInfiniteQuery(invoicesQueryOptions(filters));
}
