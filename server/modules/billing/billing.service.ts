/**
 * Billing (issue 17 §2; docs/billing.md): each client's subscription to a template offer, its
 * monthly invoices, their PDF, the cash payments administrators record, and overdue invoices.
 *
 * - Subscriptions: one per client. Starting one (onboarding's approval, or an administrator) copies
 *   the offer's price and currency and issues the first invoice, for the rest of the start month
 *   (pro rata by days), in the caller's transaction; starting again changes the plan from the next
 *   invoice on (the invoices already issued keep their amounts).
 * - Invoices: one per active client and calendar month (UTC), issued by a daily recurring job in
 *   batches (one statement per batch under the year's counter lock: numbers without gaps or
 *   duplicates whatever the number of instances), due INVOICE_DUE_DAYS after issue.
 * - Payments: cash, recorded by administrators in one transaction under the invoice's row lock;
 *   the balance reaching zero marks it paid; more than the balance is refused with a field message.
 * - Overdue: a daily recurring job marks open invoices past their due date overdue (their clients
 *   past due), tells the administrators in the app, and e-mails each such invoice's client users
 *   one reminder (recorded in the transaction that queues the e-mails).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import {
  ADMIN_BILLING_PAGE,
  BILLING_MESSAGES,
  CLIENT_INVOICES_LIMIT,
  formatAmount,
  INVOICE_DUE_DAYS,
  monthLabel,
  PAYMENT_METHOD,
  type ClientBillingView,
  type InvoiceDetail,
  type InvoiceRunView,
  type InvoicesQuery,
  type InvoicesResponse,
  type InvoiceView,
  type MarkPaidInput,
  type PaymentView,
  type RecordPaymentInput,
  type SubscriptionSummary,
  type VoidInvoiceInput,
} from '../../../common/api/billing';
import { findOffer, formatMoney, type OfferId } from '../../../common/api/offers';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { Scheduler } from '../../jobs/schedule';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { invoiceOverdueEmail, type RenderedEmail } from '../email';
import type { SecurityEventInput } from '../security';
import { addDays, billingPeriod, clampToPeriod, dayOf, monthOf, nextMonth } from './billing-periods';
import { monthlyInvoicesJob, overdueInvoicesJob } from './billing.jobs';
import { BillingRepository, type InvoiceRow, type IssuedBatch, type PaymentRow } from './billing.repository';
import { invoicePdf } from './invoice-pdf';

/** Clients invoiced per transaction by a run. */
export const INVOICE_BATCH = 500;
/**
 * A run waits this many times as long as its last batch took before the next one, so it uses
 * at most a tenth of the database's time and webhook deliveries and replies go on at their
 * usual rate while it runs (docs/billing.md "Pacing"): 10,000 clients take a few seconds, not one.
 */
export const INVOICE_RUN_PACE = 9;
/** Overdue invoices read at a time for their reminders. */
const REMINDER_BATCH = 100;

/** Someone billing writes to (UsersService.findRecipients). */
export interface BillingRecipient {
  id: string;
  email: string;
  fullName: string;
}

/** What the module needs from others, filled in by app.ts. Everything that takes `trx` runs in the caller's transaction. */
export interface BillingPorts {
  /** The client's enabled users (role client). */
  clientUsers(clientId: string, trx: Db): Promise<BillingRecipient[]>;
  /** The enabled administrators. */
  admins(trx: Db): Promise<BillingRecipient[]>;
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, trx: Db): Promise<unknown>;
  /** Stores the e-mail in the outbox and queues its delivery; the outbox id. */
  email(to: string, email: RenderedEmail, trx: Db): Promise<string>;
  /** Records an audit (security log) event. */
  securityEvent(event: SecurityEventInput, trx: Db): Promise<void>;
}

export interface BillingServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  ports: BillingPorts;
  /** Clients per transaction of a run (default INVOICE_BATCH; tests use fewer). */
  batchSize?: number;
  /** The wait between a run's batches, as a multiple of the last batch's time (default INVOICE_RUN_PACE; 0: none). */
  pace?: number;
}

/** What a day's overdue check did. */
export interface OverdueRun {
  /** Invoices that became overdue now. */
  overdue: number;
  /** Invoices whose reminder went out now. */
  reminded: number;
}

export interface InvoiceFile {
  filename: string;
  body: Buffer;
}

/** Where a client's users see their invoices. */
export const CLIENT_BILLING_PAGE = '/client-dashboard?tab=billing';

function toInvoiceView(row: InvoiceRow): InvoiceView {
  return {
    id: row.id,
    number: row.number,
    clientId: row.clientId,
    clientName: row.clientName,
    period: row.period,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    description: row.description,
    amountMinor: row.amountMinor,
    paidMinor: row.paidMinor,
    balanceMinor: row.status === 'void' ? 0 : row.amountMinor - row.paidMinor,
    currency: row.currency,
    issuedOn: row.issuedOn,
    dueOn: row.dueOn,
    status: row.status,
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    voidedAt: row.voidedAt ? row.voidedAt.toISOString() : null,
    voidReason: row.voidReason,
    createdAt: row.createdAt.toISOString(),
  };
}

function toPaymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    invoiceId: row.invoiceId,
    amountMinor: row.amountMinor,
    currency: row.currency,
    paidOn: row.paidOn,
    note: row.note,
    recordedBy: row.recordedById ? { id: row.recordedById, name: row.recordedByName ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export class BillingService {
  readonly #repository: BillingRepository;
  readonly #logger: Logger;
  readonly #batchSize: number;
  readonly #pace: number;

  constructor(private readonly deps: BillingServiceDeps) {
    this.#repository = new BillingRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'billing' });
    this.#batchSize = deps.batchSize ?? INVOICE_BATCH;
    this.#pace = deps.pace ?? INVOICE_RUN_PACE;
  }

  /** The daily invoice run (the month the day is in) and the daily overdue check. */
  register(scheduler: Scheduler): void {
    scheduler.register(monthlyInvoicesJob, async (period, ctx) => {
      await this.generateInvoices(monthOf(period.key), { issuedOn: period.key, signal: ctx.signal });
    });
    scheduler.register(overdueInvoicesJob, async (period, ctx) => {
      await this.markOverdue(period.key, ctx.signal);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Subscriptions

  /**
   * Starts the client's subscription to the offer (onboarding's approval), in `db` — the caller's
   * transaction, or a transaction of its own. A client that has one keeps it: its plan changes,
   * from the next invoice on. A new subscription's first invoice is issued at once (if the client
   * is active): the start month from the start day, pro rata.
   */
  async startSubscription(db: Db, input: { clientId: string; offerId: OfferId; startedAt: Date }): Promise<void> {
    await this.#saveSubscription(db, input);
  }

  async #saveSubscription(db: Db, input: { clientId: string; offerId: OfferId; startedAt: Date }): Promise<{ started: boolean; previousOfferId: OfferId | null }> {
    const offer = findOffer(input.offerId);
    if (!offer) throw new AppError('VALIDATION_ERROR', 'Choose one of the templates', { fields: { offerId: 'Choose one of the templates' } });
    const run = async (trx: Db) => {
      const saved = await this.#repository.saveSubscription(trx, {
        clientId: input.clientId,
        offerId: offer.id,
        priceMinor: offer.priceMinor,
        currency: offer.currency,
        startedAt: input.startedAt,
      });
      if (saved.started) {
        const issuedOn = dayOf(input.startedAt);
        const year = Number(issuedOn.slice(0, 4));
        const last = await this.#repository.lockCounter(trx, year);
        await this.#repository.issueBatch(trx, {
          period: billingPeriod(monthOf(input.startedAt)),
          year,
          last,
          issuedOn,
          dueOn: addDays(issuedOn, INVOICE_DUE_DAYS),
          after: null,
          limit: 1,
          clientIds: [input.clientId],
        });
      }
      return saved;
    };
    // The counter's lock must last until the invoice is committed: always inside a transaction.
    return db.isTransaction ? run(db) : db.transaction().execute(run);
  }

  /** The client's subscription as the dashboard shows it; null without one. */
  async subscriptionOf(clientId: string): Promise<SubscriptionSummary | null> {
    const now = this.deps.clock.now();
    const month = monthOf(now);
    const row = await this.#repository.findSubscription(clientId, month);
    if (!row) return null;
    const offer = findOffer(row.offerId);
    let nextPaymentDate: string | null = row.oldestUnpaidDue;
    if (nextPaymentDate === null && row.clientStatus === 'active') {
      // Nothing unpaid: the next invoice's due date — next month's, or this month's if it is
      // still to be issued (by today's run).
      nextPaymentDate = row.invoicedThisMonth ? addDays(billingPeriod(nextMonth(month)).start, INVOICE_DUE_DAYS) : addDays(dayOf(now), INVOICE_DUE_DAYS);
    }
    return {
      offerId: row.offerId,
      offerName: offer?.name ?? row.offerId,
      priceMinor: row.priceMinor,
      currency: row.currency,
      priceText: `${formatMoney(row.priceMinor, row.currency)}/month`,
      activeSince: row.startedAt.toISOString(),
      nextPaymentDate,
      pastDue: row.pastDue,
      paymentMethod: PAYMENT_METHOD,
    };
  }

  /** An administrator starts the client's plan, or changes it from the next invoice on. */
  async setPlan(user: SessionUser, clientId: string, offerId: OfferId): Promise<SubscriptionSummary> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const client = await this.#repository.findClient(clientId, { clientId: null }, trx);
      if (!client) throw notFound('Client');
      const saved = await this.#saveSubscription(trx, { clientId, offerId, startedAt: now });
      if (!saved.started && saved.previousOfferId === offerId) return;
      await this.deps.ports.securityEvent(
        {
          type: 'billing.plan_changed',
          userId: user.id,
          email: user.email,
          details: { clientId, clientName: client.companyName, offerId, previousOfferId: saved.previousOfferId, started: saved.started },
          at: now,
        },
        trx,
      );
    });
    const summary = await this.subscriptionOf(clientId);
    if (!summary) throw notFound('Subscription');
    return summary;
  }

  /** The client's plan and invoices (client users: their own client; another id answers 404). */
  async getClientBilling(user: SessionUser, clientId: string): Promise<ClientBillingView> {
    const client = await this.#repository.findClient(clientId, scopeFor(user));
    if (!client) throw notFound('Client');
    const invoices = await this.#repository.findInvoices({ clientId, limit: CLIENT_INVOICES_LIMIT });
    return { subscription: await this.subscriptionOf(clientId), invoices: invoices.map(toInvoiceView) };
  }

  // ---------------------------------------------------------------------------------------------
  // Invoices

  /**
   * Issues `month`'s invoices to every active client with a subscription started before the
   * month's end that has none for it, in batches of the batch size, each its own transaction.
   * Issued on `issuedOn` (default today, moved into the month), due INVOICE_DUE_DAYS later,
   * numbered in the year of issue. Idempotent: a rerun, or a run on another instance at the same
   * time, issues only what is missing.
   */
  async generateInvoices(month: string, options: { issuedOn?: string; signal?: AbortSignal } = {}): Promise<InvoiceRunView> {
    const period = billingPeriod(month);
    const issuedOn = options.issuedOn ?? clampToPeriod(dayOf(this.deps.clock.now()), period);
    const dueOn = addDays(issuedOn, INVOICE_DUE_DAYS);
    const year = Number(issuedOn.slice(0, 4));
    const started = performance.now();
    let after: string | null = null;
    let created = 0;
    let batches = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const from: string | null = after;
      const batchStarted = performance.now();
      const batch: IssuedBatch = await this.deps.db.transaction().execute(async (trx): Promise<IssuedBatch> => {
        const last = await this.#repository.lockCounter(trx, year);
        return this.#repository.issueBatch(trx, { period, year, last, issuedOn, dueOn, after: from, limit: this.#batchSize });
      });
      batches += 1;
      created += batch.issued;
      if (batch.issued < this.#batchSize || batch.lastClientId === null) break;
      after = batch.lastClientId;
      if (this.#pace > 0) await sleep(Math.ceil((performance.now() - batchStarted) * this.#pace), undefined, { signal: options.signal });
    }
    const invoiced = await this.#repository.countInvoices(month);
    this.#logger.info({ period: month, created, invoiced, batches, ms: Math.round(performance.now() - started) }, 'invoices issued');
    return { period: month, created, invoiced };
  }

  /** "Generate this month's invoices now" (an administrator): the same run for the current month. */
  async generateCurrentInvoices(user: SessionUser): Promise<InvoiceRunView> {
    const now = this.deps.clock.now();
    const run = await this.generateInvoices(monthOf(now), { issuedOn: dayOf(now) });
    await this.deps.ports.securityEvent(
      { type: 'billing.invoices_generated', userId: user.id, email: user.email, details: { period: run.period, created: run.created }, at: now },
      this.deps.db,
    );
    return run;
  }

  /** Every client's invoices, newest first, filtered (administrators). */
  async findInvoices(query: InvoicesQuery): Promise<InvoicesResponse> {
    const [year, seq] = query.cursor ? query.cursor.split(':').map(Number) : [];
    const rows = await this.#repository.findInvoices({
      status: query.status,
      clientId: query.clientId,
      before: year !== undefined && seq !== undefined ? { year, seq } : undefined,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { invoices: page.map(toInvoiceView), nextCursor: rows.length > query.limit && last ? `${last.numberYear}:${last.numberSeq}` : null };
  }

  async #visibleInvoice(user: SessionUser, id: string): Promise<InvoiceRow> {
    const row = await this.#repository.findInvoice(id, scopeFor(user));
    if (!row) throw notFound('Invoice');
    return row;
  }

  async getInvoice(user: SessionUser, id: string): Promise<InvoiceDetail> {
    const row = await this.#visibleInvoice(user, id);
    return { invoice: toInvoiceView(row), payments: (await this.#repository.findPayments(id)).map(toPaymentView) };
  }

  /** Download Invoice: the invoice as a PDF (client users: their own client's only). */
  async invoicePdf(user: SessionUser, id: string): Promise<InvoiceFile> {
    const row = await this.#visibleInvoice(user, id);
    const payments = await this.#repository.findPayments(id);
    const body = await invoicePdf({
      ...row,
      client: { name: row.clientName, contact: row.clientContact, email: row.clientEmail },
      payments: payments.map((p) => ({ paidOn: p.paidOn, amountMinor: p.amountMinor, note: p.note })),
    });
    return { filename: `${row.number}.pdf`, body };
  }

  // ---------------------------------------------------------------------------------------------
  // Payments

  /** A cash payment of the invoice (administrators); the balance reaching zero marks it paid. */
  async recordPayment(user: SessionUser, id: string, input: RecordPaymentInput): Promise<InvoiceDetail> {
    await this.#pay(user, id, { amountMinor: input.amountMinor, paidOn: input.paidOn, note: input.note ?? null });
    return this.getInvoice(user, id);
  }

  /** Mark paid: a payment of the whole balance. */
  async markPaid(user: SessionUser, id: string, input: MarkPaidInput): Promise<InvoiceDetail> {
    await this.#pay(user, id, { amountMinor: 'balance', paidOn: input.paidOn ?? dayOf(this.deps.clock.now()), note: input.note ?? null });
    return this.getInvoice(user, id);
  }

  async #pay(user: SessionUser, id: string, input: { amountMinor: number | 'balance'; paidOn: string; note: string | null }): Promise<void> {
    const now = this.deps.clock.now();
    // A day ahead of UTC is still today somewhere.
    if (input.paidOn > addDays(dayOf(now), 1)) {
      throw new AppError('VALIDATION_ERROR', BILLING_MESSAGES.dateFuture, { fields: { paidOn: BILLING_MESSAGES.dateFuture } });
    }
    await this.deps.db.transaction().execute(async (trx) => {
      const invoice = await this.#repository.lockInvoice(trx, id);
      if (!invoice) throw notFound('Invoice');
      if (invoice.status === 'void') throw new AppError('CONFLICT', BILLING_MESSAGES.voided, { details: { reason: 'void' } });
      if (invoice.status === 'paid') throw new AppError('CONFLICT', BILLING_MESSAGES.alreadyPaid, { details: { reason: 'paid' } });
      const balance = invoice.amountMinor - invoice.paidMinor;
      const amount = input.amountMinor === 'balance' ? balance : input.amountMinor;
      if (amount > balance) {
        const message = BILLING_MESSAGES.overpaid(formatAmount(balance, invoice.currency));
        throw new AppError('VALIDATION_ERROR', message, { fields: { amountMinor: message }, details: { balanceMinor: balance } });
      }
      await this.#repository.insertPayment(trx, { invoiceId: id, amountMinor: amount, currency: invoice.currency, paidOn: input.paidOn, note: input.note || null, recordedBy: user.id });
      const paidMinor = invoice.paidMinor + amount;
      await this.#repository.setPaid(trx, id, paidMinor, paidMinor === invoice.amountMinor, now);
      await this.deps.ports.securityEvent(
        {
          type: 'billing.payment_recorded',
          userId: user.id,
          email: user.email,
          details: { invoiceId: id, number: invoice.number, clientId: invoice.clientId, amountMinor: amount, currency: invoice.currency, paidOn: input.paidOn, balanceMinor: balance - amount },
          at: now,
        },
        trx,
      );
    });
  }

  /** Voids an invoice issued by mistake (administrators): it keeps its number; refused once anything was paid. */
  async voidInvoice(user: SessionUser, id: string, input: VoidInvoiceInput): Promise<InvoiceDetail> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const invoice = await this.#repository.lockInvoice(trx, id);
      if (!invoice) throw notFound('Invoice');
      if (invoice.status === 'void') throw new AppError('CONFLICT', BILLING_MESSAGES.alreadyVoid, { details: { reason: 'void' } });
      if (invoice.paidMinor > 0) throw new AppError('CONFLICT', BILLING_MESSAGES.voidWithPayments, { details: { reason: 'payments' } });
      await this.#repository.voidInvoice(trx, id, { at: now, by: user.id, reason: input.reason });
      await this.deps.ports.securityEvent(
        {
          type: 'billing.invoice_voided',
          severity: 'warning',
          userId: user.id,
          email: user.email,
          details: { invoiceId: id, number: invoice.number, clientId: invoice.clientId, amountMinor: invoice.amountMinor, reason: input.reason },
          at: now,
        },
        trx,
      );
    });
    return this.getInvoice(user, id);
  }

  // ---------------------------------------------------------------------------------------------
  // Overdue

  /**
   * Open invoices due before `today` become overdue — in one transaction with the administrators'
   * notification — then each overdue invoice without a reminder gets one: an e-mail to each of its
   * client's users, recorded in the transaction that queues them. A reminder that fails is left for
   * the job's retry (the others go on); the run then fails with the first error.
   */
  async markOverdue(today: string = dayOf(this.deps.clock.now()), signal?: AbortSignal): Promise<OverdueRun> {
    const now = this.deps.clock.now();
    const overdue = await this.deps.db.transaction().execute(async (trx) => {
      const rows = await this.#repository.markOverdue(trx, today, now);
      if (rows.length === 0) return 0;
      const clients = new Set(rows.map((row) => row.clientId)).size;
      const title = rows.length === 1 ? '1 invoice is overdue' : `${rows.length} invoices are overdue`;
      const body = `${rows.length === 1 ? 'It' : 'They'} passed the due date unpaid: ${clients === 1 ? 'the client is' : `${clients} clients are`} past due until paid. Their users were e-mailed a reminder.`;
      for (const admin of await this.deps.ports.admins(trx)) {
        await this.deps.ports.notify(admin.id, { kind: 'billing.invoices_overdue', title, body, link: `${ADMIN_BILLING_PAGE}?status=overdue` }, trx);
      }
      return rows.length;
    });

    let reminded = 0;
    const tried = new Set<string>();
    const failures: unknown[] = [];
    for (;;) {
      const ids = (await this.#repository.findUnremindedOverdue(REMINDER_BATCH)).filter((id) => !tried.has(id));
      if (ids.length === 0) break;
      for (const id of ids) {
        signal?.throwIfAborted();
        tried.add(id);
        try {
          if (await this.#remind(id)) reminded += 1;
        } catch (error) {
          failures.push(error);
          this.#logger.warn({ err: error, invoiceId: id }, 'overdue reminder not queued');
        }
      }
    }
    this.#logger.info({ today, overdue, reminded, failed: failures.length }, 'overdue invoices checked');
    if (failures.length > 0) throw new Error(`${failures.length} overdue reminder(s) could not be queued`, { cause: failures[0] });
    return { overdue, reminded };
  }

  /** The invoice's reminder to its client's users, once; false when it needs none (any more). */
  async #remind(invoiceId: string): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      const invoice = await this.#repository.lockInvoice(trx, invoiceId);
      if (!invoice || invoice.status !== 'overdue') return false;
      if (!(await this.#repository.claimReminder(trx, invoiceId))) return false;
      const users = await this.deps.ports.clientUsers(invoice.clientId, trx);
      const url = new URL(CLIENT_BILLING_PAGE, this.deps.publicUrl).toString();
      for (const user of users) {
        const email = invoiceOverdueEmail(user.fullName.trim() || 'there', {
          businessName: invoice.clientName,
          number: invoice.number,
          period: monthLabel(invoice.period),
          amountText: formatAmount(invoice.amountMinor, invoice.currency),
          balanceText: formatAmount(invoice.amountMinor - invoice.paidMinor, invoice.currency),
          dueOn: invoice.dueOn,
          paymentMethod: PAYMENT_METHOD,
          url,
        });
        await this.deps.ports.email(user.email, email, trx);
      }
      await this.#repository.setReminderRecipients(trx, invoiceId, users.length);
      return true;
    });
  }

  /** The reminder recorded for an invoice (tests, operators). */
  async findReminder(invoiceId: string) {
    return this.#repository.findReminder(invoiceId);
  }
}
