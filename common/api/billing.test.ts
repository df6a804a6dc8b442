import { describe, expect, it } from 'vitest';
import { amountInputText, coveredDaysLabel, formatAmount, invoiceNumber, monthLabel, parseAmount } from './billing';

describe('billing formats', () => {
  it('reads amounts people type as minor units, and refuses what is not an amount', () => {
    expect(parseAmount('120')).toBe(12_000);
    expect(parseAmount(' 120.5 ')).toBe(12_050);
    expect(parseAmount('$1,200.05')).toBe(120_005);
    expect(parseAmount('0.07')).toBe(7);
    for (const bad of ['', 'abc', '12.345', '-5', '1e3', '12.', '.5', '12,50.0.1']) expect(parseAmount(bad), bad).toBeNull();
    expect(amountInputText(12_050)).toBe('120.50');
  });

  it('writes invoice numbers, amounts and periods', () => {
    expect(invoiceNumber(2026, 123)).toBe('PARLEY-2026-000123');
    expect(invoiceNumber(2026, 1_234_567)).toBe('PARLEY-2026-1234567');
    expect(formatAmount(29_900, 'USD')).toBe('$299.00');
    expect(formatAmount(123_456, 'USD')).toBe('$1,234.56');
    expect(monthLabel('2026-11')).toBe('November 2026');
    expect(coveredDaysLabel('2026-11-01', '2026-11-30')).toBe('1–30 Nov 2026');
    expect(coveredDaysLabel('2026-11-15', '2026-11-30')).toBe('15–30 Nov 2026');
  });
});
