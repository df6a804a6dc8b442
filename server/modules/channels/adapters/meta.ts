/**
 * What the three Meta adapters share: Graph API calls (Bearer token, a per-request timeout on top
 * of the job's AbortSignal), the classification of Meta's errors into retryable and permanent,
 * and the tolerant pieces of payload parsing (timestamps in seconds, milliseconds or ISO strings).
 *
 * Error reference: https://developers.facebook.com/docs/graph-api/guides/error-handling and
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes
 */
import { z } from 'zod';
import { type HttpResponse, HttpRequestError, httpRequest } from '../../../lib/http-client';
import type { MessageType } from '../../../db/schema';
import { type ChannelWithSecrets, SendError } from './channel-adapter';

export interface GraphApiConfig {
  /** `GRAPH_API_BASE_URL`, without a trailing slash. */
  baseUrl: string;
  /** `GRAPH_API_VERSION`, e.g. v21.0. */
  version: string;
  /** `GRAPH_API_TIMEOUT_MS`: one request's budget; a timeout is retried like a network error. */
  timeoutMs: number;
}

/**
 * Meta codes worth retrying: throttling (4, 17, 32, 613, 80007, 130429, 131056) and transient
 * platform errors (1 "unknown", 2 "service temporarily unavailable"). Meta often answers these
 * with HTTP 400, so the code decides before the status does.
 */
export const RETRYABLE_META_CODES: ReadonlySet<number> = new Set([1, 2, 4, 17, 32, 613, 80007, 130429, 131056]);

/** Codes that never succeed on retry, whatever the HTTP status says. */
export const PERMANENT_META_CODES: ReadonlySet<number> = new Set([100, 190, 200, 368, 131026, 131047, 131051, 10, 551]);

/** Human wording for the permanent failures a person is most likely to see in a thread. */
const REASONS: Record<number, string> = {
  131047: 'more than 24 hours have passed since the customer last wrote, so only a template message can be sent',
  131026: 'the message could not be delivered to this number (not on WhatsApp, or an outdated app)',
  190: 'the access token is invalid or has expired; reconnect the channel',
  368: 'the account is temporarily blocked from sending messages for policy reasons',
  10: 'the app lacks the permission to send this message (often: outside the allowed messaging window)',
  551: 'this person is not available right now',
};

const graphErrorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    code: z.coerce.number().optional(),
    error_subcode: z.coerce.number().optional(),
    error_user_msg: z.string().optional(),
    error_data: z.object({ details: z.string().optional() }).loose().optional(),
  }),
});

export interface GraphRequest {
  method: 'GET' | 'POST';
  /** Path after the version, e.g. `123/messages`. */
  path: string;
  accessToken: string;
  body?: unknown;
  query?: Record<string, string>;
  signal: AbortSignal;
}

/** Seconds or an HTTP date → milliseconds, capped at ten minutes; undefined when absent or odd. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : new Date(value).getTime() - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(10 * 60_000, Math.max(0, Math.round(ms)));
}

/**
 * Classifies a non-2xx Graph answer. Meta's error code wins over the HTTP status (throttling
 * often arrives as 400); then 429 and 5xx are retryable and any other 4xx is permanent.
 */
export function classifyGraphError(status: number, body: unknown, retryAfter: string | null): SendError {
  const parsed = graphErrorBody.safeParse(body);
  const error = parsed.success ? parsed.data.error : undefined;
  const metaCode = error?.code;
  const retryAfterMs = parseRetryAfter(retryAfter);
  const detail = (error?.error_data?.details ?? error?.error_user_msg ?? error?.message ?? `HTTP ${status}`).trim();
  const code = metaCode !== undefined ? String(metaCode) : `http_${status}`;

  let retryable: boolean;
  if (metaCode !== undefined && PERMANENT_META_CODES.has(metaCode)) retryable = false;
  else if (metaCode !== undefined && RETRYABLE_META_CODES.has(metaCode)) retryable = true;
  else retryable = status === 429 || status >= 500;

  const known = metaCode !== undefined ? REASONS[metaCode] : undefined;
  const message = retryable
    ? `Meta did not accept the message yet (${code}): ${detail}`
    : `Meta refused the message: ${known ?? detail} (${code})`;
  return new SendError(message, { retryable, code, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

/**
 * One Graph API call. Resolves with the parsed JSON of a 2xx answer; throws SendError otherwise:
 * network errors and timeouts are retryable, Meta's answers are classified above.
 */
export async function graphRequest(config: GraphApiConfig, request: GraphRequest): Promise<unknown> {
  const url = new URL(`${config.baseUrl}/${config.version}/${request.path}`);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
  let response: HttpResponse;
  try {
    response = await httpRequest(url, {
      method: request.method,
      headers: {
        authorization: `Bearer ${request.accessToken}`,
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: request.signal,
      timeoutMs: config.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof HttpRequestError)) throw error;
    if (error.kind === 'timeout') {
      throw new SendError(`The Graph API did not answer within ${config.timeoutMs} ms`, { retryable: true, code: 'timeout', cause: error });
    }
    if (error.kind === 'aborted') throw error; // the job itself gave up; let the queue see why
    throw new SendError(`Could not reach the Graph API: ${error.reason}`, { retryable: true, code: 'network', cause: error });
  }
  let body: unknown = null;
  try {
    body = response.text === '' ? null : JSON.parse(response.text);
  } catch {
    body = null;
  }
  if (response.status < 200 || response.status >= 300) {
    const retryAfter = response.headers['retry-after'];
    throw classifyGraphError(response.status, body, typeof retryAfter === 'string' ? retryAfter : null);
  }
  return body;
}

/** A 2xx answer that does not look like what Meta documents: sent, but we cannot tell its id. */
export function unexpectedAnswer(what: string): SendError {
  return new SendError(`The Graph API answered without ${what}`, { retryable: false, code: 'unexpected_answer' });
}

/**
 * A platform timestamp: seconds (WhatsApp, as a string), milliseconds (Messenger, Instagram) or an
 * ISO string (Chatwoot's Instagram fixtures). Anything unreadable becomes undefined.
 */
export function parseTimestamp(value: unknown): Date | undefined {
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value;
  else if (typeof value === 'string' && /^\d+(\.\d+)?$/u.test(value.trim())) ms = Number(value);
  else if (typeof value === 'string') {
    // "2021-09-08T06:34:04+0000": Date.parse wants +00:00.
    const parsed = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/u, '$1:$2'));
    return Number.isNaN(parsed) ? undefined : new Date(parsed);
  }
  if (ms === undefined) return undefined;
  // Seconds until the year 33658, milliseconds after 2001: the two never overlap in practice.
  const date = new Date(ms < 1e12 ? ms * 1000 : ms);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A string or number id (Meta sends both), as a string. */
export const idSchema = z.union([z.string().min(1).max(512), z.number().transform(String)]).pipe(z.string().min(1).max(512));

/** Content longer than a message may hold is cut (the raw event keeps the original). */
export const MAX_TEXT = 20_000;
export function clip(text: string | undefined | null, max = MAX_TEXT): string {
  if (!text) return '';
  return text.length > max ? text.slice(0, max) : text;
}

/** Messenger/Instagram attachment types to our message types; anything else is unsupported. */
export function attachmentMessageType(type: string): MessageType {
  switch (type) {
    case 'image':
      return 'image';
    case 'video':
    case 'ig_reel':
    case 'reel':
      return 'video';
    case 'audio':
      return 'audio';
    case 'file':
      return 'document';
    case 'location':
      return 'location';
    case 'sticker':
      return 'sticker';
    default:
      return 'unsupported';
  }
}

/** Our id in the Send API's `metadata` (Messenger echoes carry it back). */
export const METADATA_PREFIX = 'parley:';
const uuid = z.uuid();
export function ourMessageIdFrom(metadata: unknown): string | null {
  if (typeof metadata !== 'string' || !metadata.startsWith(METADATA_PREFIX)) return null;
  const id = metadata.slice(METADATA_PREFIX.length);
  return uuid.safeParse(id).success ? id : null;
}

/** A short description of why an item could not be read, for the `ignored` event. */
export function issueSummary(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || 'item'}: ${first.message}` : 'unreadable';
}

export function accessToken(channel: ChannelWithSecrets): string {
  const token = channel.secretValues.accessToken;
  if (!token) throw new SendError('The channel has no access token', { retryable: false, code: 'no_credentials' });
  return token;
}

/** The reason a credentials check failed, in words for the channel screen. */
export function credentialsFailure(error: unknown): string {
  if (error instanceof SendError) {
    if (error.retryable) return `Could not check the credentials right now: ${error.message}`;
    return error.message.replace(/^Meta refused the message: /u, 'Meta refused the credentials: ');
  }
  return `The check failed: ${error instanceof Error ? error.message : String(error)}`;
}
