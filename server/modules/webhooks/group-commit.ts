/**
 * Group commit: concurrent callers' items are written by one transaction, and each caller's
 * promise resolves only after that transaction committed. A commit per request caps a webhook at
 * about a tenth of a bare route's rate (one fsync each); batching what arrives while the previous
 * commit is in flight amortises the fsync without ever answering before the write is durable.
 *
 * Items queue until the next turn of the event loop (`setImmediate`, so every request whose body
 * was read in this turn joins), then up to `maxBatch` of them are committed together. At most
 * `maxInFlight` commits run at once; whatever arrives meanwhile forms the next batch.
 */
export interface GroupCommitOptions {
  maxBatch: number;
  maxInFlight: number;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  readonly #commit: (items: T[]) => Promise<void>;
  readonly #options: GroupCommitOptions;
  #pending: Waiting<T>[] = [];
  #inFlight = 0;
  #scheduled = false;
  #idle: (() => void)[] = [];

  constructor(commit: (items: T[]) => Promise<void>, options: GroupCommitOptions) {
    if (options.maxBatch < 1 || options.maxInFlight < 1) throw new Error('maxBatch and maxInFlight must be at least 1');
    this.#commit = commit;
    this.#options = options;
  }

  /** Resolves once `item` is committed; rejects if its batch's transaction failed. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves when nothing is pending or being committed. */
  async drain(): Promise<void> {
    if (this.#pending.length === 0 && this.#inFlight === 0) return;
    await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0 || this.#inFlight >= this.#options.maxInFlight) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    if (this.#inFlight >= this.#options.maxInFlight) return;
    const batch = this.#pending.splice(0, this.#options.maxBatch);
    if (batch.length === 0) return;
    this.#inFlight += 1;
    try {
      await this.#commit(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.#inFlight -= 1;
      this.#schedule();
      if (this.#pending.length === 0 && this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }
}
