/**
 * The one place errors become HTTP answers: `{ error: { code, message, fields? } }`. Malformed
 * input is always a 4xx with field messages; a 5xx never shows internals.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ErrorCode } from '../lib/errors';

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    fields?: Record<string, string>;
    retryAfterSeconds?: number;
    details?: Record<string, unknown>;
  };
}

function fieldPath(instancePath: string | undefined, params: unknown): string {
  const fromPath = (instancePath ?? '').replace(/^\//u, '').replace(/\//gu, '.');
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  return [fromPath, missing].filter(Boolean).join('.');
}

export function toErrorBody(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
          ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
          ...(error.details ? { details: error.details } : {}),
        },
      },
    };
  }
  const e = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(e)) {
    const fields: Record<string, string> = {};
    for (const v of e.validation) {
      const key = fieldPath(v.instancePath, v.params) || e.validationContext || 'body';
      fields[key] ??= v.message ?? 'Invalid value';
    }
    const message = e.validation[0]?.message ?? 'Invalid input';
    return { status: 400, body: { error: { code: 'VALIDATION_ERROR', message, fields } } };
  }
  if (Array.isArray(e.validation)) {
    return { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: e.message } } };
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' } } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' } } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' } } };
    default:
      break;
  }
  if (e.statusCode === 429) {
    return {
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: 'Too many requests. Please try again in a minute.' } },
    };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const code: ErrorCode = e.statusCode === 404 ? 'NOT_FOUND' : e.statusCode === 401 ? 'UNAUTHENTICATED' : e.statusCode === 403 ? 'FORBIDDEN' : 'BAD_REQUEST';
    return { status: e.statusCode, body: { error: { code, message: e.message } } };
  }
  return { status: ERROR_STATUS.INTERNAL, body: { error: { code: 'INTERNAL', message: 'Internal server error' } } };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error);
    if (status >= 500 || isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'request failed');
    } else if (status !== 401 && status !== 404) {
      request.log.info({ code: body.error.code, status }, body.error.message);
    }
    if (body.error.retryAfterSeconds !== undefined) reply.header('retry-after', String(body.error.retryAfterSeconds));
    return reply.status(status).send(body);
  });
}
