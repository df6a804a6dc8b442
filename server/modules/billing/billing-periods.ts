/**
 * Billing periods and dates (docs/billing.md): a period is a calendar month in UTC (`2026-11`);
 * days are `YYYY-MM-DD` strings, as the `date` columns are read.
 */
const DAY_MS = 86_400_000;

export interface BillingPeriod {
  /** `2026-11`. */
  month: string;
  /** The first and the last day of the month. */
  start: string;
  end: string;
  /** How many days the month has. */
  days: number;
  /** The first instant of the next month (a subscription started before it is invoiced for this one). */
  endsAt: Date;
}

/** The UTC day of an instant. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The UTC month of an instant (`2026-11`). */
export const monthOf = (at: Date | string): string => (typeof at === 'string' ? at.slice(0, 7) : at.toISOString().slice(0, 7));

export function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

export function billingPeriod(month: string): BillingPeriod {
  const match = /^(\d{4})-(\d{2})$/u.exec(month);
  const monthIndex = match ? Number(match[2]) - 1 : -1;
  if (!match || monthIndex < 0 || monthIndex > 11) throw new Error(`Not a month: ${month}`);
  const year = Number(match[1]);
  const first = Date.UTC(year, monthIndex, 1);
  const next = Date.UTC(year, monthIndex + 1, 1);
  return { month, start: dayOf(new Date(first)), end: dayOf(new Date(next - DAY_MS)), days: Math.round((next - first) / DAY_MS), endsAt: new Date(next) };
}

/** The month after `month`. */
export function nextMonth(month: string): string {
  return monthOf(billingPeriod(month).endsAt);
}

/** `day` moved into the month: its first day before it, its last day after it. */
export function clampToPeriod(day: string, period: BillingPeriod): string {
  if (day < period.start) return period.start;
  if (day > period.end) return period.end;
  return day;
}

/**
 * The amount of a period covered from `from` (a day of the period) to its end: the whole price for
 * the whole month, else the price × covered days / days of the month, rounded to the nearest minor
 * unit (half up), at least 1. The same rule as the SQL that issues invoices (billing.repository.ts).
 */
export function proratedAmount(priceMinor: number, from: string, period: BillingPeriod): number {
  const covered = Math.round((Date.parse(`${period.end}T00:00:00Z`) - Date.parse(`${clampToPeriod(from, period)}T00:00:00Z`)) / DAY_MS) + 1;
  if (covered >= period.days) return priceMinor;
  return Math.max(1, Math.round((priceMinor * covered) / period.days));
}
