/**
 * Billing (issue 17 §2 "Billing"; server: server/modules/billing; docs/billing.md): a client's
 * subscription to a template offer, its monthly invoices with sequential numbers, their PDF, the
 * cash payments administrators record, and overdue invoices. Amounts are integer minor units
 * (cents) with their currency.
 *
 * Admins, managers and the client's own users (another client's ids answer 404):
 *   GET  /api/v1/clients/:clientId/billing            -> clientBillingView (the plan and the invoices)
 *   GET  /api/v1/billing/invoices/:id                 -> invoiceDetail (the invoice and its payments)
 *   GET  /api/v1/billing/invoices/:id/pdf             -> application/pdf (Download Invoice)
 * Admins:
 *   GET  /api/v1/billing/invoices?status=&clientId=&cursor=&limit=  -> invoicesResponse (newest first)
 *   POST /api/v1/billing/invoices/:id/payments        recordPaymentInput -> invoiceDetail
 *        (400 with a field message past the balance; 409 for a paid or void invoice)
 *   POST /api/v1/billing/invoices/:id/mark-paid       markPaidInput -> invoiceDetail (a payment of the balance)
 *   POST /api/v1/billing/invoices/:id/void            voidInvoiceInput -> invoiceDetail (409 once paid in part or whole)
 *   PUT  /api/v1/clients/:clientId/subscription       setPlanInput -> subscriptionSummary (start, or change from the next invoice)
 *   POST /api/v1/billing/runs                         -> invoiceRunView ("Generate this month's invoices now"; idempotent)
 */
import { z } from 'zod';
import { safeText } from '../validation/sanitize';
import { offerId } from './offers';

const isoDate = z.iso.datetime({ offset: true });
const day = z.iso.date();
const count = z.number().int().nonnegative();

/** The only way clients pay (spec part 2 §6). */
export const PAYMENT_METHOD = 'Cash payment - Managed by admin' as const;
/** Days between an invoice's issue and its due date. */
export const INVOICE_DUE_DAYS = 14;
/** Invoice numbers: `PARLEY-2026-000123` (prefix, year of issue, the year's sequence). */
export const INVOICE_NUMBER_PREFIX = 'PARLEY';
/** The most invoices the client's Billing tab lists (five years of months). */
export const CLIENT_INVOICES_LIMIT = 60;
export const PAYMENT_NOTE_MAX = 500;
export const VOID_REASON_MAX = 500;
/** The largest single payment, in minor units (1,000,000.00). */
export const PAYMENT_MAX_MINOR = 100_000_000;
/** Where administrators manage billing (common/routes.ts `adminBilling`). */
export const ADMIN_BILLING_PAGE = '/admin/billing';

export const INVOICE_STATUSES = ['open', 'overdue', 'paid', 'void'] as const;
export const invoiceStatus = z.enum(INVOICE_STATUSES, { error: 'Choose open, overdue, paid or void' });
export type InvoiceStatus = z.infer<typeof invoiceStatus>;
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = { open: 'Open', overdue: 'Overdue', paid: 'Paid', void: 'Void' };

export function invoiceNumber(year: number, sequence: number): string {
  return `${INVOICE_NUMBER_PREFIX}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** An amount as an invoice writes it: always with cents ('$299.00'). */
export function formatAmount(minor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
}

/**
 * What a person typed as an amount ('120', '120.5', '$1,200.50') in minor units; null when it is
 * not an amount with at most two decimals.
 */
export function parseAmount(text: string): number | null {
  const plain = text.trim().replace(/^\$/u, '').replace(/,/gu, '').trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/u.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** A minor-unit amount as the amount field shows it ('120.50'). */
export function amountInputText(minor: number): string {
  return (minor / 100).toFixed(2);
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/u;
export const billingMonth = z.string().regex(MONTH, { error: 'A month, YYYY-MM' });

/** '2026-11' → 'November 2026'. */
export function monthLabel(month: string): string {
  const match = MONTH.exec(month);
  if (!match) return month;
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/** '2026-11-28' → '28 Nov 2026' (UTC: the date as stored, whatever the reader's time zone). */
export function dayLabel(isoDay: string): string {
  const at = new Date(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return isoDay;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/** The days an invoice covers: '1–30 Nov 2026', or '15–30 Nov 2026' for a first, shorter period. */
export function coveredDaysLabel(start: string, end: string): string {
  if (start.slice(0, 7) !== end.slice(0, 7)) return `${dayLabel(start)} – ${dayLabel(end)}`;
  return `${Number(start.slice(8, 10))}–${dayLabel(end)}`;
}

/**
 * A client's subscription as the dashboard and the Billing tab show it. `nextPaymentDate`: the due
 * date of its oldest unpaid invoice, else the due date of next month's invoice (null when the client
 * is deactivated: it is not invoiced). `pastDue`: an invoice of it is overdue.
 */
export const subscriptionSummary = z.object({
  offerId,
  offerName: z.string(),
  priceMinor: z.number().int().positive(),
  currency: z.string(),
  /** '$299/month'. */
  priceText: z.string(),
  /** When the subscription started (ISO): the "active since" date. */
  activeSince: isoDate,
  nextPaymentDate: day.nullable(),
  pastDue: z.boolean(),
  paymentMethod: z.literal(PAYMENT_METHOD),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummary>;

export const invoiceView = z.object({
  id: z.uuid(),
  /** `PARLEY-2026-000123`. */
  number: z.string(),
  clientId: z.uuid(),
  clientName: z.string(),
  /** The billing period, a calendar month (UTC): `2026-11`. */
  period: billingMonth,
  /** The days it covers, both included (a first invoice starts on the subscription's start day). */
  periodStart: day,
  periodEnd: day,
  /** The line item: the offer's name when it was issued. */
  description: z.string(),
  amountMinor: count,
  paidMinor: count,
  balanceMinor: count,
  currency: z.string(),
  issuedOn: day,
  dueOn: day,
  status: invoiceStatus,
  paidAt: isoDate.nullable(),
  voidedAt: isoDate.nullable(),
  voidReason: z.string().nullable(),
  createdAt: isoDate,
});
export type InvoiceView = z.infer<typeof invoiceView>;

export const paymentView = z.object({
  id: z.uuid(),
  invoiceId: z.uuid(),
  amountMinor: count,
  currency: z.string(),
  /** The day the cash was received. */
  paidOn: day,
  note: z.string().nullable(),
  /** The administrator who recorded it (null once the account is gone). */
  recordedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  createdAt: isoDate,
});
export type PaymentView = z.infer<typeof paymentView>;

export const clientBillingView = z.object({
  /** Null: the client has no subscription (a client added before onboarding, say) and is not invoiced. */
  subscription: subscriptionSummary.nullable(),
  /** Newest first, at most CLIENT_INVOICES_LIMIT. */
  invoices: z.array(invoiceView),
});
export type ClientBillingView = z.infer<typeof clientBillingView>;

export const invoiceDetail = z.object({ invoice: invoiceView, payments: z.array(paymentView) });
export type InvoiceDetail = z.infer<typeof invoiceDetail>;

export const invoiceParams = z.object({ id: z.uuid({ error: 'Invalid invoice' }) });
export const billingClientParams = z.object({ clientId: z.uuid({ error: 'Invalid client' }) });

export const invoicesQuery = z.object({
  status: invoiceStatus.optional(),
  clientId: z.uuid({ error: 'Invalid client' }).optional(),
  /** The `nextCursor` of the page before. */
  cursor: z
    .string()
    .regex(/^\d{4}:\d{1,9}$/u, { error: 'Invalid cursor' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type InvoicesQuery = z.infer<typeof invoicesQuery>;

export const invoicesResponse = z.object({ invoices: z.array(invoiceView), nextCursor: z.string().nullable() });
export type InvoicesResponse = z.infer<typeof invoicesResponse>;

export const BILLING_MESSAGES = {
  amountRequired: 'Enter the amount received',
  amountWhole: 'Enter the amount in cents, a whole number',
  amountPositive: 'The amount must be more than zero',
  amountTooLarge: 'The amount is too large',
  amountInvalid: 'Enter an amount such as 120 or 120.50',
  dateRequired: 'Enter the day the payment was received',
  dateFuture: 'The payment date cannot be in the future',
  dateTooEarly: 'The payment date cannot be before the invoice was issued',
  noteTooLong: `The note must be at most ${PAYMENT_NOTE_MAX} characters`,
  reasonRequired: 'Give a reason',
  reasonTooLong: `The reason must be at most ${VOID_REASON_MAX} characters`,
  /** `{balance}`: the balance left, e.g. '$120.00'. */
  overpaid: (balance: string) => `The payment is more than the balance of ${balance}`,
  alreadyPaid: 'This invoice is already paid.',
  voided: 'This invoice is void: it takes no payments.',
  voidWithPayments: 'An invoice with payments cannot be voided.',
  alreadyVoid: 'This invoice is already void.',
} as const;

const paidOn = z.iso.date({ error: BILLING_MESSAGES.dateRequired });
const note = safeText({ max: PAYMENT_NOTE_MAX, tooLong: BILLING_MESSAGES.noteTooLong });

export const recordPaymentInput = z.object({
  amountMinor: z
    .number({ error: BILLING_MESSAGES.amountRequired })
    .int({ error: BILLING_MESSAGES.amountWhole })
    .min(1, { error: BILLING_MESSAGES.amountPositive })
    .max(PAYMENT_MAX_MINOR, { error: BILLING_MESSAGES.amountTooLarge }),
  paidOn,
  note: note.optional(),
});
export type RecordPaymentInput = z.infer<typeof recordPaymentInput>;

/** Mark paid: a payment of the whole balance, received on `paidOn` (default today, UTC). */
export const markPaidInput = z.object({ paidOn: paidOn.optional(), note: note.optional() });
export type MarkPaidInput = z.infer<typeof markPaidInput>;

export const voidInvoiceInput = z.object({
  reason: safeText({ required: BILLING_MESSAGES.reasonRequired, max: VOID_REASON_MAX, tooLong: BILLING_MESSAGES.reasonTooLong }),
});
export type VoidInvoiceInput = z.infer<typeof voidInvoiceInput>;

export const setPlanInput = z.object({ offerId });
export type SetPlanInput = z.infer<typeof setPlanInput>;

/** What a run of the month's invoices did. */
export const invoiceRunView = z.object({
  period: billingMonth,
  /** Invoices this run issued. */
  created: count,
  /** Every invoice of the period after the run. */
  invoiced: count,
});
export type InvoiceRunView = z.infer<typeof invoiceRunView>;
