/**
 * Every route declares who may call it (`config.access`); one hook enforces it before the body is
 * even parsed, and the registry lets a test walk the whole route table.
 *
 *   'public'        anyone, signed in or not
 *   'signed-in'     any signed-in user
 *   Role[]          signed-in users with one of these roles
 *   'control'       the local command line, with the control token from DATA_DIR/parley.lock
 *   'signature'     no session: the handler verifies a signature itself (webhooks)
 *
 * API keys (issue 14 §4): on a 'signed-in' or role route, `Authorization: Bearer <key>` is the
 * credential instead of the session cookie (the key wins when both are sent). The key's user
 * stands in `request.user` exactly as a session's would (role, client scope), `request.apiKey`
 * says which key, and the route must declare `config.scope` — a scope the key holds, or 'any'
 * (any valid key: `GET /api/v1/me`, the integrations' authentication test). A route without a
 * scope is for sessions only. Public routes never read the header as a key (the widget's visitor
 * token travels in it); a signature route reads it as a key only when it declares a scope and the
 * credential looks like a key (`pk_live_…`), else the handler checks it (automation callback tokens).
 *
 * Two-factor requirement (Admin Settings → Security, docs/admin-settings.md): a session whose user
 * must set up two-factor first (`SessionUser.twoFactorSetupRequired`) may call only the routes
 * that declare `config.twoFactorSetup` (and public ones); every other answers 403
 * TWO_FACTOR_REQUIRED. API keys are not affected: a key is not a sign-in.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiScope } from '../../common/api/api-scopes';
import { SECURITY_MESSAGES } from '../../common/api/security';
import type { Role } from '../../common/roles';
import { AppError } from '../lib/errors';
import { safeEqual } from '../lib/crypto';

export type RouteAccess = 'public' | 'signed-in' | 'control' | 'signature' | readonly Role[];

/** What a key-authenticated route needs: one scope, or 'any' valid key. */
export type RouteScope = ApiScope | 'any';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  clientId: string | null;
  /** The session's id; '' for a key-authenticated request (no session). */
  sessionId: string;
  emailVerified: boolean;
  /** An admin or manager who must set up two-factor authentication before using anything else. */
  twoFactorSetupRequired?: boolean;
}

/** The API key a request authenticated with. */
export interface RequestApiKey {
  id: string;
  scopes: readonly ApiScope[];
}

/**
 * Resolves `Authorization: Bearer <key>`: the key's user, or throws an AppError (401) saying why
 * (unknown, revoked, expired, the account deactivated).
 */
export type ApiKeyResolver = (request: FastifyRequest, key: string) => Promise<{ user: SessionUser; apiKey: RequestApiKey }>;

/** Resolves the session of a request; may set a renewed session cookie on the reply. */
export type SessionResolver = (request: FastifyRequest, reply: FastifyReply) => Promise<SessionUser | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Set false on routes that authenticate by signature or token (no cookies involved). */
    csrf?: boolean;
    /** The API key scope this route needs; without it, API keys cannot call the route. */
    scope?: RouteScope;
    /** Open to a user who must still set up two-factor authentication (the setup itself, `GET /api/v1/me`). */
    twoFactorSetup?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, resolved for every route that is not signature- or control-only. */
    user: SessionUser | null;
    /** Set when the request authenticated with an API key instead of a session. */
    apiKey: RequestApiKey | null;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** Present only on routes API keys may call. */
  scope?: RouteScope;
}

export interface AccessOptions {
  resolveSession: SessionResolver;
  /** Returns the control token the CLI must present, or undefined when control is disabled. */
  controlToken: () => string | undefined;
  registry: RegisteredRoute[];
  /** Resolves API keys; without it, a Bearer header on a session route answers 401. */
  resolveApiKey?: ApiKeyResolver;
  /** Counts a key-authenticated request against its key's rate limit; throws RATE_LIMITED. */
  limitApiKey?: (request: FastifyRequest) => Promise<void>;
}

const BEARER = /^Bearer\s+(\S+)$/iu;
/** How every API key begins (common/api/api-keys.ts `API_KEY_PATTERN`). */
const API_KEY_PREFIX = 'pk_live_';

export function apiKeyScopeMessage(scope: RouteScope | undefined): string {
  return scope === undefined || scope === 'any'
    ? 'API keys cannot call this route; it needs a signed-in session.'
    : `This API key lacks the scope ${scope}.`;
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  return request.user;
}

export const accessPlugin = fp<AccessOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('user', null);
    app.decorateRequest('apiKey', null);

    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      const scope = route.config?.scope;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (access === undefined) {
        // Fastify's own HEAD twins of GET routes inherit the GET route's config.
        if (route.url.startsWith('/api/') || route.url.startsWith('/webhooks/')) {
          throw new Error(`Route ${methods.join(',')} ${route.url} does not declare config.access`);
        }
        return;
      }
      if (scope !== undefined && (access === 'public' || access === 'control')) {
        throw new Error(`Route ${methods.join(',')} ${route.url} declares a scope but API keys only authenticate session and signature routes`);
      }
      for (const method of methods) {
        if (method === 'HEAD' && options.registry.some((r) => r.url === route.url && r.method === 'GET')) continue;
        options.registry.push({ method, url: route.url, access, ...(scope === undefined ? {} : { scope }) });
      }
    });

    /** `request.user` and `request.apiKey` from the key, counted against its rate limit, scope checked. */
    const authenticateKey = async (request: FastifyRequest, key: string | undefined) => {
      if (!key || !options.resolveApiKey) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
      const resolved = await options.resolveApiKey(request, key);
      request.user = resolved.user;
      request.apiKey = resolved.apiKey;
      await options.limitApiKey?.(request);
      const scope = request.routeOptions.config?.scope;
      if (scope === undefined || (scope !== 'any' && !resolved.apiKey.scopes.includes(scope))) {
        throw new AppError('FORBIDDEN', apiKeyScopeMessage(scope));
      }
    };

    app.addHook('onRequest', async (request, reply) => {
      const access = request.routeOptions.config?.access;
      if (access === undefined) return;
      if (access === 'signature') {
        // A signature route with a scope also takes an API key; any other credential in the
        // header (a callback token) is the handler's to check.
        const key = BEARER.exec(request.headers.authorization ?? '')?.[1];
        if (request.routeOptions.config?.scope !== undefined && key?.startsWith(API_KEY_PREFIX)) await authenticateKey(request, key);
        return;
      }
      if (access === 'control') {
        const expected = options.controlToken();
        const given = request.headers['x-parley-control-token'];
        if (!expected || typeof given !== 'string' || !safeEqual(given, expected)) {
          throw new AppError('FORBIDDEN', 'A valid control token is required');
        }
        return;
      }
      const authorization = access === 'public' ? undefined : request.headers.authorization;
      if (authorization !== undefined) {
        await authenticateKey(request, BEARER.exec(authorization)?.[1]);
      } else {
        request.user = await options.resolveSession(request, reply);
      }
      if (access === 'public') return;
      if (!request.user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
      if (request.user.twoFactorSetupRequired === true && request.apiKey === null && request.routeOptions.config?.twoFactorSetup !== true) {
        throw new AppError('TWO_FACTOR_REQUIRED', SECURITY_MESSAGES.twoFactorRequired);
      }
      if (access !== 'signed-in' && !access.includes(request.user.role)) {
        throw new AppError('FORBIDDEN', "You don't have permission to access this resource.");
      }
    });
  },
  { name: 'parley-access' },
);
