/** The record-payment form: the amount as people type it ('120.50'), the day it was received, a note. */
import { z } from 'zod';
import { BILLING_MESSAGES, PAYMENT_MAX_MINOR, PAYMENT_NOTE_MAX, parseAmount, type RecordPaymentInput } from '@common/api/billing';

export const paymentForm = z.object({
  amount: z
    .string()
    .trim()
    .min(1, { error: BILLING_MESSAGES.amountRequired })
    .refine((value) => parseAmount(value) !== null, { error: BILLING_MESSAGES.amountInvalid })
    .refine((value) => (parseAmount(value) ?? 1) > 0, { error: BILLING_MESSAGES.amountPositive })
    .refine((value) => (parseAmount(value) ?? 0) <= PAYMENT_MAX_MINOR, { error: BILLING_MESSAGES.amountTooLarge }),
  paidOn: z.iso.date({ error: BILLING_MESSAGES.dateRequired }),
  note: z.string().max(PAYMENT_NOTE_MAX, { error: BILLING_MESSAGES.noteTooLong }),
});
export type PaymentForm = z.input<typeof paymentForm>;

export function toPaymentInput(form: z.output<typeof paymentForm>): RecordPaymentInput {
  const note = form.note.trim();
  return { amountMinor: parseAmount(form.amount) ?? 0, paidOn: form.paidOn, ...(note ? { note } : {}) };
}

/** The server's field names on the form's. */
export const PAYMENT_FIELD: Record<string, keyof PaymentForm> = { amountMinor: 'amount', paidOn: 'paidOn', note: 'note' };

/** Today in the browser's time zone, as a date input wants it. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
