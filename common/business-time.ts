/**
 * Time "in business hours" (issue 16 §1): how much of an interval falls within a business's
 * opening hours, in the business's own time zone, daylight-saving changes included. Service
 * levels report each time twice — on the wall clock and in business hours — so a question asked
 * on Friday evening and answered on Monday morning does not count the weekend against the team.
 *
 * The hours are the agent's (common/api/agents.ts `BusinessHours`): per weekday one or more
 * windows `open`–`close` (HH:MM, close after open, local time). No hours means always open, as
 * the agent's policy reads them (`withinBusinessHours`).
 */

export interface OpeningHours {
  /** An IANA time zone. */
  timezone: string;
  /** 0 = Sunday … 6 = Saturday; HH:MM local times, close after open. */
  days: readonly { day: number; open: string; close: string }[];
}

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Canonical zone names known to be valid: only those, so input can never grow the set beyond the zones that exist. */
const knownZones = new Set<string>();

/** Whether this runtime knows the IANA time zone (making a formatter to find out costs more than a row's figures, so known ones are remembered). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (knownZones.has(timeZone)) return true;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  if (canonical === timeZone) knownZones.add(timeZone);
  return true;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading in `timeZone` at `instant`, as if it were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** The zone's offset from UTC at `instant` (ms; positive east of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallClock(whole, timeZone) - whole;
}

/**
 * The instant at which the wall clock in `timeZone` reads `wall` (a UTC-encoded local time), as
 * Temporal's "compatible" disambiguation does: a reading that happens twice (clocks going back) is
 * the first; a reading that never happens (clocks going forward) is read with the offset before
 * the change, which lands that much after the jump.
 */
export function instantOfWallClock(wall: number, timeZone: string): number {
  const before = wall - offsetAt(wall - DAY_MS / 2, timeZone);
  const after = wall - offsetAt(wall + DAY_MS / 2, timeZone);
  if (before === after) return before;
  // The offset changes near this reading: keep the candidates that really show it, the earliest.
  const shows = [before, after].filter((instant) => wallClock(instant, timeZone) === wall).sort((a, b) => a - b);
  return shows[0] ?? before;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Seconds of [from, to) within the opening hours (the wall-clock seconds when `hours` is null);
 * 0 when `to` is not after `from`.
 */
export function businessSeconds(hours: OpeningHours | null, from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (!(end > start)) return 0;
  if (!hours) return (end - start) / 1000;
  if (hours.days.length === 0) return 0;
  const zone = hours.timezone;
  // Every local calendar day the interval touches, with a day's margin on each side.
  const firstDay = Math.floor(wallClock(start, zone) / DAY_MS) - 1;
  const lastDay = Math.floor(wallClock(end, zone) / DAY_MS) + 1;
  let total = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const weekday = new Date(day * DAY_MS).getUTCDay();
    // The day's windows as instants, merged where they overlap (each counts once).
    const windows = hours.days
      .filter((window) => window.day === weekday)
      .map((window) => [
        instantOfWallClock(day * DAY_MS + minutesOf(window.open) * 60_000, zone),
        instantOfWallClock(day * DAY_MS + minutesOf(window.close) * 60_000, zone),
      ] as const)
      .sort((a, b) => a[0] - b[0]);
    let reached = -Infinity;
    for (const [open, close] of windows) {
      const from = Math.max(open, reached, start);
      const until = Math.min(close, end);
      if (until > from) total += until - from;
      reached = Math.max(reached, close);
    }
  }
  return total / 1000;
}
