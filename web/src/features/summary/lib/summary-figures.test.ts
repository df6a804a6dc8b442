import { describe, expect, it } from 'vitest';
import { summaryQuery } from '@common/api/summary';
import { browserTimeZone, confidencePercent, formatTopicTrend, toSummaryQuery } from './summary-figures';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';

describe('formatTopicTrend', () => {
  it.each([
    [null, 'new'],
    [0.5, '+50 %'],
    [1.234, '+123 %'],
    [-0.2, '−20 %'],
    [0.001, '0 %'],
    [0, '0 %'],
    [Number.NaN, '—'],
  ])('writes %s as %s', (trend, text) => {
    expect(formatTopicTrend(trend)).toBe(text);
  });
});

describe('confidencePercent', () => {
  it('rounds a share to whole percent and keeps a missing value missing', () => {
    expect(confidencePercent(0.876)).toBe(88);
    expect(confidencePercent(null)).toBeNull();
  });
});

describe('toSummaryQuery', () => {
  it('sends the period, the client and the time zone, which the contract accepts', () => {
    const query = toSummaryQuery({ period: '24h', firstDay: undefined, lastDay: undefined, clientId: CLIENT }, 'Europe/Paris');
    expect(query).toEqual({ period: '24h', clientId: CLIENT, timeZone: 'Europe/Paris' });
    expect(summaryQuery.safeParse(query).success).toBe(true);
  });

  it('turns a custom range of local days into the instants the API reads', () => {
    const query = toSummaryQuery({ period: 'custom', firstDay: '2025-03-01', lastDay: '2025-03-31', clientId: undefined }, 'UTC');
    expect(query.from).toBe(new Date(2025, 2, 1).toISOString());
    expect(query.to).toBe(new Date(2025, 3, 1).toISOString());
    expect(summaryQuery.safeParse(query).success).toBe(true);
  });
});

describe('browserTimeZone', () => {
  it('is a zone the contract knows', () => {
    expect(summaryQuery.safeParse({ timeZone: browserTimeZone() }).success).toBe(true);
  });
});
