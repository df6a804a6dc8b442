/** The session lifetime as the Security tab edits it: a whole number of hours or days. */
import { SECURITY_MESSAGES, SESSION_LIFETIME_MAX_HOURS, SESSION_LIFETIME_MIN_HOURS } from '@common/api/security';

export type LifetimeUnit = 'hours' | 'days';

export const LIFETIME_WHOLE = 'Enter a whole number of hours or days';

/** Whole days when the hours make whole days, else hours. */
export function splitLifetime(hours: number): { amount: string; unit: LifetimeUnit } {
  return hours % 24 === 0 ? { amount: String(hours / 24), unit: 'days' } : { amount: String(hours), unit: 'hours' };
}

/** The hours an entry means, or the message saying why it cannot be saved. */
export function parseLifetime(amount: string, unit: LifetimeUnit): { hours: number } | { error: string } {
  const text = amount.trim();
  if (!/^\d{1,6}$/u.test(text)) return { error: LIFETIME_WHOLE };
  const hours = Number(text) * (unit === 'days' ? 24 : 1);
  if (hours < SESSION_LIFETIME_MIN_HOURS || hours > SESSION_LIFETIME_MAX_HOURS) return { error: SECURITY_MESSAGES.lifetimeRange };
  return { hours };
}

/** "7 days", "1 day", "12 hours", "36 hours". */
export function describeLifetime(hours: number): string {
  const { amount, unit } = splitLifetime(hours);
  const n = Number(amount);
  return `${amount} ${unit === 'days' ? (n === 1 ? 'day' : 'days') : n === 1 ? 'hour' : 'hours'}`;
}
