import type { FieldErrors } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { hoursFormPath, hoursFormResolver, toHoursBody, toHoursForm, type HoursForm } from './hours-form';

async function resolve(values: HoursForm): Promise<{ values: unknown; errors: FieldErrors<HoursForm> }> {
  const result = await hoursFormResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  return { values: result.values, errors: result.errors };
}

describe('the business hours dialog’s form', () => {
  it('round-trips the stored hours and "Always on"', () => {
    const stored = { businessHours: { timezone: 'Europe/Lisbon', days: [{ day: 1, open: '09:00', close: '18:00' }] }, outsideHours: 'away' as const };
    expect(toHoursBody(toHoursForm(stored, 'UTC'))).toEqual(stored);
    const always = toHoursForm({ businessHours: null, outsideHours: 'answer' }, 'Europe/Berlin');
    expect(always).toMatchObject({ alwaysOn: true, timezone: 'Europe/Berlin', outsideHours: 'answer' });
    expect(toHoursBody(always)).toEqual({ businessHours: null, outsideHours: 'answer' });
  });

  it('puts the contract’s messages on the fields they are about', async () => {
    expect(hoursFormPath('businessHours.timezone')).toBe('timezone');
    expect(hoursFormPath('businessHours.days.3.close')).toBe('hours.3.close');
    expect(hoursFormPath('businessHours.days')).toBe('hours');
    expect(hoursFormPath('outsideHours')).toBe('outsideHours');
    const bad = await resolve({ alwaysOn: false, timezone: 'Mars/Olympus', hours: [{ day: 1, open: '18:00', close: '09:00' }], outsideHours: 'away' });
    expect(bad.errors.timezone?.message).toBe('Unknown time zone');
    expect(bad.errors.hours?.[0]?.close?.message).toBe('Closing time must be after opening time');
    const good = await resolve({ alwaysOn: false, timezone: 'UTC', hours: [{ day: 2, open: '08:00', close: '12:00' }], outsideHours: 'answer' });
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ businessHours: { timezone: 'UTC', days: [{ day: 2, open: '08:00', close: '12:00' }] }, outsideHours: 'answer' });
  });
});
