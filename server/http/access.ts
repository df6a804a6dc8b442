/**
 * Every route declares who may call it (`config.access`); one hook enforces it before the body is
 * even parsed, and the registry lets a test walk the whole route table.
 *
 *   'public'        anyone, signed in or not
 *   'signed-in'     any signed-in user
 *   Role[]          signed-in users with one of these roles
 *   'control'       the local command line, with the control token from DATA_DIR/parley.lock
 *   'signature'     no session: the handler verifies a signature itself (webhooks)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiScope } from '../../common/api/api-scopes';
import type { Role } from '../../common/roles';
import { AppError } from '../lib/errors';
import { safeEqual } from '../lib/crypto';

export type RouteAccess = 'public' | 'signed-in' | 'control' | 'signature' | readonly Role[];

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  clientId: string | null;
  sessionId: string;
  emailVerified: boolean;
}

/** Resolves the session of a request; may set a renewed session cookie on the reply. */
export type SessionResolver = (request: FastifyRequest, reply: FastifyReply) => Promise<SessionUser | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Set false on routes that authenticate by signature or token (no cookies involved). */
    csrf?: boolean;
    scope?: ApiScope;
  }
  interface FastifyRequest {
    /** The signed-in user, resolved for every route that is not signature- or control-only. */
    user: SessionUser | null;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

export interface AccessOptions {
  resolveSession: SessionResolver;
  /** Returns the control token the CLI must present, or undefined when control is disabled. */
  controlToken: () => string | undefined;
  registry: RegisteredRoute[];
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  return request.user;
}

export const accessPlugin = fp<AccessOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('user', null);

    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (access === undefined) {
        // Fastify's own HEAD twins of GET routes inherit the GET route's config.
        if (route.url.startsWith('/api/') || route.url.startsWith('/webhooks/')) {
          throw new Error(`Route ${methods.join(',')} ${route.url} does not declare config.access`);
        }
        return;
      }
      for (const method of methods) {
        if (method === 'HEAD' && options.registry.some((r) => r.url === route.url && r.method === 'GET')) continue;
        options.registry.push({ method, url: route.url, access });
      }
    });

    app.addHook('onRequest', async (request, reply) => {
      const access = request.routeOptions.config?.access;
      if (access === undefined || access === 'signature') return;
      if (access === 'control') {
        const expected = options.controlToken();
        const given = request.headers['x-parley-control-token'];
        if (!expected || typeof given !== 'string' || !safeEqual(given, expected)) {
          throw new AppError('FORBIDDEN', 'A valid control token is required');
        }
        return;
      }
      request.user = await options.resolveSession(request, reply);
      if (access === 'public') return;
      if (!request.user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
      if (access !== 'signed-in' && !access.includes(request.user.role)) {
        throw new AppError('FORBIDDEN', "You don't have permission to access this resource.");
      }
    });
  },
  { name: 'parley-access' },
);
