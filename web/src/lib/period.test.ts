import { describe, expect, it } from 'vitest';
import { insightsQuery } from '@common/api/insights';
import { defaultCustomRange, insightsSearch, localMidnight, readSelection, toInsightsQuery, writeSelection } from './period';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';

describe('the period in the URL', () => {
  it('takes the page’s own default period, which it leaves out of the URL', () => {
    expect(readSelection(new URLSearchParams(''), true, '24h').period).toBe('24h');
    expect(readSelection(new URLSearchParams('period=7d'), true, '24h').period).toBe('7d');
    const selection = { period: '24h', firstDay: undefined, lastDay: undefined, clientId: undefined } as const;
    expect(writeSelection(new URLSearchParams('period=7d&tab=trends'), selection, '24h').toString()).toBe('tab=trends');
    expect(writeSelection(new URLSearchParams(''), { ...selection, period: '7d' }, '24h').toString()).toBe('period=7d');
  });

  it('defaults to the last 7 days for every client', () => {
    expect(readSelection(new URLSearchParams(''), true)).toEqual({ period: '7d', firstDay: undefined, lastDay: undefined, clientId: undefined });
    expect(readSelection(new URLSearchParams('period=yearly'), true).period).toBe('7d');
  });

  it('keeps the client only for users who may choose one, and only a real id', () => {
    expect(readSelection(new URLSearchParams(`client=${CLIENT}`), true).clientId).toBe(CLIENT);
    expect(readSelection(new URLSearchParams(`client=${CLIENT}`), false).clientId).toBeUndefined();
    expect(readSelection(new URLSearchParams('client=nope'), true).clientId).toBeUndefined();
  });

  it('reads the days of a custom range only with the custom period', () => {
    expect(readSelection(new URLSearchParams('period=custom&from=2025-03-01&to=2025-03-31'), true)).toMatchObject({
      period: 'custom',
      firstDay: '2025-03-01',
      lastDay: '2025-03-31',
    });
    expect(readSelection(new URLSearchParams('period=30d&from=2025-03-01'), true).firstDay).toBeUndefined();
  });

  it('writes back what was chosen and keeps the other params (the tab)', () => {
    const written = writeSelection(new URLSearchParams('tab=trends&period=custom&from=2025-03-01&to=2025-03-02'), {
      period: '30d',
      firstDay: '2025-03-01',
      lastDay: '2025-03-02',
      clientId: CLIENT,
    });
    expect(written.toString()).toBe(`tab=trends&period=30d&client=${CLIENT}`);
    expect(writeSelection(new URLSearchParams('period=24h'), { period: '7d', firstDay: undefined, lastDay: undefined, clientId: undefined }).toString()).toBe('');
  });
});

describe('the API query', () => {
  it('sends a custom range as local midnight of the first day and of the day after the last', () => {
    const query = toInsightsQuery({ period: 'custom', firstDay: '2025-03-01', lastDay: '2025-03-31', clientId: CLIENT });
    expect(query).toEqual({
      period: 'custom',
      from: new Date(2025, 2, 1).toISOString(),
      to: new Date(2025, 3, 1).toISOString(),
      clientId: CLIENT,
    });
    expect(insightsQuery.safeParse(query).success).toBe(true);
  });

  it('leaves out a day that is missing or not a real one, so the server names it', () => {
    const query = toInsightsQuery({ period: 'custom', firstDay: '2025-02-30', lastDay: undefined, clientId: undefined });
    expect(query).toEqual({ period: 'custom' });
    expect(localMidnight('2025-02-30')).toBeNull();
    expect(localMidnight('yesterday')).toBeNull();
  });

  it('sends no days with the rolling periods', () => {
    expect(toInsightsQuery({ period: '24h', firstDay: '2025-03-01', lastDay: '2025-03-02', clientId: undefined })).toEqual({ period: '24h' });
  });

  it('writes the export link’s query string in a fixed order', () => {
    expect(insightsSearch({ clientId: CLIENT, period: '30d' })).toBe(`period=30d&clientId=${CLIENT}`);
  });

  it('starts a custom range as the 7 days up to today', () => {
    expect(defaultCustomRange(new Date(2025, 2, 3, 15, 30))).toEqual({ firstDay: '2025-02-25', lastDay: '2025-03-03' });
  });
});
