import { describe, expect, it } from 'vitest';
import { addDays, billingPeriod, clampToPeriod, monthOf, nextMonth, proratedAmount } from './billing-periods';

describe('billing periods (calendar months, UTC)', () => {
  it('knows each month’s days, leap years included, and the instant the next one starts', () => {
    expect(billingPeriod('2026-02')).toEqual({ month: '2026-02', start: '2026-02-01', end: '2026-02-28', days: 28, endsAt: new Date('2026-03-01T00:00:00Z') });
    expect(billingPeriod('2028-02')).toMatchObject({ end: '2028-02-29', days: 29 });
    expect(billingPeriod('2026-12')).toMatchObject({ end: '2026-12-31', days: 31, endsAt: new Date('2027-01-01T00:00:00Z') });
    expect(() => billingPeriod('2026-13')).toThrow('Not a month');
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08');
    expect(clampToPeriod('2027-01-05', billingPeriod('2026-12'))).toBe('2026-12-31');
    expect(clampToPeriod('2026-11-05', billingPeriod('2026-12'))).toBe('2026-12-01');
  });

  it('charges the whole price for a whole month and the covered days’ share, rounded half up, for a first, shorter one', () => {
    const november = billingPeriod('2026-11');
    expect(proratedAmount(29_900, '2026-11-01', november)).toBe(29_900);
    expect(proratedAmount(29_900, '2026-11-16', november)).toBe(14_950);
    // 49,900 × 1 / 30 = 1,663.33…
    expect(proratedAmount(49_900, '2026-11-30', november)).toBe(1_663);
    // 39,900 × 17 / 31 = 21,880.6…
    expect(proratedAmount(39_900, '2026-12-15', billingPeriod('2026-12'))).toBe(21_881);
    // Half a cent rounds up: 3 × 15 / 30 = 1.5.
    expect(proratedAmount(3, '2026-11-16', november)).toBe(2);
    expect(proratedAmount(1, '2026-11-30', november)).toBe(1);
  });
});
