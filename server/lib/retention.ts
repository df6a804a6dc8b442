/**
 * Keeping a table to a retention period (the public events, the webhook delivery log): delete what
 * is older in batches, now and every hour, on every instance that runs jobs (deleting is
 * idempotent, so several instances may).
 */
import type { Logger } from 'pino';

export const PRUNE_EVERY_MS = 60 * 60_000;
export const PRUNE_BATCH = 5_000;

/** Calls `deleteBatch(limit)` until a batch deletes fewer than `limit` rows; resolves with how many went. */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, limit: number = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteBatch(limit);
    total += n;
    if (n < limit) return total;
  }
}

/** A prune run now and every `everyMs`, a failure logged as `what` (the timer never keeps the process alive). */
export class RetentionTimer {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly prune: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly everyMs: number = PRUNE_EVERY_MS,
  ) {}

  start(): void {
    if (this.#timer) return;
    const run = (): void => {
      this.prune().catch((error: unknown) => this.logger.warn({ err: error }, this.what));
    };
    run();
    this.#timer = setInterval(run, this.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
