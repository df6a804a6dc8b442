import { describe, expect, it } from 'vitest';
import { businessHoursText, hasActivity, periodText } from './dashboard';

describe('the client dashboard’s wording', () => {
  it("says the spec's 'Mon-Fri 9AM-6PM' only when exactly that is stored", () => {
    const weekdays = [5, 4, 3, 2, 1].map((day) => ({ day, open: '09:00', close: '18:00' }));
    expect(businessHoursText({ timezone: 'Europe/Lisbon', days: weekdays })).toBe('Mon-Fri 9AM-6PM (Europe/Lisbon)');
    expect(businessHoursText({ timezone: 'UTC', days: weekdays.map((d) => ({ ...d, close: '17:00' })) })).toBe('Mon–Fri 09:00–17:00 (UTC)');
    expect(businessHoursText({ timezone: 'UTC', days: [...weekdays, { day: 6, open: '09:00', close: '18:00' }] })).toBe('Mon–Sat 09:00–18:00 (UTC)');
    expect(businessHoursText(null)).toBe('Always on');
  });

  it('names the period it covers, in UTC days', () => {
    expect(periodText({ from: '2026-03-02', to: '2026-03-31', days: 30 })).toMatch(/^Last 30 days \(.*2 – .*31, UTC\)$/u);
  });

  it('tells an empty period from one with activity', () => {
    expect(hasActivity([{ day: '2026-03-01', messages: 0, conversations: 0, answered: 0, avgResponseSeconds: null }])).toBe(false);
    expect(hasActivity([{ day: '2026-03-01', messages: 2, conversations: 0, answered: 0, avgResponseSeconds: null }])).toBe(true);
  });
});
