import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { CONTENT_SECURITY_POLICY } from './security-headers';
import { loggerOptions } from '../lib/logger';
import { CSRF_COOKIE, CSRF_HEADER } from './csrf';

const CSRF_FAILED = { code: 'CSRF_FAILED' };

/** The Content-Security-Policy header helmet builds from CONTENT_SECURITY_POLICY, as a set. */
function expectedCspDirectives(): string[] {
  return Object.entries(CONTENT_SECURITY_POLICY)
    .map(([name, values]) => `${name.replace(/[A-Z]/gu, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`)
    .sort();
}

const directivesOf = (header: string | string[] | number | undefined) =>
  String(header)
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .sort();

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), stream), lines };
}

describe.each(ENGINES)('HTTP protections (%s)', (engine) => {
  let app: TestApp;
  let admin: { client: TestClient; userId: string };
  let target: string;
  const log = captureLog();

  beforeAll(async () => {
    app = await createTestApp(engine, { logger: log.logger });
    admin = await signedInClient(app, 'admin');
    target = (await app.services.users.createUser({ email: `csrf-${engine}@example.com`, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'T' })).id;
  });
  afterAll(async () => {
    await app.destroy();
  });

  const changeRole = (headers: Record<string, string> = {}, withoutCsrf = false) =>
    admin.client.request({ method: 'PATCH', url: `/api/v1/users/${target}/role`, body: { role: 'manager' }, headers, withoutCsrf });

  describe('CSRF', () => {
    it('refuses a cookie-authenticated change without the header', async () => {
      const response = await changeRole({}, true);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject(CSRF_FAILED);
    });

    it('refuses a header that does not match the cookie', async () => {
      const response = await changeRole({ [CSRF_HEADER]: 'something-else' }, true);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject(CSRF_FAILED);
    });

    it('refuses a change without the CSRF cookie, even with a header', async () => {
      const client = app.client();
      client.cookies.delete(CSRF_COOKIE);
      const response = await client.request({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        body: { email: 'a@example.com' },
        headers: { [CSRF_HEADER]: 'guess' },
        withoutCsrf: true,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject(CSRF_FAILED);
    });

    it('refuses a foreign Origin even with a matching token', async () => {
      const response = await changeRole({ origin: 'https://evil.example' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject(CSRF_FAILED);
    });

    it('accepts our own Origin with a matching token, and safe methods need neither', async () => {
      expect((await changeRole({ origin: TEST_PUBLIC_URL })).statusCode).toBe(200);
      const read = await admin.client.request({ method: 'GET', url: '/api/v1/users', withoutCsrf: true, headers: { origin: 'https://evil.example' } });
      expect(read.statusCode).toBe(200);
    });

    it('protects sign-in too (login CSRF), and hands out the cookie on the first visit', async () => {
      const client = app.client();
      client.cookies.delete(CSRF_COOKIE);
      const refused = await client.request({ method: 'POST', url: '/api/v1/auth/sign-in', body: { email: 'a@example.com', password: 'x' }, withoutCsrf: true });
      expect(refused.statusCode).toBe(403);
      const cookie = refused.cookies.find((c) => c.name === CSRF_COOKIE);
      expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict' });
      expect(cookie?.httpOnly).toBeFalsy();
      expect(cookie?.value.length).toBeGreaterThanOrEqual(32);
    });
  });

  describe('security headers', () => {
    it.each(['/', '/login', '/api/v1/health', '/api/v1/nope'])('%s carries the CSP and the other helmet headers', async (url) => {
      const response = await app.client().get(url);
      expect(directivesOf(response.headers['content-security-policy'])).toEqual(expectedCspDirectives());
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['strict-transport-security']).toBeUndefined(); // plain HTTP here
      expect(response.headers['x-powered-by']).toBeUndefined();
    });

    it('the session cookie is httpOnly and SameSite=Lax', async () => {
      const client = app.client();
      const email = `cookie-${engine}@example.com`;
      await app.services.users.createUser({ email, password: 'Corr3ct!Horse#Battery', role: 'client', name: 'C' });
      const response = await client.signIn(email, 'Corr3ct!Horse#Battery');
      const session = response.cookies.find((c) => c.name.includes('session_token'));
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(session?.secure).toBeFalsy();
    });
  });

  describe('not found', () => {
    it('an unknown API route answers 404 in JSON, for any method', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await admin.client.request({ method, url: '/api/v1/no-such-thing', ...(method === 'GET' ? {} : { body: {} }) });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Route not found' } });
      }
    });

    it('an unknown page answers 404 and the server logs its path (without the query)', async () => {
      const response = await app.client().get('/no-such-page/here?token=secret-value');
      expect(response.statusCode).toBe(404);
      const logged = log.lines.find((l) => l.msg === 'page not found' && l.path === '/no-such-page/here');
      expect(logged).toMatchObject({ level: 40 });
      expect(JSON.stringify(log.lines)).not.toContain('secret-value');
    });

    it('a page the web app could not route is logged when it reports it', async () => {
      const response = await app.client().post('/api/v1/telemetry/not-found', { path: '/client-side/missing' });
      expect(response.statusCode).toBe(204);
      expect(log.lines.some((l) => l.msg === 'page not found' && l.path === '/client-side/missing' && l.clientSide === true)).toBe(true);
    });
  });
});

describe.each(ENGINES)('HTTPS deployments (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { env: { PUBLIC_URL: 'https://parley.example' }, startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('send HSTS and mark cookies Secure', async () => {
    const client = app.client();
    client.cookies.delete(CSRF_COOKIE);
    const response = await client.get('/api/v1/health');
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/u);
    expect(response.cookies.find((c) => c.name === CSRF_COOKIE)?.secure).toBe(true);
  });
});

describe.each(ENGINES)('per-IP rate limit on auth endpoints (%s)', (engine) => {
  const LIMIT = 2;
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine, { env: { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) }, startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  const hit = (method: string, url: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      remoteAddress,
      headers: { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't', ...headers },
      ...(method === 'GET' ? {} : { payload: {} }),
    });

  it('every state-changing auth route answers 429 RATE_LIMITED once an address used up its allowance', async () => {
    const routes = app.routes.filter(
      (r) => r.url.startsWith('/api/v1/auth/') && (r.method !== 'GET' || r.url.endsWith('/verify-email') || r.url.includes('/social/')),
    );
    expect(routes.length).toBeGreaterThanOrEqual(9);
    const unlimited: string[] = [];
    for (const route of routes) {
      const url = route.url.endsWith('/verify-email') ? `${route.url}?token=x` : route.url;
      for (let i = 0; i < LIMIT; i++) await hit(route.method, url);
      const response = await hit(route.method, url);
      if (response.statusCode !== 429) unlimited.push(`${route.method} ${route.url}: ${response.statusCode}`);
      else {
        expect(response.json().error.code).toBe('RATE_LIMITED');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(unlimited).toEqual([]);
  });

  it('counts per address: another address is still served, and X-Forwarded-For is not trusted', async () => {
    const url = '/api/v1/auth/forgot-password';
    for (let i = 0; i < LIMIT; i++) await hit('POST', url, '10.0.0.1');
    expect((await hit('POST', url, '10.0.0.1', { 'x-forwarded-for': '10.9.9.9' })).statusCode).toBe(429);
    expect((await hit('POST', url, '10.0.0.2')).statusCode).toBe(400);
  });

  it('does not limit reading the session, which every page load does', async () => {
    for (let i = 0; i < LIMIT + 2; i++) expect((await hit('GET', '/api/v1/auth/session')).statusCode).toBe(200);
  });
});
