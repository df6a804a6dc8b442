/**
 * Business hours as the form edits them and as the API stores them. The form always holds a time
 * zone and rows (so switching "Always on" off again brings the last hours back); the API gets
 * `null` for "Always on". Rows keep their order both ways, so an error the API reports at
 * `businessHours.days.3.close` belongs to form row 3.
 */
import type { BusinessHours } from '@common/api/agents';

export interface HoursRow {
  /** 0 = Sunday … 6 = Saturday, as the API counts. */
  day: number;
  open: string;
  close: string;
}

export interface BusinessHoursForm {
  alwaysOn: boolean;
  timezone: string;
  hours: HoursRow[];
}

/** Monday first, as a week reads on a business's door. */
export const WEEKDAYS = [
  { day: 1, label: 'Monday' },
  { day: 2, label: 'Tuesday' },
  { day: 3, label: 'Wednesday' },
  { day: 4, label: 'Thursday' },
  { day: 5, label: 'Friday' },
  { day: 6, label: 'Saturday' },
  { day: 0, label: 'Sunday' },
] as const;

export const DEFAULT_OPEN = '09:00';
export const DEFAULT_CLOSE = '17:00';

/** Monday to Friday, 09:00–17:00: what switching "Always on" off starts from. */
export function defaultHours(): HoursRow[] {
  return [1, 2, 3, 4, 5].map((day) => ({ day, open: DEFAULT_OPEN, close: DEFAULT_CLOSE }));
}

/** The browser's own time zone, else UTC. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const weekdayIndex = (day: number) => WEEKDAYS.findIndex((w) => w.day === day);

/** Rows ordered Monday → Sunday, then by opening time. */
export function sortHours(rows: readonly HoursRow[]): HoursRow[] {
  return [...rows].sort((a, b) => weekdayIndex(a.day) - weekdayIndex(b.day) || a.open.localeCompare(b.open));
}

export function toBusinessHoursForm(value: BusinessHours | null, fallbackTimeZone: string): BusinessHoursForm {
  if (value === null) return { alwaysOn: true, timezone: fallbackTimeZone, hours: defaultHours() };
  return {
    alwaysOn: false,
    timezone: value.timezone,
    hours: sortHours(value.days).map(({ day, open, close }) => ({ day, open, close })),
  };
}

export function toBusinessHours(form: BusinessHoursForm): BusinessHours | null {
  if (form.alwaysOn) return null;
  return {
    timezone: form.timezone.trim(),
    days: form.hours.map(({ day, open, close }) => ({ day, open, close })),
  };
}

/** The form rows of one weekday with their index in the form's array. */
export function rowsOfDay(rows: readonly HoursRow[], day: number): { row: HoursRow; index: number }[] {
  return rows.flatMap((row, index) => (row.day === day ? [{ row, index }] : []));
}

/** A row to add to `day`: after its last range when there is one, else the usual hours. */
export function nextRowFor(rows: readonly HoursRow[], day: number): HoursRow {
  const last = rowsOfDay(rows, day).at(-1)?.row;
  if (!last || last.close >= '23:00') return { day, open: DEFAULT_OPEN, close: DEFAULT_CLOSE };
  const [h = 0, m = 0] = last.close.split(':').map(Number);
  const open = `${String(h + 1).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return { day, open, close: h + 4 <= 23 ? `${String(h + 4).padStart(2, '0')}:00` : '23:59' };
}

/** "Always on", or "Mon–Fri 09:00–17:00 · Sat 10:00–14:00 (Europe/London)". */
export function describeBusinessHours(value: BusinessHours | null): string {
  if (value === null) return 'Always on';
  if (value.days.length === 0) return `Closed every day (${value.timezone})`;
  const byDay = new Map<number, string>();
  for (const row of sortHours(value.days)) {
    const range = `${row.open}–${row.close}`;
    byDay.set(row.day, byDay.has(row.day) ? `${byDay.get(row.day)}, ${range}` : range);
  }
  // Runs of consecutive weekdays with the same ranges read as one "Mon–Fri".
  const parts: string[] = [];
  let run: { from: string; to: string; ranges: string } | null = null;
  for (const { day, label } of WEEKDAYS) {
    const ranges = byDay.get(day);
    const short = label.slice(0, 3);
    if (ranges !== undefined && run !== null && run.ranges === ranges) {
      run.to = short;
      continue;
    }
    if (run) parts.push(`${run.from === run.to ? run.from : `${run.from}–${run.to}`} ${run.ranges}`);
    run = ranges === undefined ? null : { from: short, to: short, ranges };
  }
  if (run) parts.push(`${run.from === run.to ? run.from : `${run.from}–${run.to}`} ${run.ranges}`);
  return `${parts.join(' · ')} (${value.timezone})`;
}

/** Every IANA time zone the browser knows, for the time zone field's suggestions. */
export function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}
