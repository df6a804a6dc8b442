import { describe, expect, it } from 'vitest';
import { changeTone, figureChange, formatDuration, formatRate, formatSatisfaction, monthLabel } from './figures';

describe('formatDuration', () => {
  it.each([
    [42, '42 s'],
    [0.4, '0 s'],
    [59.6, '1 min'],
    [180, '3 min'],
    [3900, '1 h 5 min'],
    [7200, '2 h'],
    [2 * 86_400 + 3 * 3600, '2 d 3 h'],
  ])('writes %s seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('writes a missing figure as a dash', () => {
    expect(formatDuration(null)).toBe('—');
  });
});

describe('rates and ratings', () => {
  it('writes shares as percentages and ratings out of 5', () => {
    expect(formatRate(0.425)).toMatch(/^42[.,]5%$/u);
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(null)).toBe('—');
    expect(formatSatisfaction(4.26)).toBe('4.3 / 5');
    expect(formatSatisfaction(null)).toBe('—');
  });
});

describe('figureChange', () => {
  it('says nothing when either side is missing', () => {
    expect(figureChange({ value: 3, previous: null }, 'percent')).toEqual({ kind: 'none' });
    expect(figureChange({ value: null, previous: 0.5 }, 'points')).toEqual({ kind: 'none' });
  });

  it('calls a figure new when the period before had none', () => {
    expect(figureChange({ value: 4, previous: 0 }, 'percent')).toEqual({ kind: 'new' });
    expect(figureChange({ value: 0, previous: 0 }, 'percent')).toEqual({ kind: 'change', direction: 'flat', text: '0%' });
  });

  it('gives counts and times in percent of the period before', () => {
    expect(figureChange({ value: 15, previous: 12 }, 'percent')).toEqual({ kind: 'change', direction: 'up', text: '25%' });
    expect(figureChange({ value: 60, previous: 120 }, 'percent')).toEqual({ kind: 'change', direction: 'down', text: '50%' });
  });

  it('gives rates in percentage points', () => {
    expect(figureChange({ value: 0.5, previous: 0.25 }, 'points')).toEqual({ kind: 'change', direction: 'up', text: '25 pp' });
    expect(figureChange({ value: 0.3, previous: 0.3 }, 'points')).toEqual({ kind: 'change', direction: 'flat', text: '0 pp' });
  });

  it('colours a quicker first response as good news and more conversations as neither', () => {
    expect(changeTone('down', 'lower')).toBe('good');
    expect(changeTone('down', 'higher')).toBe('bad');
    expect(changeTone('up', 'neither')).toBe('neutral');
  });
});

describe('monthLabel', () => {
  it('names the UTC month', () => {
    expect(monthLabel('2025-03')).toMatch(/2025/u);
    expect(monthLabel('2025-03')).not.toBe('2025-03');
    expect(monthLabel('not a month')).toBe('not a month');
  });
});
