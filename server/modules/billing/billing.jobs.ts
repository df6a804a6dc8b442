import { defineRecurring } from '../../jobs/schedule';

/**
 * The month's invoices: every day at 00:05 UTC, the invoices of the month the day is in, for every
 * active client with a subscription that has none yet. On the 1st that is the month-end run for
 * every client; on other days it finds only those it missed (a client reactivated since, a run
 * that failed). Idempotent: one invoice per client and month.
 */
export const monthlyInvoicesJob = defineRecurring({
  name: 'billing.invoices',
  every: 'day',
  atMinute: 5,
  maxAttempts: 5,
  backoffMs: 60_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
});

/**
 * Overdue invoices: every day at 06:00 UTC, open invoices whose due date has passed become
 * overdue (their clients past due), the administrators are told in the app, and each such
 * invoice's client users get one reminder e-mail.
 */
export const overdueInvoicesJob = defineRecurring({
  name: 'billing.overdue',
  every: 'day',
  atMinute: 6 * 60,
  maxAttempts: 5,
  backoffMs: 60_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
});
