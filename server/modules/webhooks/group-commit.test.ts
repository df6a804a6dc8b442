import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('group commit', () => {
  it('commits items added in the same turn of the event loop together, and resolves each only after the commit', async () => {
    const commits: number[][] = [];
    const gate = deferred();
    const group = new GroupCommit<number>(
      async (items) => {
        commits.push(items);
        await gate.promise;
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    let resolved = 0;
    const all = Array.from({ length: 50 }, (_, i) => group.add(i).then(() => (resolved += 1)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(commits).toEqual([Array.from({ length: 50 }, (_, i) => i)]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(resolved).toBe(0); // not before the commit finished
    gate.resolve();
    await Promise.all(all);
    expect(resolved).toBe(50);
  });

  it('batches what arrives while a commit is in flight, up to maxBatch per commit', async () => {
    const commits: number[][] = [];
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const group = new GroupCommit<number>(
      async (items) => {
        const gate = gates[commits.length]!;
        commits.push(items);
        await gate.promise;
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = group.add(0);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [1, 2, 3, 4, 5].map((i) => group.add(i));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(commits).toEqual([[0]]); // one in flight at a time
    gates[0]!.resolve();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(commits).toEqual([[0], [1, 2, 3]]);
    gates[1]!.resolve();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(commits).toEqual([[0], [1, 2, 3], [4, 5]]);
    gates[2]!.resolve();
    await Promise.all(rest);
    await group.drain();
  });

  it('rejects every item of a failed commit, and goes on with the next batch', async () => {
    let calls = 0;
    const group = new GroupCommit<string>(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database went away');
      },
      { maxBatch: 10, maxInFlight: 2 },
    );
    const failed = await Promise.allSettled([group.add('a'), group.add('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(group.add('c')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
