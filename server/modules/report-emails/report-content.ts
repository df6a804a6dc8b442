/**
 * What an e-mailed report says (docs/insights.md, "Reports by e-mail"): the period's key figures
 * from the insights (the same numbers as the insights page of that period), against the period
 * before, written as the insights page writes them — pure, so the tests read exact texts.
 */
import type { InsightsView } from '../../../common/api/insights';
import type { Period } from '../../jobs/schedule';
import { type RenderedEmail, type ReportFigure, reportEmail } from '../email';
import type { ReportKind } from './report-emails.repository';

const NONE = '—';
const MINUS = '−';
/** Clients listed under "Top clients" (staff reports). */
export const TOP_CLIENTS = 5;

const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('en-GB');
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
// Written by hand rather than by Intl, whose punctuation (commas, thin spaces) changes with the ICU version.
const shortMonth = (at: Date) => MONTHS[at.getUTCMonth()]!.slice(0, 3);
/** "27 Nov 2026" (UTC). */
const shortDay = (at: Date) => `${at.getUTCDate()} ${shortMonth(at)} ${at.getUTCFullYear()}`;
/** "Friday 27 November 2026" (UTC). */
const longDay = (at: Date) => `${WEEKDAYS[at.getUTCDay()]!} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]!} ${at.getUTCFullYear()}`;

/** "42 s", "3 min", "1 h 5 min", "2 d 3 h" (as the insights page). */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return NONE;
  if (seconds < 59.5) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** A share (0–1) as a percentage: "42%", "33.3%". */
export function formatRate(rate: number | null): string {
  return rate === null || !Number.isFinite(rate) ? NONE : `${oneDecimal.format(rate * 100)}%`;
}

/** The change of a figure against the period before: in percent of the previous value, or in percentage points for rates. */
export function formatChange(value: number | null, previous: number | null, unit: 'percent' | 'points'): string {
  if (value === null || previous === null) return '';
  // The size is rounded, then signed (as the insights page does): −12.5 % reads "−13%".
  const signed = (change: number, size: number, text: string) => (size === 0 ? `0${text}` : `${change > 0 ? '+' : MINUS}${oneDecimal.format(size)}${text}`);
  if (unit === 'points') {
    const points = (value - previous) * 100;
    return signed(points, Math.round(Math.abs(points) * 10) / 10, ' pp');
  }
  if (previous === 0) return value === 0 ? '0%' : 'new';
  const percent = ((value - previous) / Math.abs(previous)) * 100;
  return signed(percent, Math.round(Math.abs(percent)), '%');
}

/** The days a report covers: "27 Nov 2026", "23–29 Nov 2026", "28 Dec 2026 – 3 Jan 2027". */
export function periodLabel(period: Period): string {
  const first = period.start;
  const last = new Date(period.end.getTime() - 1);
  if (period.end.getTime() - first.getTime() <= 86_400_000) return shortDay(first);
  if (first.getUTCFullYear() !== last.getUTCFullYear()) return `${shortDay(first)} – ${shortDay(last)}`;
  if (first.getUTCMonth() !== last.getUTCMonth()) return `${first.getUTCDate()} ${shortMonth(first)} – ${shortDay(last)}`;
  return `${first.getUTCDate()}–${shortDay(last)}`;
}

const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? '' : 's'}`;

/** The report's figures: this period's, the period before's, and the change. */
export function reportFigures(current: InsightsView, previous: InsightsView): ReportFigure[] {
  const figure = (label: string, value: number | null, before: number | null, write: (v: number | null) => string, unit: 'percent' | 'points'): ReportFigure => ({
    label,
    value: write(value),
    previous: write(before),
    change: formatChange(value, before, unit),
  });
  const counted = (v: number | null) => (v === null ? NONE : count.format(v));
  const satisfaction = (view: InsightsView) =>
    view.metrics.satisfaction.value === null ? 'no ratings' : `${view.metrics.satisfaction.value.toFixed(1)} / 5 from ${plural(view.totals.ratings, 'rating')}`;
  const { totals: now, metrics } = current;
  const { totals: before } = previous;
  return [
    figure('Conversations', now.conversations, before.conversations, counted, 'percent'),
    figure('Messages', now.messages, before.messages, counted, 'percent'),
    figure('Automated resolution rate', rate(now.automated, now.conversations), rate(before.automated, before.conversations), formatRate, 'points'),
    figure('Hand-off rate', rate(now.handedOff, now.conversations), rate(before.handedOff, before.conversations), formatRate, 'points'),
    figure('Median first response', metrics.medianFirstResponseSeconds.value, previous.metrics.medianFirstResponseSeconds.value, formatDuration, 'percent'),
    {
      label: 'Customer satisfaction',
      value: satisfaction(current),
      previous: satisfaction(previous),
      change: formatChange(metrics.satisfaction.value, previous.metrics.satisfaction.value, 'percent'),
    },
  ];
}

export interface ReportContentInput {
  kind: ReportKind;
  /** The period the report covers. */
  period: Period;
  name: string;
  /** A client user's report: their client's name; null: every client (staff). */
  clientName: string | null;
  current: InsightsView;
  previous: InsightsView;
  publicUrl: string;
}

/** The e-mail: subject, greeting, the figures against the period before, top clients for staff, the links. */
export function reportContent(input: ReportContentInput): RenderedEmail {
  const { kind, period, current, publicUrl } = input;
  const daily = kind === 'daily';
  const days = periodLabel(period);
  const whose = input.clientName === null ? 'across every client' : `for ${input.clientName}`;
  const when = daily ? `on ${longDay(period.start)} (UTC)` : `in the week of ${days} (Monday to Sunday, UTC)`;
  const lastDay = new Date(period.end.getTime() - 1).toISOString().slice(0, 10);
  const insightsUrl = `${publicUrl}/insights?${new URLSearchParams({ period: 'custom', from: period.start.toISOString().slice(0, 10), to: lastDay }).toString()}`;
  const topClients =
    input.clientName === null
      ? current.clients
          .filter((c) => c.totals.conversations > 0)
          .slice(0, TOP_CLIENTS)
          .map(
            (c) =>
              `${c.name}: ${plural(c.totals.conversations, 'conversation')}, automated resolution ${formatRate(c.automatedResolutionRate)}, median first response ${formatDuration(c.medianFirstResponseSeconds)}`,
          )
      : [];
  return reportEmail({
    kind: daily ? 'daily-report' : 'weekly-report',
    subject: `Parley ${daily ? 'daily' : 'weekly'} report${input.clientName === null ? '' : ` for ${input.clientName}`} — ${days}`,
    name: input.name,
    intro: `Here are the figures of the conversations started ${when} ${whose}, compared with the ${daily ? 'day' : 'week'} before. Replies and resolutions count up to the time of this e-mail.`,
    note: current.totals.conversations === 0 ? `No conversations started ${daily ? 'that day' : 'that week'}.` : null,
    columns: daily ? { value: 'That day', previous: 'Day before' } : { value: 'That week', previous: 'Week before' },
    figures: reportFigures(current, input.previous),
    ranking: topClients.length > 0 ? { title: 'Top clients by conversations', rows: topClients } : null,
    action: { label: `Open the insights of that ${daily ? 'day' : 'week'}`, url: insightsUrl },
    manage: {
      text: `You get this e-mail because ${daily ? 'Daily Reports' : 'Weekly Reports'} is on in your notification preferences.`,
      label: 'Manage e-mail notifications',
      url: `${publicUrl}/profile?tab=notifications`,
    },
  });
}
