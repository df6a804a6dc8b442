import { describe, expect, it } from 'vitest';
import { weekOverWeek } from './week-over-week';

describe('weekOverWeek', () => {
  it('gives the change in whole percent, good or bad by the figure', () => {
    expect(weekOverWeek(12, 10, 'higher')).toEqual({ text: '+20% vs the previous 7 days', direction: 'up', sentiment: 'good' });
    expect(weekOverWeek(8, 10, 'higher')).toEqual({ text: '−20% vs the previous 7 days', direction: 'down', sentiment: 'bad' });
    expect(weekOverWeek(90, 120, 'lower')).toEqual({ text: '−25% vs the previous 7 days', direction: 'down', sentiment: 'good' });
    expect(weekOverWeek(3, 2, 'neither')).toEqual({ text: '+50% vs the previous 7 days', direction: 'up', sentiment: 'neutral' });
    expect(weekOverWeek(1, 3, 'higher').text).toBe('−67% vs the previous 7 days');
  });

  it('says so when there is nothing to compare with', () => {
    expect(weekOverWeek(5, 0, 'higher')).toEqual({ text: 'None in the previous 7 days', direction: 'up', sentiment: 'good' });
    expect(weekOverWeek(0, 0, 'higher')).toEqual({ text: 'No change vs the previous 7 days', direction: 'flat', sentiment: 'neutral' });
    expect(weekOverWeek(4, 4, 'higher')).toEqual({ text: 'No change vs the previous 7 days', direction: 'flat', sentiment: 'neutral' });
    expect(weekOverWeek(60, null, 'lower')).toEqual({ text: 'Nothing to compare with the previous 7 days', direction: 'none', sentiment: 'neutral' });
    expect(weekOverWeek(null, 60, 'lower')).toEqual({ text: 'Nothing to compare this week', direction: 'none', sentiment: 'neutral' });
  });
});
