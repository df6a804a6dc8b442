import type { z } from 'zod';

/**
 * A job's contract: its name and payload schema, plus retry policy. The handler is registered
 * separately (`JobQueue.register`) by the module that owns the work, with the services it needs.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: S;
  /** Attempts before the job is marked failed (default 5). */
  readonly maxAttempts?: number;
  /** First retry delay; each further retry doubles it, up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** The handler is aborted after this long (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * A SQL function of the payload (jsonb → jsonb) whose result a job claimed where it is inserted
   * gets as its hint, read in the inserting transaction (parley_insert_jobs): what the handler
   * would otherwise read first, one round trip saved.
   */
  readonly localHint?: string;
  /**
   * The payload is replaced by `{}` once the job is completed or has failed for good: for payloads
   * that must not outlive their use (a password hash, say), though the row is kept for days.
   */
  readonly erasePayloadWhenDone?: boolean;
  /**
   * Jobs of this kind that run where they were inserted (`JobQueue.reserve`) take one of this
   * many slots of their own instead of one of the queue's shared ones: for jobs that mostly wait
   * (for a batch, for a remote server), so that a busy queue does not send them through the table
   * (NOTIFY, claim, a first read) — the costliest way to run a small job. Jobs claimed from the
   * table still take shared slots.
   */
  readonly localSlots?: number;
  /**
   * Jobs of this kind are taken in batches: never claimed where they are inserted (`reserve`
   * leaves them queued), and a handler takes the other queued ones of its kind in its own
   * transaction (`JobQueue.takeQueued`), so a burst of small jobs becomes one transaction instead
   * of one each — for work that is cheaper done for many keys at once (a rollup refreshed after
   * every message).
   */
  readonly batched?: boolean;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export type JobPayload<J extends JobDefinition> = z.output<J['payload']>;
export type JobPayloadInput<J extends JobDefinition> = z.input<J['payload']>;

/** Thrown by a handler when retrying cannot help (the job fails at once). */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/** Thrown by a handler that knows when to retry (a 429 with Retry-After, say). */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RetryLaterError';
  }
}

/** Identifies a claimed job to a statement that completes it (`parley_complete_job`). */
export interface JobCompletion {
  id: number;
  workerId: string;
}

export interface JobContext {
  jobId: number;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  signal: AbortSignal;
  /**
   * For a handler whose last statement also completes the job (one round trip fewer): pass this
   * to the statement, then call `completedInline()` once it committed.
   */
  completion: JobCompletion;
  completedInline(): void;
  /**
   * For a handler that now only waits for work done together with other jobs (a batch another
   * job's handler may be storing): its slot is given back, so the queue may start other jobs —
   * those it waits with among them — while the job itself stays claimed (leased, heartbeat)
   * until the handler settles, which completes, retries or fails it as usual.
   */
  detach(): void;
  /**
   * What the code that inserted the job handed over in memory when this instance claimed it as it
   * inserted it (`JobQueue.reserve`): data the handler would otherwise load. Undefined when the job
   * was claimed from the table — a handler must work without it. Read it with `hintOf`.
   */
  hint: unknown;
}

/** The in-memory hint of a job claimed where it was inserted (see `JobContext.hint`). */
export function hintOf<H>(context: JobContext): H | undefined {
  // The queue passes on exactly what the inserting code gave for this job name.
  return context.hint as H | undefined;
}

export type JobHandler<J extends JobDefinition> = (payload: JobPayload<J>, context: JobContext) => Promise<void>;
