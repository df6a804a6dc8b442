import type { InvoiceStatus } from '@common/api/billing';

/** The admin list's filters (undefined: all). */
export interface InvoiceFilters {
  status?: InvoiceStatus | undefined;
  clientId?: string | undefined;
}

export const billingKeys = {
  all: ['billing'] as const,
  client: (clientId: string) => [...billingKeys.all, 'client', clientId] as const,
  invoices: (filters: InvoiceFilters) => [...billingKeys.all, 'invoices', filters] as const,
  invoice: (id: string) => [...billingKeys.all, 'invoice', id] as const,
};

export const invoicePath = (id: string) => `/api/v1/billing/invoices/${encodeURIComponent(id)}`;
/** Download Invoice: the server answers the PDF as an attachment, so a plain link downloads it with the session cookie. */
export const invoicePdfPath = (id: string) => `${invoicePath(id)}/pdf`;
export const clientBillingPath = (clientId: string) => `/api/v1/clients/${encodeURIComponent(clientId)}`;
