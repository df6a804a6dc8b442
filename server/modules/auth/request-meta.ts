import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestMeta } from './auth.service';

/** The header better-auth reads the caller's address from (always set by us, never by clients). */
export const CLIENT_IP_HEADER = 'x-parley-client-ip';

/** Fastify request → the Fetch headers better-auth expects, with our idea of the client IP. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  const userAgent = request.headers['user-agent'];
  return { headers, ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : null };
}

export function forwardCookies(reply: FastifyReply, cookies: readonly string[]): void {
  if (cookies.length === 0) return;
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, ...cookies]);
}
