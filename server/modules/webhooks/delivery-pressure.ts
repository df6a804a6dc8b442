/**
 * Whether deliveries arrive faster than this instance should process them at the same time: the
 * job queue pauses while it says so (JobQueueOptions.pause), so accepting — Meta retries, and in
 * the end disables, a webhook that answers slowly — keeps the CPU, and the backlog is processed
 * once the pressure has passed (or by other instances).
 *
 * Pressure is either of:
 *  - a burst: at least `burst` deliveries stored within about the last `windowMs` (a sliding
 *    estimate over two fixed windows);
 *  - a queue at the door: at least `waiting` deliveries verified and waiting for their commit at
 *    once. Processing on the same thread (PGlite) can slow accepting down below any burst rate; the
 *    deliveries then pile up here instead, which this catches.
 *
 * Either holds for `holdMs` after it was last seen. On PGlite a job's statement runs on the
 * server's one thread: while it runs nothing is accepted, so when it ends — just when the queue
 * decides whether to start the next job — the window has seen no delivery for that long and the
 * burst waiting in the sockets is invisible. Without the hold a chain of jobs (the insights
 * backfill's batches) ran straight through a burst on PGlite (docs/insights.md, "Cost").
 */
export interface DeliveryPressureOptions {
  windowMs: number;
  burst: number;
  waiting: number;
  holdMs: number;
}

export const DELIVERY_PRESSURE: DeliveryPressureOptions = { windowMs: 500, burst: 250, waiting: 16, holdMs: 2_000 };

export class DeliveryPressure {
  readonly #options: DeliveryPressureOptions;
  #window = { start: Number.NEGATIVE_INFINITY, current: 0, previous: 0 };
  #waiting = 0;
  /** When pressure was last seen (by `storing` or `high`). */
  #seenAt = Number.NEGATIVE_INFINITY;

  constructor(options: DeliveryPressureOptions = DELIVERY_PRESSURE) {
    this.#options = options;
  }

  /** A delivery is about to be stored: counts it, and as waiting until `stored()`. */
  storing(now = performance.now()): void {
    const w = this.#window;
    const { windowMs } = this.#options;
    if (now - w.start >= windowMs) {
      w.previous = now - w.start >= 2 * windowMs ? 0 : w.current;
      w.current = 0;
      w.start = now;
    }
    w.current += 1;
    this.#waiting += 1;
    if (this.#raw(now)) this.#seenAt = now;
  }

  /** That delivery's commit finished (or failed). */
  stored(): void {
    this.#waiting = Math.max(0, this.#waiting - 1);
  }

  high(now = performance.now()): boolean {
    if (this.#raw(now)) {
      this.#seenAt = now;
      return true;
    }
    return now - this.#seenAt < this.#options.holdMs;
  }

  /** Pressure now, without the hold. */
  #raw(now: number): boolean {
    if (this.#waiting >= this.#options.waiting) return true;
    const w = this.#window;
    const { windowMs, burst } = this.#options;
    const age = now - w.start;
    if (age >= 2 * windowMs) return false;
    const recent = age >= windowMs ? w.current : w.current + w.previous * (1 - age / windowMs);
    return recent >= burst;
  }
}
