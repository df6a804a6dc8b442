/**
 * Checks every request gets first (the first `onRequest` hook, before sessions are resolved):
 *
 * - NUL in the URL: `%00` decodes to U+0000, which PostgreSQL text cannot hold, so a query
 *   parameter or path parameter carrying it would fail in a query as a 500 (`?search=%00`). It is
 *   refused with a 400 naming the parameter. Query strings cannot carry a lone surrogate (an
 *   encoded one is invalid UTF-8, which the query parser leaves undecoded), so NUL is the only
 *   character to refuse.
 * - Header values with characters HTTP does not allow (NUL, CR, LF, other controls, anything past
 *   U+00FF): Node's parser refuses them on the wire with a 400, but a request handed to the app
 *   in-process (`inject`, a server factory) would reach better-auth's `Headers`, which throws —
 *   a 500. Refused here the same way, whatever the transport.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { NUL_MESSAGE } from './json-body';

/** The name of the first query or path parameter (or parameter name) holding U+0000, or null. */
export function findNulInUrl(request: Pick<FastifyRequest, 'url' | 'query' | 'params'>): string | null {
  // The common case: nothing that could decode to U+0000.
  if (!request.url.includes('%00') && !request.url.includes('\u0000')) return null;
  for (const [source, values] of [
    ['query', request.query],
    ['path', request.params],
  ] as const) {
    if (values === null || typeof values !== 'object') continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const items = Array.isArray(value) ? (value as unknown[]) : [value];
      if (name.includes('\u0000') || items.some((item) => typeof item === 'string' && item.includes('\u0000'))) {
        return source === 'path' && name === '*' ? 'path' : name.replaceAll('\u0000', '\\u0000');
      }
    }
  }
  // Elsewhere in the path (not a parameter): the route cannot match anything stored either.
  return decodeURIComponentSafe(request.url.split('?')[0] ?? '').includes('\u0000') ? 'path' : null;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** HTAB, visible ASCII, space and obs-text: what RFC 9110 allows in a field value. */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/u;
export const HEADER_MESSAGE = 'Header value contains a character HTTP does not allow';

/** The name of the first header whose value HTTP would refuse, or null. */
export function findInvalidHeader(headers: Record<string, string | string[] | undefined>): string | null {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (typeof value === 'string' ? INVALID_HEADER_VALUE.test(value) : value.some((v) => INVALID_HEADER_VALUE.test(v))) return name;
  }
  return null;
}

export function registerRequestGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const header = findInvalidHeader(request.headers);
    if (header !== null) throw new AppError('VALIDATION_ERROR', HEADER_MESSAGE, { fields: { [header]: HEADER_MESSAGE } });
    const field = findNulInUrl(request);
    if (field !== null) throw new AppError('VALIDATION_ERROR', NUL_MESSAGE, { fields: { [field]: NUL_MESSAGE } });
  });
}
