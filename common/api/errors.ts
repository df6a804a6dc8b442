import { z } from 'zod';

/** Body of every error answer: `{ error: { code, message, fields? } }`. */
export const errorCode = z.enum([
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'AUTH_ERROR',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  /** 403: an admin or manager must set up two-factor authentication before anything else (docs/admin-settings.md). */
  'TWO_FACTOR_REQUIRED',
  'CSRF_FAILED',
  'NOT_FOUND',
  'CONFLICT',
  'GONE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
  'BAD_GATEWAY',
  'UNAVAILABLE',
]);
export type ApiErrorCode = z.infer<typeof errorCode>;

export const errorBody = z.object({
  error: z.object({
    code: errorCode,
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    retryAfterSeconds: z.number().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;
