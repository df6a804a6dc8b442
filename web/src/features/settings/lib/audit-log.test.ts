import { describe, expect, it } from 'vitest';
import { detailText, EMPTY_AUDIT_FORM, rangeError, toAuditFilters } from './audit-log';

describe('audit log filters', () => {
  it('sends nothing for an empty form', () => {
    expect(toAuditFilters(EMPTY_AUDIT_FORM)).toEqual({ type: undefined, user: undefined, from: undefined, to: undefined });
  });

  it('reads the days as local days, the last one included', () => {
    const filters = toAuditFilters({ type: 'auth.account_locked', user: ' ann@ ', from: '2026-03-01', to: '2026-03-02' });
    expect(filters.type).toBe('auth.account_locked');
    expect(filters.user).toBe('ann@');
    expect(filters.from).toBe(new Date(2026, 2, 1).toISOString());
    expect(filters.to).toBe(new Date(2026, 2, 3).toISOString());
  });

  it('refuses a range that ends before it starts', () => {
    expect(rangeError({ ...EMPTY_AUDIT_FORM, from: '2026-03-02', to: '2026-03-01' })).toBe('The end date must be on or after the start date');
    expect(rangeError({ ...EMPTY_AUDIT_FORM, from: '2026-03-02', to: '2026-03-02' })).toBeUndefined();
  });

  it('shows details as text', () => {
    expect(detailText({ from: 168, to: 24 })).toBe('{"from":168,"to":24}');
    expect(detailText(true)).toBe('true');
    expect(detailText(null)).toBe('—');
  });
});
