import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD, type ClientBillingView, type InvoiceView } from '@common/api/billing';
import type { Role } from '@common/roles';
import { setSessionUser } from '@/lib/session';
import { billingKeys } from '../api/keys';
import { BillingTab } from './billing-tab';

const CLIENT_ID = '6f1c2a40-0000-4b5e-9a51-5a7e1e000002';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

function invoice(over: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id: '6f1c2a40-0000-4b5e-9a51-5a7e1e0000a1',
    number: 'PARLEY-2026-000042',
    clientId: CLIENT_ID,
    clientName: 'Harbour Bikes',
    period: '2026-11',
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    description: 'WhatsApp Business AI',
    amountMinor: 49_900,
    paidMinor: 10_000,
    balanceMinor: 39_900,
    currency: 'USD',
    issuedOn: '2026-11-01',
    dueOn: '2026-11-15',
    status: 'overdue',
    paidAt: null,
    voidedAt: null,
    voidReason: null,
    createdAt: '2026-11-01T00:05:00.000Z',
    ...over,
  };
}

function render(data: ClientBillingView, role: Role = 'client'): string {
  setSessionUser({
    id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
    email: 'owner@harbour.test',
    name: 'Olivia Owner',
    role,
    avatarUrl: null,
    phone: null,
    company: null,
    clientId: role === 'client' ? CLIENT_ID : null,
    emailVerified: true,
    mfaEnabled: false,
    createdAt: '2026-01-01T10:00:00.000Z',
    lastLogin: null,
  });
  const client = new QueryClient();
  client.setQueryData(billingKeys.client(CLIENT_ID), data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <BillingTab clientId={CLIENT_ID} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the Billing tab', () => {
  it('shows the plan with its price, the next payment, the payment method and each invoice with Download Invoice', () => {
    const html = render({
      subscription: {
        offerId: 'whatsapp-business',
        offerName: 'WhatsApp Business AI',
        priceMinor: 49_900,
        currency: 'USD',
        priceText: '$499/month',
        activeSince: '2026-10-12T09:00:00.000Z',
        nextPaymentDate: '2026-11-15',
        pastDue: true,
        paymentMethod: PAYMENT_METHOD,
      },
      invoices: [invoice(), invoice({ id: '6f1c2a40-0000-4b5e-9a51-5a7e1e0000a0', number: 'PARLEY-2026-000007', status: 'paid', paidMinor: 31_000, balanceMinor: 0, amountMinor: 31_000, period: '2026-10', periodStart: '2026-10-12', periodEnd: '2026-10-31', dueOn: '2026-10-26' })],
    });
    const text = textOf(html);
    expect(text).toContain('Plan WhatsApp Business AI · $499/month');
    expect(text).toContain('Next payment Overdue since 15 Nov 2026');
    expect(text).toContain(`Payment method ${PAYMENT_METHOD}`);
    expect(text).toContain('Past Due');
    expect(text).toContain('PARLEY-2026-000042');
    expect(text).toContain('12–31 Oct 2026');
    expect(text).toContain('$399.00');
    expect(html).toContain('href="/api/v1/billing/invoices/6f1c2a40-0000-4b5e-9a51-5a7e1e0000a1/pdf"');
    expect(html).toContain('download="PARLEY-2026-000042.pdf"');
    expect(text).toContain('Download Invoice');
    // Client users do not manage billing.
    expect(text).not.toContain('Manage billing');
  });

  it('says plainly when the business has no subscription, and offers admins to start one', () => {
    const empty = { subscription: null, invoices: [] };
    const text = textOf(render(empty));
    expect(text).toContain('No subscription');
    expect(text).toContain('This business has no subscription, so Parley does not invoice it.');
    expect(text).toContain('No invoices yet.');
    expect(text).not.toContain('Start a plan');
    const asAdmin = render(empty, 'admin');
    expect(asAdmin).toContain(`href="/admin/billing?client=${CLIENT_ID}"`);
    expect(textOf(asAdmin)).toContain('Start a plan');
  });
});
