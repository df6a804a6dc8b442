import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoiceDetail, type MarkPaidInput, type RecordPaymentInput } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './invalidate';
import { invoicePath } from './keys';

/** A cash payment of an invoice (admins); more than the balance is refused with a field message. */
export function recordPayment({ invoiceId, ...body }: RecordPaymentInput & { invoiceId: string }) {
  return apiRequest(`${invoicePath(invoiceId)}/payments`, invoiceDetail, { method: 'POST', body });
}

/** Mark paid: a cash payment of the whole balance. */
export function markPaid({ invoiceId, ...body }: MarkPaidInput & { invoiceId: string }) {
  return apiRequest(`${invoicePath(invoiceId)}/mark-paid`, invoiceDetail, { method: 'POST', body });
}

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: recordPayment, onSettled: () => refreshBilling(queryClient) });
}

export function useMarkPaid() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: markPaid, onSettled: () => refreshBilling(queryClient) });
}
