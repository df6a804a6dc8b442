/** E-mails about billing (docs/billing.md). */
import { render, type RenderedEmail } from './email.templates';

/**
 * To each user of a client whose invoice is overdue: once per invoice, when it becomes overdue.
 * Sent whatever their notification preferences (money owed is account business, like a password
 * reset).
 */
export function invoiceOverdueEmail(
  name: string,
  input: { businessName: string; number: string; period: string; amountText: string; balanceText: string; dueOn: string; paymentMethod: string; url: string },
): RenderedEmail {
  return render(
    'invoice-overdue',
    `Invoice ${input.number} is overdue`,
    [
      `Hi ${name},`,
      `Invoice ${input.number} of ${input.businessName} (${input.period}, ${input.amountText}) was due on ${input.dueOn} and ${input.balanceText} of it is still unpaid.`,
      `Payment method: ${input.paymentMethod}. Please arrange the payment with your Parley administrator; once it is recorded, your subscription is no longer past due.`,
      'If you have paid already, thank you — an administrator will record it shortly.',
    ],
    { label: 'See your invoices', url: input.url },
  );
}
