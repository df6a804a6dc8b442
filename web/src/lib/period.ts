/**
 * The period and client a page of figures shows (insights, AI Summary), kept in the URL (`?period=30d`, `?period=custom&from=2025-03-01&to=2025-03-31`,
 * `?client=<id>`) so a reload keeps them. A custom range is two local days, both included; the API
 * gets local midnight of the first day and local midnight of the day after the last (common/api/insights.ts).
 */
import { INSIGHTS_PERIOD_LABELS, INSIGHTS_PERIODS, type InsightsPeriodKind, type InsightsQuery } from '@common/api/insights';
import { isApiError } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';

export interface InsightsSelection {
  period: InsightsPeriodKind;
  /** custom only: the first day (YYYY-MM-DD, local), included. */
  firstDay: string | undefined;
  /** custom only: the last day (YYYY-MM-DD, local), included. */
  lastDay: string | undefined;
  /** Managers and admins: one client; undefined: every client. */
  clientId: string | undefined;
}

export const DEFAULT_PERIOD: InsightsPeriodKind = '7d';
/** How many days a fresh custom range covers, today included (the default period's length). */
export const CUSTOM_RANGE_DEFAULT_DAYS = 7;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

const isPeriod = (value: string | null): value is InsightsPeriodKind => (INSIGHTS_PERIODS as readonly (string | null)[]).includes(value);

/** Local midnight of `day` (YYYY-MM-DD) plus `addDays` days; null when it is not a real day. */
export function localMidnight(day: string, addDays = 0): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date);
  // 2025-02-30 rolls over to March: not a day anyone picked.
  if (start.getFullYear() !== year || start.getMonth() !== month - 1 || start.getDate() !== date) return null;
  return new Date(year, month - 1, date + addDays);
}

/** The local calendar day of `date` as YYYY-MM-DD (what a date input holds). */
export function toLocalDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A custom range ending today, `CUSTOM_RANGE_DEFAULT_DAYS` days long. */
export function defaultCustomRange(now: Date = new Date()): { firstDay: string; lastDay: string } {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (CUSTOM_RANGE_DEFAULT_DAYS - 1));
  return { firstDay: toLocalDay(first), lastDay: toLocalDay(now) };
}

/** What the URL asks for; the client only for users who may choose one. `defaultPeriod` is the page's (no `period` in the URL). */
export function readSelection(params: URLSearchParams, canChooseClient: boolean, defaultPeriod: InsightsPeriodKind = DEFAULT_PERIOD): InsightsSelection {
  const raw = params.get('period');
  const period = isPeriod(raw) ? raw : defaultPeriod;
  const client = params.get('client');
  return {
    period,
    firstDay: period === 'custom' ? (params.get('from') ?? undefined) : undefined,
    lastDay: period === 'custom' ? (params.get('to') ?? undefined) : undefined,
    clientId: canChooseClient && client !== null && UUID.test(client) ? client : undefined,
  };
}

/** The URL's search params for `selection`, keeping every other param (the tab). */
export function writeSelection(params: URLSearchParams, selection: InsightsSelection, defaultPeriod: InsightsPeriodKind = DEFAULT_PERIOD): URLSearchParams {
  const next = new URLSearchParams(params);
  if (selection.period === defaultPeriod) next.delete('period');
  else next.set('period', selection.period);
  const custom = selection.period === 'custom';
  if (custom && selection.firstDay) next.set('from', selection.firstDay);
  else next.delete('from');
  if (custom && selection.lastDay) next.set('to', selection.lastDay);
  else next.delete('to');
  if (selection.clientId) next.set('client', selection.clientId);
  else next.delete('client');
  return next;
}

/**
 * The API query. A custom day that is missing or not a real day is left out, so the server names
 * what is wrong with the range (its 400 field messages), as it does for a range that ends too early
 * or lasts too long.
 */
export function toInsightsQuery(selection: InsightsSelection): InsightsQuery {
  const query: InsightsQuery = { period: selection.period };
  if (selection.period === 'custom') {
    const from = selection.firstDay ? localMidnight(selection.firstDay) : null;
    const to = selection.lastDay ? localMidnight(selection.lastDay, 1) : null;
    if (from) query.from = from.toISOString();
    if (to) query.to = to.toISOString();
  }
  if (selection.clientId) query.clientId = selection.clientId;
  return query;
}

/** The query as a URL query string, in a fixed order (the export link, the query key). */
export function insightsSearch(query: InsightsQuery): string {
  const params = new URLSearchParams();
  if (query.period) params.set('period', query.period);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.clientId) params.set('clientId', query.clientId);
  return params.toString();
}

/** "Last 7 days: Mar 3, 2025, 14:05 – Mar 10, 2025, 14:05", or the days of a custom range. */
export function describePeriod(period: { kind: InsightsPeriodKind; from: string; to: string }): string {
  const { kind, from, to } = period;
  if (kind === 'custom') {
    const first = formatDate(from);
    // `to` is excluded: the last day is the one just before it.
    const last = formatDate(new Date(Date.parse(to) - 1).toISOString());
    return first === last ? first : `${first} – ${last}`;
  }
  return `${INSIGHTS_PERIOD_LABELS[kind]}: ${formatDateTime(from)} – ${formatDateTime(to)}`;
}

/** Field messages of the server's 400 for the query (period, from, to, clientId). */
export type QueryFieldErrors = Partial<Record<'period' | 'from' | 'to' | 'clientId', string>>;

const QUERY_FIELDS = ['period', 'from', 'to', 'clientId'] as const;

/** The server's field messages when it refused the query itself (a custom range that is not one); null otherwise. */
export function queryFieldErrors(error: unknown): QueryFieldErrors | null {
  if (!isApiError(error) || error.status !== 400 || !error.fields) return null;
  const errors: QueryFieldErrors = {};
  for (const field of QUERY_FIELDS) {
    const message = error.fields[field];
    if (message) errors[field] = message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
