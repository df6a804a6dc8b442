import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoiceDetail, type VoidInvoiceInput } from '@common/api/billing';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './invalidate';
import { invoicePath } from './keys';

/** Voids an invoice issued by mistake (admins); refused once anything was paid. */
export function voidInvoice({ invoiceId, ...body }: VoidInvoiceInput & { invoiceId: string }) {
  return apiRequest(`${invoicePath(invoiceId)}/void`, invoiceDetail, { method: 'POST', body });
}

export function useVoidInvoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: voidInvoice, onSettled: () => refreshBilling(queryClient) });
}
