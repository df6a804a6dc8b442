import { describe, expect, it } from 'vitest';
import { describeLifetime, parseLifetime, splitLifetime } from './session-lifetime';

describe('session lifetime', () => {
  it('shows whole days as days and anything else as hours', () => {
    expect(splitLifetime(168)).toEqual({ amount: '7', unit: 'days' });
    expect(splitLifetime(36)).toEqual({ amount: '36', unit: 'hours' });
    expect(describeLifetime(24)).toBe('1 day');
    expect(describeLifetime(1)).toBe('1 hour');
    expect(describeLifetime(720)).toBe('30 days');
  });

  it('reads an entry as hours within one hour and 30 days, whole numbers only', () => {
    expect(parseLifetime('7', 'days')).toEqual({ hours: 168 });
    expect(parseLifetime(' 12 ', 'hours')).toEqual({ hours: 12 });
    expect(parseLifetime('0', 'hours')).toEqual({ error: 'Session lifetime must be between 1 hour and 30 days' });
    expect(parseLifetime('31', 'days')).toEqual({ error: 'Session lifetime must be between 1 hour and 30 days' });
    expect(parseLifetime('1.5', 'days')).toEqual({ error: 'Enter a whole number of hours or days' });
    expect(parseLifetime('', 'hours')).toEqual({ error: 'Enter a whole number of hours or days' });
    expect(parseLifetime('-2', 'hours')).toEqual({ error: 'Enter a whole number of hours or days' });
  });
});
