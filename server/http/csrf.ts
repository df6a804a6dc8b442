/**
 * CSRF protection for cookie-authenticated requests: a double-submit token (cookie `parley_csrf`,
 * readable by our own scripts, echoed in the `x-csrf-token` header) plus an Origin check. A page
 * on another site can neither read the cookie nor set the header without a CORS preflight, which
 * Parley never grants. Routes that authenticate by signature or token opt out with
 * `config.csrf = false`. SameSite=Lax session cookies are the second line.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { randomToken, safeEqual } from '../lib/crypto';

export const CSRF_COOKIE = 'parley_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  publicUrl: string;
  secureCookies: boolean;
}

export const csrfPlugin = fp<CsrfOptions>(
  async (app: FastifyInstance, options) => {
    const allowedOrigin = new URL(options.publicUrl).origin;

    app.addHook('onRequest', async (request, reply) => {
      // Signed machine-to-machine routes (webhooks, the API channel, the widget) never carry the
      // cookie and need none: no token to issue or check.
      if (request.routeOptions.config?.csrf === false) return;
      // An API key is sent by a program, never attached by a browser on its own, so a request
      // carrying one cannot be forged cross-site; the key, not any cookie, authenticates it.
      if (request.apiKey) return;
      const existing = request.cookies[CSRF_COOKIE];
      if (!existing) {
        reply.setCookie(CSRF_COOKIE, randomToken(), {
          path: '/',
          sameSite: 'strict',
          secure: options.secureCookies,
          httpOnly: false,
        });
      }
      if (SAFE_METHODS.has(request.method)) return;
      if (request.routeOptions.url === undefined) return; // 404s carry no state change

      const origin = request.headers.origin;
      if (origin !== undefined && origin !== allowedOrigin && origin !== requestOrigin(request.protocol, request.host)) {
        throw new AppError('CSRF_FAILED', 'Cross-site request refused');
      }
      const header = request.headers[CSRF_HEADER];
      if (!existing || typeof header !== 'string' || !safeEqual(header, existing)) {
        throw new AppError('CSRF_FAILED', 'Missing or invalid CSRF token. Reload the page and try again.');
      }
    });
  },
  { name: 'parley-csrf', dependencies: ['@fastify/cookie'] },
);

function requestOrigin(protocol: string, host: string): string {
  return `${protocol}://${host}`;
}
