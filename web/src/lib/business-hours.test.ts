import { describe, expect, it } from 'vitest';
import { businessHours } from '@common/api/agents';
import { defaultHours, describeBusinessHours, nextRowFor, rowsOfDay, toBusinessHours, toBusinessHoursForm } from './business-hours';

describe('business hours in the form', () => {
  it('reads "Always on" (null) as the switch on, with Mon–Fri 09:00–17:00 ready in the browser time zone', () => {
    expect(toBusinessHoursForm(null, 'Europe/Berlin')).toEqual({ alwaysOn: true, timezone: 'Europe/Berlin', hours: defaultHours() });
    expect(defaultHours().map((r) => r.day)).toEqual([1, 2, 3, 4, 5]);
  });

  it('orders the API rows Monday to Sunday, then by opening time', () => {
    const form = toBusinessHoursForm(
      {
        timezone: 'Europe/London',
        days: [
          { day: 0, open: '10:00', close: '12:00' },
          { day: 1, open: '14:00', close: '18:00' },
          { day: 1, open: '08:00', close: '12:00' },
        ],
      },
      'UTC',
    );
    expect(form.alwaysOn).toBe(false);
    expect(form.timezone).toBe('Europe/London');
    expect(form.hours).toEqual([
      { day: 1, open: '08:00', close: '12:00' },
      { day: 1, open: '14:00', close: '18:00' },
      { day: 0, open: '10:00', close: '12:00' },
    ]);
  });

  it('sends null when always on, else the rows in form order (so API error indices match the rows)', () => {
    const hours = [
      { day: 3, open: '09:00', close: '17:00' },
      { day: 1, open: '09:00', close: '12:00' },
    ];
    expect(toBusinessHours({ alwaysOn: true, timezone: 'UTC', hours })).toBeNull();
    const value = toBusinessHours({ alwaysOn: false, timezone: ' Europe/Paris ', hours });
    expect(value).toEqual({ timezone: 'Europe/Paris', days: hours });
    expect(businessHours.safeParse(value).success).toBe(true);
  });

  it('round-trips through the API shape', () => {
    const value = { timezone: 'America/New_York', days: [{ day: 2, open: '07:30', close: '19:00' }] };
    expect(toBusinessHours(toBusinessHoursForm(value, 'UTC'))).toEqual(value);
  });

  it('finds the rows of a day with their form index and proposes the next range after the last one', () => {
    const rows = [
      { day: 1, open: '08:00', close: '12:00' },
      { day: 2, open: '09:00', close: '17:00' },
      { day: 1, open: '13:00', close: '15:30' },
    ];
    expect(rowsOfDay(rows, 1).map((r) => r.index)).toEqual([0, 2]);
    expect(nextRowFor(rows, 1)).toEqual({ day: 1, open: '16:30', close: '19:00' });
    expect(nextRowFor(rows, 6)).toEqual({ day: 6, open: '09:00', close: '17:00' });
    expect(nextRowFor([{ day: 5, open: '09:00', close: '21:00' }], 5)).toEqual({ day: 5, open: '22:00', close: '23:59' });
  });

  it('describes hours in one line, joining runs of equal days', () => {
    expect(describeBusinessHours(null)).toBe('Always on');
    expect(
      describeBusinessHours({
        timezone: 'Europe/London',
        days: [...defaultHours(), { day: 6, open: '10:00', close: '14:00' }],
      }),
    ).toBe('Mon–Fri 09:00–17:00 · Sat 10:00–14:00 (Europe/London)');
    expect(describeBusinessHours({ timezone: 'UTC', days: [] })).toBe('Closed every day (UTC)');
  });
});
