/**
 * The route-table authorization test: walks every route the app registered (the registry the
 * access plugin fills), so a route added later is covered without touching this file.
 */
import Fastify from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../common/roles';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { concreteUrl } from '../../test/helpers/routes';
import { accessPlugin, type RegisteredRoute, type RouteAccess } from './access';

const CONTROL_TOKEN = 'control-token-for-tests-0123456789';
const ACCESS_DENIED = "You don't have permission to access this resource.";

function describeAccess(access: RouteAccess): string {
  return typeof access === 'string' ? access : access.join('|');
}

function allowedRoles(access: RouteAccess): readonly Role[] {
  if (access === 'signed-in' || access === 'public') return ROLES;
  if (access === 'control' || access === 'signature') return [];
  return access;
}

function isAccessRefusal(response: LightMyRequestResponse): boolean {
  if (response.statusCode === 401) return true;
  return response.statusCode === 403 && response.json<{ error?: { message?: string } }>().error?.message === ACCESS_DENIED;
}

describe.each(ENGINES)('route-table authorization (%s)', (engine) => {
  let app: TestApp;
  const sessions = new Map<Role, { client: TestClient; email: string; password: string }>();

  beforeAll(async () => {
    app = await createTestApp(engine, { controlToken: CONTROL_TOKEN });
    for (const role of ROLES) {
      const { client, email, password } = await signedInClient(app, role);
      sessions.set(role, { client, email, password });
    }
  });
  afterAll(async () => {
    await app.destroy();
  });

  /** The role's client, signed in again if a handler ended its session. */
  async function clientFor(role: Role): Promise<TestClient> {
    const s = sessions.get(role)!;
    if ((await s.client.get('/api/v1/auth/session')).json().user === null) {
      s.client = app.client();
      await s.client.signIn(s.email, s.password);
    }
    return s.client;
  }

  const call = (client: TestClient, route: RegisteredRoute, headers?: Record<string, string>) =>
    client.request({
      method: route.method,
      url: concreteUrl(route.url),
      headers,
      ...(['GET', 'HEAD'].includes(route.method) ? {} : { body: {} }),
    });

  const apiRoutes = () => app.routes.filter((r) => r.url.startsWith('/api/') || r.url.startsWith('/webhooks/'));

  it('the registry holds every API route with its access, the role-change route among them', () => {
    expect(apiRoutes().length).toBeGreaterThan(10);
    expect(app.routes).toContainEqual({ method: 'PATCH', url: '/api/v1/users/:id/role', access: ['admin'] });
    expect(app.routes).toContainEqual({ method: 'POST', url: '/api/v1/auth/sign-in', access: 'public' });
    expect(app.routes).toContainEqual({ method: 'GET', url: '/api/v1/auth/session', access: 'public' });
    const keys = app.routes.map((r) => `${r.method} ${r.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('routes follow the path conventions: /api/v1/admin and /api/v1/users are admin-only, /api/v1/me is signed-in', () => {
    const wrong = app.routes
      .filter((r) => {
        if (r.url.startsWith('/api/v1/admin/') || r.url === '/api/v1/users' || r.url.startsWith('/api/v1/users/')) {
          return describeAccess(r.access) !== 'admin';
        }
        if (r.url === '/api/v1/me' || r.url.startsWith('/api/v1/me/')) return r.access !== 'signed-in';
        if (r.url.startsWith('/api/internal/')) return r.access !== 'control';
        return false;
      })
      .map((r) => `${r.method} ${r.url}: ${describeAccess(r.access)}`);
    expect(wrong).toEqual([]);
  });

  it('every route that is not public refuses anonymous callers', async () => {
    const failures: string[] = [];
    for (const route of app.routes) {
      if (route.access === 'public') continue;
      const response = await call(app.client(), route);
      const expected = route.access === 'control' ? 403 : route.access === 'signature' ? 'a 4xx' : 401;
      const ok = typeof expected === 'number' ? response.statusCode === expected : response.statusCode >= 400 && response.statusCode < 500;
      if (!ok) failures.push(`${route.method} ${route.url} (${describeAccess(route.access)}): ${response.statusCode}, expected ${expected}`);
    }
    expect(failures).toEqual([]);
  });

  it('every route refuses each signed-in role it does not list (403) and lets the listed ones through', async () => {
    const failures: string[] = [];
    for (const route of app.routes) {
      if (route.access === 'public' || route.access === 'signature') continue;
      for (const role of ROLES) {
        const response = await call(await clientFor(role), route);
        const allowed = allowedRoles(route.access).includes(role);
        if (!allowed && response.statusCode !== 403) {
          failures.push(`${route.method} ${route.url} (${describeAccess(route.access)}) as ${role}: ${response.statusCode}, expected 403`);
        }
        if (allowed && isAccessRefusal(response)) {
          failures.push(`${route.method} ${route.url} (${describeAccess(route.access)}) as ${role}: refused with ${response.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('public routes do not ask anonymous callers to sign in', async () => {
    const failures: string[] = [];
    for (const route of app.routes.filter((r) => r.access === 'public')) {
      const response = await call(app.client(), route);
      if (isAccessRefusal(response)) failures.push(`${route.method} ${route.url}: ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('control routes need the control token, not a session, and refuse a wrong one', async () => {
    const control = app.routes.filter((r) => r.access === 'control');
    expect(control.length).toBeGreaterThan(0);
    for (const route of control) {
      expect((await call(await clientFor('admin'), route, { 'x-parley-control-token': 'wrong' })).statusCode).toBe(403);
      const withToken = await call(app.client(), route, { 'x-parley-control-token': CONTROL_TOKEN });
      expect(withToken.statusCode).not.toBe(403);
      expect(withToken.statusCode).toBeLessThan(500);
    }
  });

  it('a disabled account is treated as signed out', async () => {
    const { client, userId } = await signedInClient(app, 'admin');
    expect((await client.get('/api/v1/users')).statusCode).toBe(200);
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', userId).execute();
    expect((await client.get('/api/v1/users')).statusCode).toBe(401);
  });
});

describe('the access plugin', () => {
  it('refuses to register an API or webhook route that does not declare config.access', async () => {
    const app = Fastify();
    await app.register(accessPlugin, { registry: [], controlToken: () => undefined, resolveSession: () => Promise.resolve(null) });
    expect(() => app.post('/api/v1/forgot-to-declare', async () => ({ ok: true }))).toThrow(
      'Route POST /api/v1/forgot-to-declare does not declare config.access',
    );
    expect(() => app.get('/webhooks/x', async () => ({ ok: true }))).toThrow('Route GET /webhooks/x does not declare config.access');
    await app.close();
  });

  it('records API key scopes and refuses a scope on a public route', async () => {
    const registry: RegisteredRoute[] = [];
    const app = Fastify();
    await app.register(accessPlugin, { registry, controlToken: () => undefined, resolveSession: () => Promise.resolve(null) });
    app.get('/api/v1/scoped', { config: { access: 'signed-in', scope: 'clients:read' } }, async () => ({}));
    expect(() => app.get('/api/v1/open', { config: { access: 'public', scope: 'clients:read' } }, async () => ({}))).toThrow('declares a scope');
    await app.ready();
    expect(registry).toEqual([{ method: 'GET', url: '/api/v1/scoped', access: 'signed-in', scope: 'clients:read' }]);
    await app.close();
  });

  it('records each declared route once, HEAD twins of GET routes left out', async () => {
    const registry: RegisteredRoute[] = [];
    const app = Fastify();
    await app.register(accessPlugin, { registry, controlToken: () => undefined, resolveSession: () => Promise.resolve(null) });
    app.get('/api/v1/thing', { config: { access: ['manager'] } }, async () => ({}));
    app.delete('/api/v1/thing/:id', { config: { access: 'signed-in' } }, async () => ({}));
    await app.ready();
    expect(registry).toEqual([
      { method: 'GET', url: '/api/v1/thing', access: ['manager'] },
      { method: 'DELETE', url: '/api/v1/thing/:id', access: 'signed-in' },
    ]);
    await app.close();
  });
});
