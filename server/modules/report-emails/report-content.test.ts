/** How an e-mailed report writes its periods, figures and changes (report-content.ts), and which period a run reports on. */
import { describe, expect, it } from 'vitest';
import { periodOf } from '../../jobs/schedule';
import { formatChange, formatDuration, formatRate, periodLabel } from './report-content';
import { reportedPeriod } from './report-emails.service';

describe('report content', () => {
  it('names a day, and a week within a month, across months and across years', () => {
    expect(periodLabel(periodOf('day', '2026-11-27'))).toBe('27 Nov 2026');
    expect(periodLabel(periodOf('week', '2026-W48'))).toBe('23–29 Nov 2026');
    expect(periodLabel(periodOf('week', '2026-W49'))).toBe('30 Nov – 6 Dec 2026');
    expect(periodLabel(periodOf('week', '2026-W53'))).toBe('28 Dec 2026 – 3 Jan 2027');
  });

  it('writes figures as the insights page does', () => {
    expect([formatDuration(30), formatDuration(90), formatDuration(3_900), formatDuration(97_200), formatDuration(null)]).toEqual(['30 s', '2 min', '1 h 5 min', '1 d 3 h', '—']);
    expect([formatRate(1 / 3), formatRate(0), formatRate(1), formatRate(null)]).toEqual(['33.3%', '0%', '100%', '—']);
  });

  it('writes a change in percent of the period before, or in points for rates', () => {
    expect(formatChange(3, 1, 'percent')).toBe('+200%');
    expect(formatChange(3.5, 4, 'percent')).toBe('−13%');
    expect(formatChange(2, 2, 'percent')).toBe('0%');
    expect(formatChange(3, 0, 'percent')).toBe('new');
    expect(formatChange(0, 0, 'percent')).toBe('0%');
    expect(formatChange(1 / 3, 1, 'points')).toBe('−66.7 pp');
    expect(formatChange(0.25, 0, 'points')).toBe('+25 pp');
    expect(formatChange(0.5, 0.5, 'points')).toBe('0 pp');
    expect(formatChange(null, 1, 'percent')).toBe('');
    expect(formatChange(1, null, 'points')).toBe('');
  });

  it('reports on the day, or the ISO week, before the one the run is in', () => {
    expect(reportedPeriod('daily', '2026-11-28').key).toBe('2026-11-27');
    expect(reportedPeriod('daily', '2027-01-01').key).toBe('2026-12-31');
    expect(reportedPeriod('weekly', '2026-W49').key).toBe('2026-W48');
    expect(reportedPeriod('weekly', '2027-W01').key).toBe('2026-W53');
    expect(reportedPeriod('weekly', periodOf('week', '2026-W49'))).toEqual(periodOf('week', '2026-W48'));
  });
});
