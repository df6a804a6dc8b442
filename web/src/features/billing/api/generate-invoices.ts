import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoiceRunView } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './invalidate';

/** "Generate this month's invoices now": the daily run for the current month (admins; idempotent). */
export function generateInvoices() {
  return apiRequest('/api/v1/billing/runs', invoiceRunView, { method: 'POST', body: {} });
}

export function useGenerateInvoices() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: generateInvoices, onSettled: () => refreshBilling(queryClient) });
}
