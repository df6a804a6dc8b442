/**
 * The one error type services throw. The HTTP layer maps `code` to a status in one table
 * (server/http/error-handler.ts); services never know about HTTP.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  AUTH_ERROR: 401,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** An admin or manager who must set up two-factor authentication first (Admin Settings → Security). */
  TWO_FACTOR_REQUIRED: 403,
  CSRF_FAILED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** A service Parley called (n8n, say) refused or failed; the message says how. */
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  /** Per-field messages, keyed by dotted path ("email", "items.0.name"). */
  fields?: Record<string, string>;
  /** Seconds a client should wait (RATE_LIMITED). */
  retryAfterSeconds?: number;
  /** Extra, safe-to-show details for the client. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function notFound(what = 'Resource'): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
