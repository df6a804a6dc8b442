/**
 * The billing module's tables (0037): `subscriptions`, `invoice_counters`, `invoices`,
 * `invoice_payments`, `invoice_reminders`. Views join `clients` (the business's name and whether
 * it is active: deactivated clients are not invoiced) and `users` (who recorded a payment).
 *
 * `date` columns are selected as text (`::text`): the two drivers read dates differently.
 */
import { sql } from 'kysely';
import { INVOICE_NUMBER_PREFIX, type InvoiceStatus } from '../../../common/api/billing';
import { TEMPLATE_OFFERS, type OfferId } from '../../../common/api/offers';
import type { Db } from '../../db/database';
import type { ClientStatus } from '../../db/schema';
import type { Scope } from '../../http/scope';
import type { BillingPeriod } from './billing-periods';

/** No uuid sorts before it: the keyset's start. */
const FIRST_UUID = '00000000-0000-0000-0000-000000000000';

function invoiceQuery(db: Db) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('clients as c', 'c.id', 'i.clientId')
    .select([
      'i.id',
      'i.number',
      'i.numberYear',
      'i.numberSeq',
      'i.clientId',
      'c.companyName as clientName',
      'c.contactPerson as clientContact',
      'c.email as clientEmail',
      'i.period',
      sql<string>`i.period_start::text`.as('periodStart'),
      sql<string>`i.period_end::text`.as('periodEnd'),
      'i.offerId',
      'i.description',
      'i.amountMinor',
      'i.paidMinor',
      'i.currency',
      sql<string>`i.issued_on::text`.as('issuedOn'),
      sql<string>`i.due_on::text`.as('dueOn'),
      'i.status',
      'i.paidAt',
      'i.voidedAt',
      'i.voidReason',
      'i.createdAt',
    ]);
}

export type InvoiceRow = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['executeTakeFirstOrThrow']>>;

export interface PaymentRow {
  id: string;
  invoiceId: string;
  amountMinor: number;
  currency: string;
  paidOn: string;
  note: string | null;
  recordedById: string | null;
  recordedByName: string | null;
  createdAt: Date;
}

export interface SubscriptionRow {
  clientId: string;
  offerId: OfferId;
  priceMinor: number;
  currency: string;
  startedAt: Date;
  clientStatus: ClientStatus;
  /** An invoice of the client is overdue. */
  pastDue: boolean;
  /** The due date of its oldest unpaid invoice. */
  oldestUnpaidDue: string | null;
  /** The month asked about has its invoice (whatever its status). */
  invoicedThisMonth: boolean;
}

export interface BillingClient {
  id: string;
  companyName: string;
  status: ClientStatus;
}

export interface InvoiceFilter {
  status?: InvoiceStatus | undefined;
  clientId?: string | undefined;
  /** Only invoices numbered before this one (the page before's last). */
  before?: { year: number; seq: number } | undefined;
  limit: number;
}

/** What one batch of the month's invoices did. */
export interface IssuedBatch {
  issued: number;
  /** The last client of the batch (the next batch's keyset start); null when none was issued. */
  lastClientId: string | null;
}

export class BillingRepository {
  constructor(private readonly db: Db) {}

  /** The client, within the scope (another client's id: undefined, as an unknown one). */
  async findClient(clientId: string, scope: Scope, db: Db = this.db): Promise<BillingClient | undefined> {
    let query = db.selectFrom('clients').select(['id', 'companyName', 'status']).where('id', '=', clientId);
    if (scope.clientId !== null) query = query.where('id', '=', scope.clientId);
    return query.executeTakeFirst();
  }

  /**
   * Starts the client's subscription, or — when it has one — changes its offer and price (its start
   * stays). Which of the two it did.
   */
  async saveSubscription(
    trx: Db,
    input: { clientId: string; offerId: OfferId; priceMinor: number; currency: string; startedAt: Date },
  ): Promise<{ started: boolean; previousOfferId: OfferId | null }> {
    const inserted = await trx
      .insertInto('subscriptions')
      .values(input)
      .onConflict((oc) => oc.column('clientId').doNothing())
      .returning('clientId')
      .executeTakeFirst();
    if (inserted) return { started: true, previousOfferId: null };
    // The row exists (or was just committed by another transaction the insert waited for): lock it, then change it.
    const previous = await trx.selectFrom('subscriptions').select('offerId').where('clientId', '=', input.clientId).forUpdate().executeTakeFirstOrThrow();
    await trx
      .updateTable('subscriptions')
      .set({ offerId: input.offerId, priceMinor: input.priceMinor, currency: input.currency, updatedAt: sql<Date>`now()` })
      .where('clientId', '=', input.clientId)
      .execute();
    return { started: false, previousOfferId: previous.offerId };
  }

  /** The client's subscription, with whether it is past due, its oldest unpaid due date and whether `month` has its invoice. */
  async findSubscription(clientId: string, month: string, db: Db = this.db): Promise<SubscriptionRow | undefined> {
    return db
      .selectFrom('subscriptions as s')
      .innerJoin('clients as c', 'c.id', 's.clientId')
      .select([
        's.clientId',
        's.offerId',
        's.priceMinor',
        's.currency',
        's.startedAt',
        'c.status as clientStatus',
        sql<boolean>`exists (select 1 from invoices i where i.client_id = s.client_id and i.status = 'overdue')`.as('pastDue'),
        sql<string | null>`(select min(i.due_on)::text from invoices i where i.client_id = s.client_id and i.status in ('open', 'overdue'))`.as('oldestUnpaidDue'),
        sql<boolean>`exists (select 1 from invoices i where i.client_id = s.client_id and i.period = ${month})`.as('invoicedThisMonth'),
      ])
      .where('s.clientId', '=', clientId)
      .executeTakeFirst();
  }

  /** Makes sure the year has its counter row, then locks it until `trx` ends; its last number. */
  async lockCounter(trx: Db, year: number): Promise<number> {
    await trx
      .insertInto('invoiceCounters')
      .values({ year })
      .onConflict((oc) => oc.column('year').doNothing())
      .execute();
    const row = await trx.selectFrom('invoiceCounters').select('lastNumber').where('year', '=', year).forUpdate().executeTakeFirstOrThrow();
    return row.lastNumber;
  }

  /**
   * Issues the period's invoice to up to `limit` active clients with a subscription started before
   * the period's end and no invoice for it, in client id order after `after` — in one statement:
   * the invoices numbered `last + 1 …` and the year's counter moved on by as many. Call with the
   * counter locked (`lockCounter`) in the same transaction, and in a statement after that lock was
   * taken, so that the candidates are read after every other issuer's commit (READ COMMITTED: each
   * statement sees what was committed before it started).
   *
   * Each invoice covers the period from the later of its first day and the subscription's start day
   * to its last day: the whole price for a whole month, else pro rata by days, rounded half up
   * (`proratedAmount` in billing-periods.ts is the same rule).
   */
  async issueBatch(
    trx: Db,
    input: { period: BillingPeriod; year: number; last: number; issuedOn: string; dueOn: string; after: string | null; limit: number; clientIds?: readonly string[] },
  ): Promise<IssuedBatch> {
    const { period, year, last } = input;
    const offers = sql.join(TEMPLATE_OFFERS.map((offer) => sql`(${offer.id}::text, ${offer.name}::text)`));
    const onlyClients = input.clientIds ? sql`and s.client_id = any(${[...input.clientIds]}::uuid[])` : sql``;
    const { rows } = await sql<{ issued: string | number; lastClientId: string | null }>`
      with candidates as (
        select s.client_id, s.offer_id, s.price_minor, s.currency,
          greatest((s.started_at at time zone 'UTC')::date, ${period.start}::date) as covered_from
        from subscriptions s
        join clients c on c.id = s.client_id
        where c.status = 'active'
          and s.started_at < ${period.endsAt}
          and s.client_id > ${input.after ?? FIRST_UUID}::uuid
          ${onlyClients}
          and not exists (select 1 from invoices i where i.client_id = s.client_id and i.period = ${period.month})
        order by s.client_id
        limit ${input.limit}::int
      ),
      numbered as (
        select cand.*, row_number() over (order by cand.client_id) as n, (${period.end}::date - cand.covered_from + 1) as covered_days
        from candidates cand
      ),
      inserted as (
        insert into invoices (number, number_year, number_seq, client_id, period, period_start, period_end, offer_id, description,
          amount_minor, currency, issued_on, due_on)
        select ${INVOICE_NUMBER_PREFIX} || '-' || ${year}::int || '-' || lpad((${last}::int + numbered.n)::text, greatest(6, length((${last}::int + numbered.n)::text)), '0'),
          ${year}::int, ${last}::int + numbered.n, numbered.client_id, ${period.month}, numbered.covered_from, ${period.end}::date, numbered.offer_id,
          coalesce(o.name, numbered.offer_id),
          case when numbered.covered_days >= ${period.days}::int then numbered.price_minor
               else greatest(1, round(numbered.price_minor::numeric * numbered.covered_days / ${period.days}::int)::int) end,
          numbered.currency, ${input.issuedOn}::date, ${input.dueOn}::date
        from numbered
        left join (values ${offers}) as o (id, name) on o.id = numbered.offer_id
        returning client_id
      ),
      counted as (
        update invoice_counters set last_number = last_number + (select count(*) from inserted)::int
        where year = ${year}::int
        returning last_number
      )
      select (select count(*) from inserted) as issued,
        (select client_id::text from inserted order by client_id desc limit 1) as last_client_id,
        (select last_number from counted) as last_number`.execute(trx);
    const row = rows[0];
    return { issued: Number(row?.issued ?? 0), lastClientId: row?.lastClientId ?? null };
  }

  /** How many invoices the period has. */
  async countInvoices(month: string, db: Db = this.db): Promise<number> {
    const row = await db.selectFrom('invoices').select((eb) => eb.fn.countAll<string | number>().as('n')).where('period', '=', month).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findInvoice(id: string, scope: Scope, db: Db = this.db): Promise<InvoiceRow | undefined> {
    let query = invoiceQuery(db).where('i.id', '=', id);
    if (scope.clientId !== null) query = query.where('i.clientId', '=', scope.clientId);
    return query.executeTakeFirst();
  }

  /** The invoice, its row locked until `trx` ends. */
  async lockInvoice(trx: Db, id: string): Promise<InvoiceRow | undefined> {
    return invoiceQuery(trx).where('i.id', '=', id).forUpdate('i').executeTakeFirst();
  }

  /** Invoices newest first (by number), filtered. */
  async findInvoices(filter: InvoiceFilter, db: Db = this.db): Promise<InvoiceRow[]> {
    let query = invoiceQuery(db);
    if (filter.status) query = query.where('i.status', '=', filter.status);
    if (filter.clientId) query = query.where('i.clientId', '=', filter.clientId);
    const before = filter.before;
    if (before) query = query.where(sql<boolean>`(i.number_year, i.number_seq) < (${before.year}::int, ${before.seq}::int)`);
    return query.orderBy('i.numberYear', 'desc').orderBy('i.numberSeq', 'desc').limit(filter.limit).execute();
  }

  async findPayments(invoiceId: string, db: Db = this.db): Promise<PaymentRow[]> {
    return db
      .selectFrom('invoicePayments as p')
      .leftJoin('users as u', 'u.id', 'p.recordedBy')
      .select([
        'p.id',
        'p.invoiceId',
        'p.amountMinor',
        'p.currency',
        sql<string>`p.paid_on::text`.as('paidOn'),
        'p.note',
        'u.id as recordedById',
        'u.fullName as recordedByName',
        'p.createdAt',
      ])
      .where('p.invoiceId', '=', invoiceId)
      .orderBy('p.createdAt')
      .orderBy('p.id')
      .execute();
  }

  async insertPayment(trx: Db, payment: { invoiceId: string; amountMinor: number; currency: string; paidOn: string; note: string | null; recordedBy: string }): Promise<void> {
    await trx.insertInto('invoicePayments').values(payment).execute();
  }

  /** What has been paid of the invoice; paid in full: status paid from `at`. */
  async setPaid(trx: Db, invoiceId: string, paidMinor: number, paidInFull: boolean, at: Date): Promise<void> {
    await trx
      .updateTable('invoices')
      .set({ paidMinor, ...(paidInFull ? { status: 'paid' as const, paidAt: at } : {}) })
      .where('id', '=', invoiceId)
      .execute();
  }

  async voidInvoice(trx: Db, invoiceId: string, input: { at: Date; by: string; reason: string }): Promise<void> {
    await trx.updateTable('invoices').set({ status: 'void', voidedAt: input.at, voidedBy: input.by, voidReason: input.reason }).where('id', '=', invoiceId).execute();
  }

  /** Open invoices due before `today` become overdue; the ones that did, with their clients. */
  async markOverdue(trx: Db, today: string, at: Date): Promise<{ id: string; clientId: string }[]> {
    return trx
      .updateTable('invoices')
      .set({ status: 'overdue', overdueAt: at })
      .where('status', '=', 'open')
      .where(sql<boolean>`due_on < ${today}::date`)
      .returning(['id', 'clientId'])
      .execute();
  }

  /** Overdue invoices whose reminder has not gone out, oldest first. */
  async findUnremindedOverdue(limit: number, db: Db = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('invoices as i')
      .select('i.id')
      .where('i.status', '=', 'overdue')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('invoiceReminders as r').select('r.invoiceId').whereRef('r.invoiceId', '=', 'i.id'))))
      .orderBy('i.numberYear')
      .orderBy('i.numberSeq')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Claims the invoice's reminder; false when it is already recorded — or being recorded by a
   * transaction that has not ended (the insert waits for it, then does nothing if it committed).
   */
  async claimReminder(trx: Db, invoiceId: string): Promise<boolean> {
    const row = await trx
      .insertInto('invoiceReminders')
      .values({ invoiceId })
      .onConflict((oc) => oc.column('invoiceId').doNothing())
      .returning('invoiceId')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setReminderRecipients(trx: Db, invoiceId: string, recipients: number): Promise<void> {
    await trx.updateTable('invoiceReminders').set({ recipients }).where('invoiceId', '=', invoiceId).execute();
  }

  /** The reminders recorded for an invoice (tests, operators). */
  async findReminder(invoiceId: string, db: Db = this.db) {
    return db.selectFrom('invoiceReminders').selectAll().where('invoiceId', '=', invoiceId).executeTakeFirst();
  }
}
