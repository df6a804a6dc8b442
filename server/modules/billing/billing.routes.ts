/**
 * HTTP edge of common/api/billing.ts. Reading a client's billing, an invoice and its PDF: admins,
 * managers and the client's own users (another client's ids answer 404, in the service). Every
 * change, the list of every invoice and the run: admins.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  billingClientParams,
  clientBillingView,
  invoiceDetail,
  invoiceParams,
  invoiceRunView,
  invoicesQuery,
  invoicesResponse,
  markPaidInput,
  recordPaymentInput,
  setPlanInput,
  subscriptionSummary,
  voidInvoiceInput,
} from '../../../common/api/billing';
import { requireUser } from '../../http/access';
import type { BillingService } from './billing.service';

export const billingRoutes: FastifyPluginAsyncZod<{ billingService: BillingService }> = async (app, { billingService: service }) => {
  const tags = ['billing'];
  const read = { access: ['admin', 'manager', 'client'] as const };
  const admin = { access: ['admin'] as const };

  app.get(
    '/api/v1/clients/:clientId/billing',
    {
      config: read,
      schema: { tags, summary: "A client's plan (price, next payment date, payment method) and invoices, newest first", params: billingClientParams, response: { 200: clientBillingView } },
    },
    async (request) => service.getClientBilling(requireUser(request), request.params.clientId),
  );

  app.put(
    '/api/v1/clients/:clientId/subscription',
    {
      config: admin,
      schema: {
        tags,
        summary: "Start the client's plan (its first invoice issued at once, pro rata), or change it from the next invoice on",
        params: billingClientParams,
        body: setPlanInput,
        response: { 200: subscriptionSummary },
      },
    },
    async (request) => service.setPlan(requireUser(request), request.params.clientId, request.body.offerId),
  );

  app.get(
    '/api/v1/billing/invoices',
    {
      config: admin,
      schema: { tags, summary: 'Every invoice, newest first, by status and client; cursor pages', querystring: invoicesQuery, response: { 200: invoicesResponse } },
    },
    async (request) => service.findInvoices(request.query),
  );

  app.get(
    '/api/v1/billing/invoices/:id',
    { config: read, schema: { tags, summary: 'An invoice and the payments recorded against it', params: invoiceParams, response: { 200: invoiceDetail } } },
    async (request) => service.getInvoice(requireUser(request), request.params.id),
  );

  app.get(
    '/api/v1/billing/invoices/:id/pdf',
    { config: read, schema: { tags, summary: 'Download Invoice: the invoice as a PDF', params: invoiceParams, produces: ['application/pdf'] } },
    async (request, reply) => {
      const file = await service.invoicePdf(requireUser(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.post(
    '/api/v1/billing/invoices/:id/payments',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Record a cash payment (more than the balance is refused; the balance reaching zero marks the invoice paid)',
        params: invoiceParams,
        body: recordPaymentInput,
        response: { 200: invoiceDetail },
      },
    },
    async (request) => service.recordPayment(requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/v1/billing/invoices/:id/mark-paid',
    {
      config: admin,
      schema: { tags, summary: 'Mark the invoice paid: a cash payment of its whole balance', params: invoiceParams, body: markPaidInput, response: { 200: invoiceDetail } },
    },
    async (request) => service.markPaid(requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/v1/billing/invoices/:id/void',
    {
      config: admin,
      schema: { tags, summary: 'Void an invoice issued by mistake (it keeps its number; refused once anything was paid)', params: invoiceParams, body: voidInvoiceInput, response: { 200: invoiceDetail } },
    },
    async (request) => service.voidInvoice(requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/v1/billing/runs',
    {
      config: admin,
      schema: { tags, summary: "Generate this month's invoices now: the daily run for the current month (idempotent)", response: { 200: invoiceRunView } },
    },
    async (request) => service.generateCurrentInvoices(requireUser(request)),
  );
};
