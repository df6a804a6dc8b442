/**
 * How the page writes the API's figures. Nothing here invents a value: a figure the server sends as
 * null (nothing to measure) is written "—".
 */
import type { ComparedFigure } from '@common/api/insights';

export const NONE = '—';

const count = new Intl.NumberFormat(undefined);
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function formatCount(value: number | null): string {
  return value === null ? NONE : count.format(value);
}

/** "42 s", "3 min", "1 h 5 min", "2 d 3 h". */
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

/** A share (0–1) as a percentage: "42%", "12.5%". */
export function formatRate(rate: number | null): string {
  return rate === null || !Number.isFinite(rate) ? NONE : `${oneDecimal.format(rate * 100)}%`;
}

/** A mean customer rating: "4.3 / 5". */
export function formatSatisfaction(value: number | null): string {
  return value === null || !Number.isFinite(value) ? NONE : `${value.toFixed(1)} / 5`;
}

/** A rate (0–1) as a number of percent, for charts; null stays null (a gap). */
export function ratePercent(rate: number | null): number | null {
  return rate === null ? null : Math.round(rate * 1000) / 10;
}

export type ChangeDirection = 'up' | 'down' | 'flat';

/**
 * A figure against the period before: `none` when either side is missing, `new` when there was
 * nothing before, else the direction and size of the change — in percent of the previous value, or
 * in percentage points for rates (`points`).
 */
export type FigureChange = { kind: 'none' } | { kind: 'new' } | { kind: 'change'; direction: ChangeDirection; text: string };

export function figureChange(figure: ComparedFigure, unit: 'percent' | 'points'): FigureChange {
  const { value, previous } = figure;
  if (value === null || previous === null) return { kind: 'none' };
  if (unit === 'points') {
    const points = (value - previous) * 100;
    const size = Math.abs(points);
    if (size < 0.05) return { kind: 'change', direction: 'flat', text: '0 pp' };
    return { kind: 'change', direction: points > 0 ? 'up' : 'down', text: `${oneDecimal.format(size)} pp` };
  }
  if (previous === 0) return value === 0 ? { kind: 'change', direction: 'flat', text: '0%' } : { kind: 'new' };
  const percent = ((value - previous) / Math.abs(previous)) * 100;
  const size = Math.abs(percent);
  if (size < 0.5) return { kind: 'change', direction: 'flat', text: '0%' };
  return { kind: 'change', direction: percent > 0 ? 'up' : 'down', text: `${Math.round(size)}%` };
}

/** Whether a change is good news: more automated resolutions, a quicker first response. */
export type BetterWhen = 'higher' | 'lower' | 'neither';

export function changeTone(direction: ChangeDirection, better: BetterWhen): 'good' | 'bad' | 'neutral' {
  if (direction === 'flat' || better === 'neither') return 'neutral';
  return (direction === 'up') === (better === 'higher') ? 'good' : 'bad';
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "Mar 2025" for the API's "2025-03" (a UTC month). */
export function monthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/u.exec(month);
  if (!match) return month;
  return monthFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/** Client statuses as people read them ("active" → "Active"). */
export function statusLabel(status: string): string {
  return status === '' ? status : `${status.charAt(0).toUpperCase()}${status.slice(1)}`;
}

/** What a satisfaction figure says while customers are not asked for ratings. */
export const RATINGS_NOT_COLLECTED = 'Customer ratings are not collected yet';
