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

export interface JobContext {
  jobId: number;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  signal: AbortSignal;
}

export type JobHandler<J extends JobDefinition> = (payload: JobPayload<J>, context: JobContext) => Promise<void>;
