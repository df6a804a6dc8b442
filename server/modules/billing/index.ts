/**
 * The billing module (issue 17 §2; docs/billing.md): subscriptions, monthly invoices with
 * sequential numbers, their PDF, cash payments and overdue invoices. Owns `subscriptions`,
 * `invoice_counters`, `invoices`, `invoice_payments` and `invoice_reminders`; the users,
 * notifications, e-mail and the security log through the BillingPorts app.ts fills in.
 */
export { BillingService, INVOICE_BATCH, CLIENT_BILLING_PAGE, type BillingPorts, type BillingRecipient, type BillingServiceDeps, type InvoiceFile, type OverdueRun } from './billing.service';
export { billingRoutes } from './billing.routes';
export { monthlyInvoicesJob, overdueInvoicesJob } from './billing.jobs';
export { addDays, billingPeriod, dayOf, monthOf, nextMonth, proratedAmount, type BillingPeriod } from './billing-periods';
