/**
 * Same-origin JSON calls to the Parley API. Every response is parsed with the contract's zod
 * schema (common/api), every error body with `errorBody`, and every state-changing request
 * carries the CSRF double-submit header the server checks.
 */
import type { z } from 'zod';
import { errorBody, type ApiErrorCode } from '@common/api/errors';
import { readCookie } from './cookies';
import { markSessionExpired, markTwoFactorSetupRequired } from './session';

const CSRF_COOKIE = 'parley_csrf';
const CSRF_HEADER = 'x-csrf-token';

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ApiErrorCode,
    message: string,
    status: number,
    extra: {
      fields?: Record<string, string> | undefined;
      details?: Record<string, unknown> | undefined;
      retryAfterSeconds?: number | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = extra.fields;
    this.details = extra.details;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  /** A 4xx answer: the request itself was refused, so repeating it cannot help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  /** `details.reason`, when the server gave one. */
  get reason(): string | undefined {
    const reason = this.details?.['reason'];
    return typeof reason === 'string' ? reason : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for a toast, or `fallback` when it gave none we can show. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.code !== 'INTERNAL' && error.message.trim() !== '') return error.message;
  return fallback;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
}

function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs === '' ? path : `${path}?${qs}`;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf !== undefined) headers[CSRF_HEADER] = csrf;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError('UNAVAILABLE', 'Could not reach the server. Check your connection and try again.', 0, {
      cause,
    });
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    raw = undefined;
  }
  const parsed = errorBody.safeParse(raw);
  const error = parsed.success
    ? new ApiError(parsed.data.error.code, parsed.data.error.message, response.status, {
        fields: parsed.data.error.fields,
        details: parsed.data.error.details,
        retryAfterSeconds: parsed.data.error.retryAfterSeconds,
      })
    : new ApiError(
        response.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST',
        `The server answered ${response.status}.`,
        response.status,
      );
  // The session ended (expired or revoked elsewhere): guarded pages send the user to /login.
  if (error.code === 'UNAUTHENTICATED') markSessionExpired();
  // An admin or manager who must set up two-factor first: the guard shows the setup instead.
  if (error.code === 'TWO_FACTOR_REQUIRED') markTwoFactorSetupRequired();
  return error;
}

/** A call whose JSON answer is parsed with `schema`. */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const response = await send(path, options);
  const raw: unknown = await response.json().catch(() => undefined);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    console.error(`Unexpected response from ${path}`, parsed.error.issues);
    throw new ApiError('INTERNAL', 'The server sent an unexpected response.', response.status, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** A call answered with 204 No Content (or whose body we do not need). */
export async function apiSend(path: string, options: RequestOptions = {}): Promise<void> {
  await send(path, options);
}

/** A call whose raw answer the caller reads (a file download); errors are ApiErrors like any call's. */
export function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  return send(path, options);
}
