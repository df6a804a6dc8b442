import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { businessSeconds, instantOfWallClock, type OpeningHours } from './business-time';

const HOUR = 3600;
const at = (iso: string) => new Date(iso);

/** Monday to Friday 09:00–17:00. */
const weekdays = (timezone: string): OpeningHours => ({
  timezone,
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '09:00', close: '17:00' })),
});

describe('businessSeconds', () => {
  it('counts only the opening hours, in the business’s time zone', () => {
    const utc = weekdays('UTC');
    // Friday 16:00 to Monday 10:00: one hour on Friday, one on Monday.
    expect(businessSeconds(utc, at('2026-11-27T16:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(2 * HOUR);
    // Entirely within a day.
    expect(businessSeconds(utc, at('2026-11-25T10:15:00Z'), at('2026-11-25T10:45:30Z'))).toBe(30 * 60 + 30);
    // Entirely outside: a Saturday.
    expect(businessSeconds(utc, at('2026-11-28T10:00:00Z'), at('2026-11-28T12:00:00Z'))).toBe(0);
    // New York is UTC−5 in November: 14:00Z–15:00Z is 09:00–10:00 there, 13:00Z–14:00Z before opening.
    const newYork = weekdays('America/New_York');
    expect(businessSeconds(newYork, at('2026-11-25T13:00:00Z'), at('2026-11-25T15:00:00Z'))).toBe(HOUR);
    // Tokyo (UTC+9): Monday 30 November 09:00 there is 00:00Z that day.
    expect(businessSeconds(weekdays('Asia/Tokyo'), at('2026-11-30T00:00:00Z'), at('2026-11-30T01:30:00Z'))).toBe(1.5 * HOUR);
  });

  it('is the wall clock without hours, nothing with no open day, and 0 for an empty or reversed interval', () => {
    expect(businessSeconds(null, at('2026-11-27T16:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(66 * HOUR);
    expect(businessSeconds({ timezone: 'UTC', days: [] }, at('2026-11-27T16:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(0);
    expect(businessSeconds(weekdays('UTC'), at('2026-11-25T12:00:00Z'), at('2026-11-25T12:00:00Z'))).toBe(0);
    expect(businessSeconds(weekdays('UTC'), at('2026-11-25T12:00:00Z'), at('2026-11-25T11:00:00Z'))).toBe(0);
  });

  it('counts overlapping windows of a day once, and split days in both parts', () => {
    const overlapping: OpeningHours = {
      timezone: 'UTC',
      days: [
        { day: 3, open: '09:00', close: '17:00' },
        { day: 3, open: '12:00', close: '18:00' },
      ],
    };
    expect(businessSeconds(overlapping, at('2026-11-25T00:00:00Z'), at('2026-11-26T00:00:00Z'))).toBe(9 * HOUR);
    const split: OpeningHours = {
      timezone: 'UTC',
      days: [
        { day: 3, open: '09:00', close: '12:00' },
        { day: 3, open: '14:00', close: '18:00' },
      ],
    };
    expect(businessSeconds(split, at('2026-11-25T11:00:00Z'), at('2026-11-25T15:00:00Z'))).toBe(2 * HOUR);
  });

  it('follows daylight-saving changes: a London working day is 8 hours on both sides of a change', () => {
    const london = weekdays('Europe/London');
    // Monday 30 March 2026, after the clocks went forward (BST, UTC+1): 08:00Z–16:00Z.
    expect(businessSeconds(london, at('2026-03-30T00:00:00Z'), at('2026-03-31T00:00:00Z'))).toBe(8 * HOUR);
    expect(businessSeconds(london, at('2026-03-30T08:00:00Z'), at('2026-03-30T09:00:00Z'))).toBe(HOUR);
    expect(businessSeconds(london, at('2026-03-30T07:00:00Z'), at('2026-03-30T08:00:00Z'))).toBe(0);
    // A week across the change: five days of 8 hours.
    expect(businessSeconds(london, at('2026-03-26T00:00:00Z'), at('2026-04-02T00:00:00Z'))).toBe(5 * 8 * HOUR);
  });

  it('reads a wall-clock time the way Temporal’s "compatible" disambiguation does', () => {
    const wall = (iso: string) => Date.parse(`${iso}Z`);
    // Ordinary: 09:00 in London in winter is 09:00Z, in summer 08:00Z.
    expect(new Date(instantOfWallClock(wall('2026-01-14T09:00:00'), 'Europe/London')).toISOString()).toBe('2026-01-14T09:00:00.000Z');
    expect(new Date(instantOfWallClock(wall('2026-07-14T09:00:00'), 'Europe/London')).toISOString()).toBe('2026-07-14T08:00:00.000Z');
    // Clocks go back at 02:00 BST on 25 October 2026: 01:30 happens twice, the first is 00:30Z.
    expect(new Date(instantOfWallClock(wall('2026-10-25T01:30:00'), 'Europe/London')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // Clocks go forward at 01:00 GMT on 29 March 2026: 01:30 never happens; read as GMT, 01:30Z (02:30 BST).
    expect(new Date(instantOfWallClock(wall('2026-03-29T01:30:00'), 'Europe/London')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  const zones = fc.constantFrom('UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham');
  const window = fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 23 * 60 }), fc.integer({ min: 1, max: 24 * 60 }))
    .map(([day, open, length]) => {
      const close = Math.min(open + length, 23 * 60 + 59);
      const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      return { day, open: hhmm(open), close: hhmm(Math.max(close, open + 1)) };
    });
  const hoursArb = fc.record({ timezone: zones, days: fc.array(window, { maxLength: 8 }) });
  const instant = fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') });

  it('never exceeds the wall clock, and adds up over a split interval (property)', () => {
    fc.assert(
      fc.property(hoursArb, instant, fc.integer({ min: 0, max: 20 * 86_400_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (hours, start, length, cut) => {
        const from = new Date(start);
        const to = new Date(start + length);
        const middle = new Date(start + Math.floor(length * cut));
        const whole = businessSeconds(hours, from, to);
        expect(whole).toBeGreaterThanOrEqual(0);
        expect(whole).toBeLessThanOrEqual(length / 1000 + 1e-9);
        expect(businessSeconds(hours, from, middle) + businessSeconds(hours, middle, to)).toBeCloseTo(whole, 6);
      }),
      { numRuns: 300 },
    );
  });

  it('is the wall clock when open all day every day, in any zone (property)', () => {
    fc.assert(
      fc.property(zones, instant, fc.integer({ min: 0, max: 10 * 86_400_000 }), (timezone, start, length) => {
        const always: OpeningHours = { timezone, days: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open: '00:00', close: '23:59' })) };
        const seconds = businessSeconds(always, new Date(start), new Date(start + length));
        // Each local day misses its last minute (23:59–24:00), and a day of a DST change may be 23 or 25 hours.
        expect(seconds).toBeLessThanOrEqual(length / 1000);
        expect(seconds).toBeGreaterThanOrEqual(length / 1000 - (Math.ceil(length / 86_400_000) + 2) * 60);
      }),
      { numRuns: 200 },
    );
  });
});
