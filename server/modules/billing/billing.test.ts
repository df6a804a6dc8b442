/**
 * Billing (issue 17 §2, docs/billing.md) on both engines: a month's invoices for several clients
 * (pro rata for the start month, deactivated clients skipped, a rerun issuing nothing), numbers
 * without gaps or duplicates with two instances issuing the same month at once (and through the
 * recurring job), plans started and changed, cash payments (partial, more than the balance refused
 * with a field message, mark paid, void), overdue invoices with exactly one reminder e-mail per
 * client user and the past-due badge until paid, Download Invoice's PDF, and who may call what
 * (404 across clients).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, formatAmount, PAYMENT_METHOD, type ClientBillingView, type InvoiceDetail, type InvoiceRunView, type InvoicesResponse, type SubscriptionSummary } from '../../../common/api/billing';
import type { ClientDashboardView } from '../../../common/api/client-dashboard';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestClient } from '../../../test/helpers/messaging';
import { pdfText } from '../../../test/helpers/pdf-text';
import { addDays, billingPeriod, dayOf, proratedAmount } from './billing-periods';
import { monthlyInvoicesJob } from './billing.jobs';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('billing (%s)', (engine) => {
  let app: TestApp;
  /** A second instance on the same database. */
  let other: TestApp;
  let admin: { client: TestClient; userId: string };

  beforeAll(async () => {
    app = await createTestApp(engine);
    other = await createTestApp(engine, { database: await secondInstance(app.database) });
    admin = await signedInClient(app, 'admin');
  });
  afterAll(async () => {
    await other?.destroy();
    await app?.destroy();
  });

  const db = () => app.database.db;
  const billing = () => app.services.billing;
  /** Every client so far stops being invoiced: a run then only sees the clients a test makes. */
  const deactivateEveryClient = () => db().updateTable('clients').set({ status: 'inactive' }).execute();
  const invoicesOf = (clientId: string) =>
    db()
      .selectFrom('invoices')
      .select(['id', 'number', 'numberYear', 'numberSeq', 'period', sql<string>`period_start::text`.as('periodStart'), sql<string>`period_end::text`.as('periodEnd'), 'amountMinor', 'paidMinor', 'status', sql<string>`issued_on::text`.as('issuedOn'), sql<string>`due_on::text`.as('dueOn'), 'offerId', 'description'])
      .where('clientId', '=', clientId)
      .orderBy('numberYear')
      .orderBy('numberSeq')
      .execute();
  const clientBilling = async (who: TestClient, clientId: string) => expectJson<ClientBillingView>(await who.get(`/api/v1/clients/${clientId}/billing`), 200);

  /** For every year: the numbers are exactly 1…n, each once, and the counter says n. */
  async function expectContiguousNumbers(): Promise<void> {
    const rows = await db().selectFrom('invoices').select(['numberYear', 'numberSeq', 'number']).orderBy('numberYear').orderBy('numberSeq').execute();
    const counters = await db().selectFrom('invoiceCounters').selectAll().execute();
    for (const counter of counters) {
      const seqs = rows.filter((r) => r.numberYear === counter.year).map((r) => r.numberSeq);
      expect(seqs).toEqual(Array.from({ length: counter.lastNumber }, (_, i) => i + 1));
    }
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
    for (const row of rows) expect(row.number).toBe(`PARLEY-${row.numberYear}-${String(row.numberSeq).padStart(6, '0')}`);
  }

  it('issues one invoice per active client and month — pro rata for the start month — skips deactivated clients and issues nothing on a rerun', async () => {
    await deactivateEveryClient();
    const ada = await createTestClient(app, 'Ada Bakery');
    const ben = await createTestClient(app, 'Ben Bikes');
    const cy = await createTestClient(app, 'Cy Cafe');
    const dormant = await createTestClient(app, 'Dormant Deli');
    await db().updateTable('clients').set({ status: 'inactive' }).where('id', '=', dormant.id).execute();

    // February: Ada from the 1st (the whole month), Ben from the 15th (14 of 28 days).
    await billing().startSubscription(db(), { clientId: ada.id, offerId: 'instagram-dm', startedAt: new Date('2025-02-01T09:30:00Z') });
    await billing().startSubscription(db(), { clientId: ben.id, offerId: 'facebook-leads', startedAt: new Date('2025-02-15T18:00:00Z') });
    await billing().startSubscription(db(), { clientId: dormant.id, offerId: 'instagram-dm', startedAt: new Date('2025-02-01T00:00:00Z') });
    expect(await invoicesOf(ada.id)).toEqual([
      expect.objectContaining({ period: '2025-02', periodStart: '2025-02-01', periodEnd: '2025-02-28', amountMinor: 29_900, status: 'open', issuedOn: '2025-02-01', dueOn: '2025-02-15', offerId: 'instagram-dm', description: 'Instagram DM AI' }),
    ]);
    expect(await invoicesOf(ben.id)).toEqual([expect.objectContaining({ period: '2025-02', periodStart: '2025-02-15', periodEnd: '2025-02-28', amountMinor: 19_950, issuedOn: '2025-02-15', dueOn: '2025-03-01' })]);
    // A deactivated client is not invoiced, not even its first month.
    expect(await invoicesOf(dormant.id)).toEqual([]);

    // March: Cy starts on the 10th (22 of 31 days, issued then); the run on the 1st invoices Ada and Ben for the whole month.
    const march = await billing().generateInvoices('2025-03', { issuedOn: '2025-03-01' });
    expect(march).toEqual<InvoiceRunView>({ period: '2025-03', created: 2, invoiced: 2 });
    await billing().startSubscription(db(), { clientId: cy.id, offerId: 'whatsapp-business', startedAt: new Date('2025-03-10T12:00:00Z') });
    const cyAmount = proratedAmount(49_900, '2025-03-10', billingPeriod('2025-03'));
    expect(cyAmount).toBe(Math.round((49_900 * 22) / 31));
    expect(await invoicesOf(cy.id)).toEqual([expect.objectContaining({ period: '2025-03', periodStart: '2025-03-10', periodEnd: '2025-03-31', amountMinor: cyAmount, issuedOn: '2025-03-10', dueOn: '2025-03-24' })]);
    expect((await invoicesOf(ada.id)).at(-1)).toMatchObject({ period: '2025-03', periodStart: '2025-03-01', periodEnd: '2025-03-31', amountMinor: 29_900, issuedOn: '2025-03-01', dueOn: '2025-03-15' });
    expect((await invoicesOf(ben.id)).at(-1)).toMatchObject({ period: '2025-03', amountMinor: 39_900 });

    // The same month again, on either instance: nothing new.
    expect(await billing().generateInvoices('2025-03', { issuedOn: '2025-03-02' })).toEqual({ period: '2025-03', created: 0, invoiced: 3 });
    expect(await other.services.billing.generateInvoices('2025-03')).toEqual({ period: '2025-03', created: 0, invoiced: 3 });
    expect(await invoicesOf(dormant.id)).toEqual([]);

    // Starting again changes the plan from the next invoice: March keeps its amount, April is the new price.
    await billing().startSubscription(db(), { clientId: ada.id, offerId: 'whatsapp-business', startedAt: new Date('2025-03-20T00:00:00Z') });
    expect(await db().selectFrom('subscriptions').selectAll().where('clientId', '=', ada.id).execute()).toEqual([
      expect.objectContaining({ offerId: 'whatsapp-business', priceMinor: 49_900, currency: 'USD', startedAt: new Date('2025-02-01T09:30:00Z') }),
    ]);
    await billing().generateInvoices('2025-04', { issuedOn: '2025-04-01' });
    expect((await invoicesOf(ada.id)).map((i) => [i.period, i.amountMinor, i.offerId])).toEqual([
      ['2025-02', 29_900, 'instagram-dm'],
      ['2025-03', 29_900, 'instagram-dm'],
      ['2025-04', 49_900, 'whatsapp-business'],
    ]);
    await expectContiguousNumbers();
  });

  it('numbers invoices without gaps or duplicates when two instances issue the same month at once, and through the recurring job', async () => {
    await deactivateEveryClient();
    const clients = 1_150;
    // Many clients with a subscription since December 2023 (more than two batches of 500 each).
    await sql`
      with made as (
        insert into clients (company_name, status)
        select 'Batch client ' || lpad(k::text, 4, '0'), 'active' from generate_series(1, ${clients}::int) k
        returning id
      )
      insert into subscriptions (client_id, offer_id, price_minor, currency, started_at)
      select id, 'instagram-dm', 29900, 'USD', '2023-12-01T00:00:00Z' from made`.execute(db());

    const runs = await Promise.all([
      billing().generateInvoices('2030-01', { issuedOn: '2030-01-01' }),
      other.services.billing.generateInvoices('2030-01', { issuedOn: '2030-01-01' }),
      billing().generateInvoices('2030-01', { issuedOn: '2030-01-01' }),
    ]);
    expect(runs.reduce((sum, run) => sum + run.created, 0)).toBe(clients);
    const issued = await db().selectFrom('invoices').select(['numberSeq', 'clientId']).where('period', '=', '2030-01').orderBy('numberSeq').execute();
    expect(issued.map((row) => row.numberSeq)).toEqual(Array.from({ length: clients }, (_, i) => i + 1));
    expect(new Set(issued.map((row) => row.clientId)).size).toBe(clients);
    expect(await db().selectFrom('invoiceCounters').select('lastNumber').where('year', '=', 2030).executeTakeFirstOrThrow()).toEqual({ lastNumber: clients });

    // The daily job (its run of 1 March 2024, a day past: the schedule then carries on from today) issues that month's invoices, on whichever instance takes it.
    await app.queue.enqueue(monthlyInvoicesJob.job, { period: '2024-03-01' });
    for (let round = 0; round < 2; round += 1) await Promise.all([app.queue.waitForIdle(60_000), other.queue.waitForIdle(60_000)]);
    const byJob = await db().selectFrom('invoices').select(['numberSeq', sql<string>`issued_on::text`.as('issuedOn'), sql<string>`due_on::text`.as('dueOn')]).where('period', '=', '2024-03').orderBy('numberSeq').execute();
    expect(byJob.map((row) => row.numberSeq)).toEqual(Array.from({ length: clients }, (_, i) => i + 1));
    expect(new Set(byJob.map((row) => `${row.issuedOn} ${row.dueOn}`))).toEqual(new Set(['2024-03-01 2024-03-15']));
    await expectContiguousNumbers();
    // Out of the later tests' way: no more invoices for these clients, and none of theirs falls overdue.
    await deactivateEveryClient();
    await db().updateTable('invoices').set({ status: 'void', voidedAt: new Date(), voidReason: 'Test data' }).where('period', '=', '2024-03').execute();
  });

  it('lets admins start and change a client’s plan; a client without one has no subscription and no invoices', async () => {
    const client = await createTestClient(app, 'Plan Pottery');
    const owner = await signedInClientUser(app, client.id, 'Polly Potter');
    expect(await clientBilling(owner.client, client.id)).toEqual({ subscription: null, invoices: [] });

    const started = expectJson<SubscriptionSummary>(await admin.client.put(`/api/v1/clients/${client.id}/subscription`, { offerId: 'instagram-dm' }), 200);
    expect(started).toMatchObject({ offerId: 'instagram-dm', offerName: 'Instagram DM AI', priceMinor: 29_900, currency: 'USD', priceText: '$299/month', pastDue: false, paymentMethod: PAYMENT_METHOD });
    const view = await clientBilling(owner.client, client.id);
    expect(view.subscription).toEqual(started);
    expect(view.invoices).toHaveLength(1);
    const first = view.invoices[0]!;
    const today = dayOf(new Date());
    expect(first).toMatchObject({ clientName: 'Plan Pottery', period: today.slice(0, 7), periodStart: today, issuedOn: today, dueOn: addDays(today, 14), status: 'open', balanceMinor: first.amountMinor });
    expect(first.amountMinor).toBe(proratedAmount(29_900, today, billingPeriod(today.slice(0, 7))));
    // The next payment is the open invoice's due date.
    expect(view.subscription?.nextPaymentDate).toBe(first.dueOn);

    const changed = expectJson<SubscriptionSummary>(await admin.client.put(`/api/v1/clients/${client.id}/subscription`, { offerId: 'facebook-leads' }), 200);
    expect(changed).toMatchObject({ offerId: 'facebook-leads', priceText: '$399/month', activeSince: started.activeSince });
    expect((await clientBilling(admin.client, client.id)).invoices.map((i) => i.amountMinor)).toEqual([first.amountMinor]);
    const events = await db().selectFrom('securityEvents').select(['userId', 'details']).where('type', '=', 'billing.plan_changed').execute();
    const ofClient = events.filter((e) => e.details['clientId'] === client.id);
    expect(ofClient).toHaveLength(2);
    expect(ofClient).toEqual(
      expect.arrayContaining([
        { userId: admin.userId, details: expect.objectContaining({ offerId: 'instagram-dm', started: true, previousOfferId: null }) },
        { userId: admin.userId, details: expect.objectContaining({ offerId: 'facebook-leads', started: false, previousOfferId: 'instagram-dm' }) },
      ]),
    );

    const bad = await admin.client.put(`/api/v1/clients/${client.id}/subscription`, { offerId: 'telegram-bot' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ offerId: 'Choose one of the templates' });
    expect((await admin.client.put(`/api/v1/clients/${crypto.randomUUID()}/subscription`, { offerId: 'instagram-dm' })).statusCode).toBe(404);

    // "Generate this month's invoices now": the client already has this month's; a second run issues nothing.
    const run = expectJson<InvoiceRunView>(await admin.client.post('/api/v1/billing/runs'), 200);
    expect(run.period).toBe(today.slice(0, 7));
    expect(expectJson<InvoiceRunView>(await admin.client.post('/api/v1/billing/runs'), 200)).toMatchObject({ period: run.period, created: 0, invoiced: run.invoiced });
    expect((await clientBilling(admin.client, client.id)).invoices).toHaveLength(1);
  });

  it('records cash payments: a partial one leaves the balance, more than the balance is refused with a field message, mark paid settles it; void', async () => {
    const client = await createTestClient(app, 'Cash Corner');
    await billing().startSubscription(db(), { clientId: client.id, offerId: 'whatsapp-business', startedAt: new Date(Date.now() - 70 * DAY_MS) });
    await billing().generateInvoices(dayOf(new Date(Date.now() - 35 * DAY_MS)).slice(0, 7));
    const [first, second] = [...(await clientBilling(admin.client, client.id)).invoices].reverse();
    expect(first && second).toBeTruthy();
    const invoice = first!;
    const url = `/api/v1/billing/invoices/${invoice.id}`;
    const today = dayOf(new Date());

    // A third of it (the first invoice is pro rata: its amount depends on the day the test runs).
    const part = Math.floor(invoice.amountMinor / 3);
    const partial = expectJson<InvoiceDetail>(await admin.client.post(`${url}/payments`, { amountMinor: part, paidOn: today, note: 'Cash at the front desk' }), 200);
    expect(partial.invoice).toMatchObject({ status: 'open', paidMinor: part, balanceMinor: invoice.amountMinor - part, paidAt: null });
    expect(partial.payments).toEqual([expect.objectContaining({ amountMinor: part, paidOn: today, note: 'Cash at the front desk', recordedBy: { id: admin.userId, name: 'Test admin' } })]);

    const balance = invoice.amountMinor - part;
    const over = await admin.client.post(`${url}/payments`, { amountMinor: balance + 1, paidOn: today });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.fields).toEqual({ amountMinor: BILLING_MESSAGES.overpaid(formatAmount(balance, 'USD')) });
    expect((await admin.client.post(`${url}/payments`, { amountMinor: 100, paidOn: addDays(today, 3) })).json().error.fields).toEqual({ paidOn: BILLING_MESSAGES.dateFuture });
    expect((await admin.client.post(`${url}/payments`, { amountMinor: 0, paidOn: today })).json().error.fields).toEqual({ amountMinor: BILLING_MESSAGES.amountPositive });
    expect((await admin.client.post(`${url}/payments`, { amountMinor: 12.5, paidOn: today })).statusCode).toBe(400);
    expect((await admin.client.post(`${url}/payments`, { amountMinor: 100, paidOn: 'yesterday' })).statusCode).toBe(400);
    expect((await admin.client.post(`${url}/payments`, { amountMinor: 100, paidOn: today, note: '<script>alert(1)</script>' })).statusCode).toBe(400);
    // Nothing of the refused payments was stored.
    expect(expectJson<InvoiceDetail>(await admin.client.get(url), 200)).toMatchObject({ invoice: { paidMinor: part }, payments: [expect.anything()] });

    const paid = expectJson<InvoiceDetail>(await admin.client.post(`${url}/mark-paid`, {}), 200);
    expect(paid.invoice).toMatchObject({ status: 'paid', paidMinor: invoice.amountMinor, balanceMinor: 0, paidAt: expect.any(String) });
    expect(paid.payments.map((p) => p.amountMinor)).toEqual([part, balance]);
    const again = await admin.client.post(`${url}/payments`, { amountMinor: 1, paidOn: today });
    expect([again.statusCode, again.json().error.message]).toEqual([409, BILLING_MESSAGES.alreadyPaid]);
    expect((await admin.client.post(`${url}/void`, { reason: 'Mistake' })).statusCode).toBe(409);
    const recorded = await db().selectFrom('securityEvents').select('details').where('type', '=', 'billing.payment_recorded').where('userId', '=', admin.userId).execute();
    expect(
      recorded
        .filter((e) => e.details['invoiceId'] === invoice.id)
        .map((e) => Number(e.details['amountMinor']))
        .sort((a, b) => a - b),
    ).toEqual([part, balance].sort((a, b) => a - b));

    // The second invoice, issued by mistake: voided with a reason, it keeps its number and takes no payment.
    const voidUrl = `/api/v1/billing/invoices/${second!.id}`;
    expect((await admin.client.post(`${voidUrl}/void`, { reason: '   ' })).json().error.fields).toEqual({ reason: BILLING_MESSAGES.reasonRequired });
    const voided = expectJson<InvoiceDetail>(await admin.client.post(`${voidUrl}/void`, { reason: 'Issued by mistake' }), 200);
    expect(voided.invoice).toMatchObject({ status: 'void', balanceMinor: 0, voidReason: 'Issued by mistake', number: second!.number, voidedAt: expect.any(String) });
    expect((await admin.client.post(`${voidUrl}/void`, { reason: 'Again' })).statusCode).toBe(409);
    const payVoid = await admin.client.post(`${voidUrl}/payments`, { amountMinor: 1, paidOn: today });
    expect([payVoid.statusCode, payVoid.json().error.message]).toEqual([409, BILLING_MESSAGES.voided]);
    expect((await admin.client.post(`/api/v1/billing/invoices/${crypto.randomUUID()}/payments`, { amountMinor: 1, paidOn: today })).statusCode).toBe(404);
  });

  it('marks invoices past their due date overdue and e-mails each client user exactly one reminder; the admins are told; paying clears past due', async () => {
    const client = await createTestClient(app, 'Late Lemonade');
    const owner = await signedInClientUser(app, client.id, 'Lena Late');
    const partner = await signedInClientUser(app, client.id, 'Pat Partner');
    const otherAdmin = await signedInClient(app, 'admin');
    // Started 40 days ago: its first invoice was due 26 days ago.
    await billing().startSubscription(db(), { clientId: client.id, offerId: 'instagram-dm', startedAt: new Date(Date.now() - 40 * DAY_MS) });
    const [invoice] = await invoicesOf(client.id);
    expect(invoice).toMatchObject({ status: 'open' });
    expect((await billing().subscriptionOf(client.id))?.pastDue).toBe(false);

    // Both instances check at once: the invoice turns overdue once, each user gets one reminder.
    await Promise.all([billing().markOverdue(), other.services.billing.markOverdue()]);
    await Promise.all([billing().markOverdue(), other.services.billing.markOverdue()]);
    expect((await invoicesOf(client.id))[0]).toMatchObject({ status: 'overdue' });
    const reminders = await db().selectFrom('emails').select(['toAddress', 'subject', 'textBody']).where('kind', '=', 'invoice-overdue').where('toAddress', 'in', [owner.email, partner.email]).execute();
    expect(reminders.map((r) => r.toAddress).sort()).toEqual([owner.email, partner.email].sort());
    expect(reminders[0]?.subject).toBe(`Invoice ${invoice!.number} is overdue`);
    expect(reminders[0]?.textBody).toContain(`${formatAmount(invoice!.amountMinor, 'USD')}`);
    expect(reminders[0]?.textBody).toContain(PAYMENT_METHOD);
    expect(await billing().findReminder(invoice!.id)).toMatchObject({ recipients: 2 });
    const notified = await db().selectFrom('notifications').select(['userId', 'link']).where('kind', '=', 'billing.invoices_overdue').where('userId', '=', otherAdmin.userId).execute();
    expect(notified).toEqual([{ userId: otherAdmin.userId, link: '/admin/billing?status=overdue' }]);

    // Past due: on the subscription and the dashboard's badge.
    const summary = await billing().subscriptionOf(client.id);
    expect(summary).toMatchObject({ pastDue: true, nextPaymentDate: invoice!.dueOn });
    const dashboard = expectJson<ClientDashboardView>(await owner.client.get(`/api/v1/clients/${client.id}/dashboard`), 200);
    expect(dashboard.plan).toMatchObject({ offerId: 'instagram-dm', pastDue: true });
    expect(dashboard.subscriptionStatus).toBe('past_due');

    // A partial payment leaves it overdue; paying the rest clears it.
    await admin.client.post(`/api/v1/billing/invoices/${invoice!.id}/payments`, { amountMinor: 100, paidOn: dayOf(new Date()) });
    expect((await billing().subscriptionOf(client.id))?.pastDue).toBe(true);
    expectJson(await admin.client.post(`/api/v1/billing/invoices/${invoice!.id}/mark-paid`, { note: 'Rest in cash' }), 200);
    expect((await billing().subscriptionOf(client.id))?.pastDue).toBe(false);
    expect(expectJson<ClientDashboardView>(await owner.client.get(`/api/v1/clients/${client.id}/dashboard`), 200).subscriptionStatus).toBe('active');
    // No more reminders for it.
    await billing().markOverdue();
    expect(await db().selectFrom('emails').select('id').where('kind', '=', 'invoice-overdue').where('toAddress', '=', owner.email).execute()).toHaveLength(1);
  });

  it('Download Invoice: a PDF with the number, business, line item, amount and payment method; client users only their own', async () => {
    const client = await createTestClient(app, 'Harbour Bikes');
    await db().updateTable('clients').set({ contactPerson: 'Olivia Owner', email: 'olivia@harbour.test' }).where('id', '=', client.id).execute();
    const owner = await signedInClientUser(app, client.id, 'Olivia Owner');
    const stranger = await signedInClientUser(app, (await createTestClient(app, 'Other Shop')).id, 'Sam Stranger');
    const manager = await signedInClient(app, 'manager');
    await billing().startSubscription(db(), { clientId: client.id, offerId: 'whatsapp-business', startedAt: new Date() });
    const [invoice] = (await clientBilling(owner.client, client.id)).invoices;
    await admin.client.post(`/api/v1/billing/invoices/${invoice!.id}/payments`, { amountMinor: 1_234, paidOn: dayOf(new Date()), note: 'Deposit' });

    const response = await owner.client.get(`/api/v1/billing/invoices/${invoice!.id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${invoice!.number}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(response.rawPayload);
    for (const expected of [
      invoice!.number,
      'Harbour Bikes',
      'Olivia Owner',
      'WhatsApp Business AI',
      'Monthly subscription',
      formatAmount(invoice!.amountMinor, 'USD'),
      formatAmount(1_234, 'USD'),
      formatAmount(invoice!.amountMinor - 1_234, 'USD'),
      'Status: Open',
      PAYMENT_METHOD,
      'Deposit',
    ]) {
      expect(text).toContain(expected);
    }
    expect((await manager.client.get(`/api/v1/billing/invoices/${invoice!.id}/pdf`)).statusCode).toBe(200);
    expect((await admin.client.get(`/api/v1/billing/invoices/${invoice!.id}/pdf`)).statusCode).toBe(200);

    // Another client's user: as if it did not exist.
    expect((await stranger.client.get(`/api/v1/billing/invoices/${invoice!.id}/pdf`)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/v1/billing/invoices/${invoice!.id}`)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/v1/clients/${client.id}/billing`)).statusCode).toBe(404);
    expect((await owner.client.get(`/api/v1/billing/invoices/${crypto.randomUUID()}/pdf`)).statusCode).toBe(404);
  });

  it('lets only admins change billing or list every invoice; managers and client users read; anonymous callers sign in first', async () => {
    const client = await createTestClient(app, 'Roles Rest');
    const owner = await signedInClientUser(app, client.id, 'Rita Roles');
    const manager = await signedInClient(app, 'manager');
    await billing().startSubscription(db(), { clientId: client.id, offerId: 'facebook-leads', startedAt: new Date() });
    const [invoice] = (await clientBilling(admin.client, client.id)).invoices;
    const id = invoice!.id;
    const today = dayOf(new Date());
    const changes = [
      (who: TestClient) => who.get('/api/v1/billing/invoices'),
      (who: TestClient) => who.post(`/api/v1/billing/invoices/${id}/payments`, { amountMinor: 1, paidOn: today }),
      (who: TestClient) => who.post(`/api/v1/billing/invoices/${id}/mark-paid`, {}),
      (who: TestClient) => who.post(`/api/v1/billing/invoices/${id}/void`, { reason: 'No' }),
      (who: TestClient) => who.put(`/api/v1/clients/${client.id}/subscription`, { offerId: 'instagram-dm' }),
      (who: TestClient) => who.post('/api/v1/billing/runs'),
    ];
    for (const call of changes) {
      expect((await call(owner.client)).statusCode).toBe(403);
      expect((await call(manager.client)).statusCode).toBe(403);
      expect((await call(app.client())).statusCode).toBe(401);
    }
    // Nothing changed.
    expect(expectJson<InvoiceDetail>(await owner.client.get(`/api/v1/billing/invoices/${id}`), 200)).toMatchObject({ invoice: { status: 'open', paidMinor: 0 }, payments: [] });
    expect((await clientBilling(manager.client, client.id)).subscription?.offerId).toBe('facebook-leads');
    for (const path of [`/api/v1/clients/${client.id}/billing`, `/api/v1/billing/invoices/${id}`, `/api/v1/billing/invoices/${id}/pdf`]) {
      expect((await app.client().get(path)).statusCode).toBe(401);
    }

    // The admin's list: filters and cursor pages.
    const open = expectJson<InvoicesResponse>(await admin.client.get(`/api/v1/billing/invoices?clientId=${client.id}&status=open`), 200);
    expect(open.invoices.map((i) => i.id)).toEqual([id]);
    expect(expectJson<InvoicesResponse>(await admin.client.get(`/api/v1/billing/invoices?clientId=${client.id}&status=paid`), 200).invoices).toEqual([]);
    const firstPage = expectJson<InvoicesResponse>(await admin.client.get('/api/v1/billing/invoices?limit=2'), 200);
    expect(firstPage.invoices).toHaveLength(2);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const secondPage = expectJson<InvoicesResponse>(await admin.client.get(`/api/v1/billing/invoices?limit=2&cursor=${firstPage.nextCursor}`), 200);
    expect(secondPage.invoices.map((i) => i.id).some((x) => firstPage.invoices.some((i) => i.id === x))).toBe(false);
    const numbers = [...firstPage.invoices, ...secondPage.invoices].map((i) => i.number);
    expect(numbers).toEqual([...numbers].sort().reverse());
    expect((await admin.client.get('/api/v1/billing/invoices?status=late')).statusCode).toBe(400);
    expect((await admin.client.get('/api/v1/billing/invoices?cursor=abc')).statusCode).toBe(400);
  });
});
