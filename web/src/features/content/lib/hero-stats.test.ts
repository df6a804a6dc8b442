import { describe, expect, it } from 'vitest';
import type { HeroStat } from '@common/api/content';
import { canAdd, canRemove, movedPosition, rowsDiffer, rowsOf, statFieldErrors, toggledToast, toSaveBody } from './hero-stats';

const stat = (id: string, order: number, over: Partial<HeroStat> = {}): HeroStat => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  number: `${id}0+`,
  label: `Label ${id}`,
  order,
  isActive: true,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

describe('the hero stats card', () => {
  const stored = [stat('2', 1), stat('1', 0), stat('3', 2, { isActive: false })];

  it('lists the stats in their order, hidden ones too', () => {
    expect(rowsOf(stored).map((r) => [r.label, r.isActive])).toEqual([
      ['Label 1', true],
      ['Label 2', true],
      ['Label 3', false],
    ]);
  });

  it('knows when the rows hold unsaved edits, additions or removals', () => {
    const rows = rowsOf(stored);
    expect(rowsDiffer(rows, stored)).toBe(false);
    expect(rowsDiffer(rows.map((r, i) => (i === 1 ? { ...r, label: 'Changed' } : r)), stored)).toBe(true);
    expect(rowsDiffer(rows.slice(1), stored)).toBe(true);
    expect(rowsDiffer([...rows, { key: 'new-1', number: '1', label: 'x', isActive: true }], stored)).toBe(true);
  });

  it('moves up and down within the list only', () => {
    expect(movedPosition(0, -1, 3)).toBeNull();
    expect(movedPosition(0, 1, 3)).toBe(1);
    expect(movedPosition(2, -1, 3)).toBe(1);
    expect(movedPosition(2, 1, 3)).toBeNull();
  });

  it('keeps between 1 and 8 stats', () => {
    const one = rowsOf([stat('1', 0)]);
    expect(canRemove(one)).toBe(false);
    expect(canAdd(one)).toBe(true);
    const eight = Array.from({ length: 8 }, (_, i) => ({ key: String(i), number: '1', label: 'x', isActive: true }));
    expect(canAdd(eight)).toBe(false);
  });

  it('saves the rows in order, keeping the ids of stored ones', () => {
    const rows = [...rowsOf(stored), { key: 'new-1', number: '5', label: 'Countries', isActive: true }];
    const body = toSaveBody(rows);
    expect(body[0]).toEqual({ id: stored[1]!.id, number: '10+', label: 'Label 1', isActive: true });
    expect(body[3]).toEqual({ number: '5', label: 'Countries', isActive: true });
  });

  it('names the toggle by the state it ends in', () => {
    expect(toggledToast(false)).toBe('Stat Hidden');
    expect(toggledToast(true)).toBe('Stat Shown');
  });

  it('puts server errors on their rows', () => {
    expect(statFieldErrors({ 'stats.2.label': 'Label is required', 'stats.2.number': 'Number is required', stats: 'At most 8 stats' })).toEqual({
      rows: { 2: { label: 'Label is required', number: 'Number is required' } },
      list: 'At most 8 stats',
    });
  });
});
