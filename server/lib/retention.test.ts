import { describe, expect, it } from 'vitest';
import { deleteInBatches } from './retention';

describe('deleteInBatches', () => {
  /** A table of `rows` rows that a batch deletes up to `limit` of. */
  function table(rows: number) {
    let left = rows;
    const calls: number[] = [];
    return {
      calls,
      deleteBatch: (limit: number) => {
        const n = Math.min(limit, left);
        left -= n;
        calls.push(n);
        return Promise.resolve(n);
      },
    };
  }

  it('deletes until a batch comes back short, counting every row', async () => {
    const t = table(12);
    expect(await deleteInBatches(t.deleteBatch, 5)).toBe(12);
    expect(t.calls).toEqual([5, 5, 2]);
  });

  it('asks once more after a full last batch, and stops on an empty one', async () => {
    const t = table(10);
    expect(await deleteInBatches(t.deleteBatch, 5)).toBe(10);
    expect(t.calls).toEqual([5, 5, 0]);
    const empty = table(0);
    expect(await deleteInBatches(empty.deleteBatch, 5)).toBe(0);
    expect(empty.calls).toEqual([0]);
  });
});
