/**
 * Conditional GET for public reads (the content API, the server-rendered site): an ETag (strong, from the body) and Last-Modified,
 * `Cache-Control: no-cache` (a browser or proxy may keep the answer but asks again every time, so a
 * save shows at once), and 304 when the caller's copy is current. If-None-Match wins over
 * If-Modified-Since (RFC 9110 §13.2.2): Last-Modified has one-second steps, the ETag none.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong ETag of a body: a string as it is sent, anything else as its JSON. */
export function etagOf(body: unknown): string {
  return `"${createHash('sha256').update(typeof body === 'string' ? body : JSON.stringify(body)).digest('base64url').slice(0, 32)}"`;
}

function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Sets the validators on the reply; true when the request's copy is current (answer 304 without
 * a body).
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, validators: { etag: string; lastModified: Date | null }): boolean {
  reply.header('etag', validators.etag).header('cache-control', 'no-cache');
  if (validators.lastModified) reply.header('last-modified', validators.lastModified.toUTCString());
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesEtag(ifNoneMatch, validators.etag);
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince === undefined || !validators.lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(validators.lastModified.getTime() / 1000) * 1000 <= since;
}
