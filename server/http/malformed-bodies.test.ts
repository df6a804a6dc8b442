/**
 * Malformed input on every route answers 4xx, never 500: arbitrary JSON, the route's own fields
 * with wrong types and huge strings, lone surrogates, U+0000 and deep nesting, text that is not
 * JSON, the wrong content type, hostile path parameters, query strings and header values — as a
 * signed-in admin and anonymously. The routes, their field names and query parameters come from
 * the app itself (the access registry and the OpenAPI document), so routes added later are
 * covered. Runs are seeded (FUZZ_SEED overrides the seed) and bounded per route.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../test/helpers/app';
import { TEST_DATABASE_URL } from '../../test/helpers/database';
import { concreteUrl } from '../../test/helpers/routes';
import { CSRF_COOKIE, CSRF_HEADER } from './csrf';
import type { RegisteredRoute } from './access';

const CONTROL_TOKEN = 'control-token-for-malformed-bodies';
const RUNS = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** These sweep every route; the app grows, so they get more time than one test's default 30 s. */
const SWEEP_TIMEOUT_MS = 180_000;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type OpenApi = {
  paths: Record<
    string,
    Record<string, { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>
  >;
};

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/gu, ':$1')}`;

/** Query parameter names of each route, from the OpenAPI document. */
function queryNames(app: TestApp): Map<string, string[]> {
  const doc = app.server.swagger() as unknown as OpenApi;
  const names = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      names.set(routeKey(method, path), (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    }
  }
  return names;
}

/** Field names of each route's JSON body, from the OpenAPI document (hidden routes: none). */
function bodyFields(app: TestApp): Map<string, string[]> {
  const doc = app.server.swagger() as unknown as OpenApi;
  const fields = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const properties = operation.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      fields.set(routeKey(method, path), Object.keys(properties));
    }
  }
  return fields;
}

/** Values of every kind, including the wrong ones and very long strings. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
  // Any UTF-16 code units, lone surrogates among them (JSON.stringify writes those as escapes).
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', 'a@b', 'ADMIN', 'admin', '00000000-0000-0000-0000-000000000000', 'Str0ng!Passw0rd', '<script>', '\u0000', '%00', '\ud800', 'a\udfffb'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.nat({ max: 3 }).map((n) => 'x'.repeat([300, 5_000, 70_000, 200_000][n]!)),
);

function bodiesFor(fields: string[]) {
  const keyed =
    fields.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...fields), anyValue, { maxKeys: fields.length + 1 });
  return fc.oneof(keyed, fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.string({ maxLength: 10 }), anyValue, { maxKeys: 4 }));
}

/**
 * One engine: what is swept is the HTTP edge (parsing and validation before any statement), and
 * the sweep is the suite's longest test — on PGlite three times PostgreSQL's time. PostgreSQL when
 * the run has one (CI), else PGlite. What reaches each engine with hostile text (U+0000, lone
 * surrogates, huge values) is checked on both in hostile-input.test.ts.
 */
const SWEEP_ENGINES = TEST_DATABASE_URL ? (['postgres'] as const) : (['pglite'] as const);

describe.each(SWEEP_ENGINES)('malformed input never causes a 500 (%s)', (engine) => {
  let app: TestApp;
  let admin: { client: TestClient; email: string; password: string };
  let fields: Map<string, string[]>;

  let webDist: string;

  beforeAll(async () => {
    // A built web app, so page routes answer as in production (without one they answer 503 by design).
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Parley</title>');
    fs.writeFileSync(path.join(webDist, 'widget.js'), '/* widget */');
    app = await createTestApp(engine, { controlToken: CONTROL_TOKEN, env: { WEB_DIST_DIR: webDist } });
    admin = await signedInClient(app, 'admin');
    fields = bodyFields(app);
  });
  afterAll(async () => {
    await app.destroy();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  /** The admin's client, signed in again if a handler ended its session (sign-out, say). */
  async function adminClient(): Promise<TestClient> {
    if ((await admin.client.get('/api/v1/auth/session')).json().user === null) {
      admin.client = app.client();
      await admin.client.signIn(admin.email, admin.password);
    }
    return admin.client;
  }

  /** Signed in as an admin, and anonymous where that gets past the access check (public routes). */
  const callers = async (route: RegisteredRoute): Promise<[string, TestClient][]> => [
    ['admin', await adminClient()],
    ...(route.access === 'public' ? ([['anonymous', app.client()]] as [string, TestClient][]) : []),
  ];

  const headersFor = (route: RegisteredRoute, extra: Record<string, string> = {}) =>
    route.access === 'control' ? { 'x-parley-control-token': CONTROL_TOKEN, ...extra } : extra;

  function problem(route: RegisteredRoute, who: string, what: string, response: LightMyRequestResponse): string | null {
    if (response.statusCode < 500) return null;
    return `${route.method} ${route.url} as ${who} with ${what.slice(0, 200)}: ${response.statusCode} ${response.body.slice(0, 200)}`;
  }

  const bodyRoutes = () => app.routes.filter((r) => BODY_METHODS.has(r.method));

  it('covers every route with a body', () => {
    expect(bodyRoutes().length).toBeGreaterThan(10);
    expect(fields.get('POST /api/v1/auth/sign-in')).toEqual(['email', 'password']);
  });

  it('arbitrary JSON and wrong-typed fields', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const problems: string[] = [];
    for (const route of bodyRoutes()) {
      const known = fields.get(`${route.method} ${route.url}`) ?? ['command', 'flags'];
      for (const [who, client] of await callers(route)) {
        await fc.assert(
          fc.asyncProperty(bodiesFor(known), async (body) => {
            const response = await client.request({ method: route.method, url: concreteUrl(route.url), body, headers: headersFor(route) });
            const found = problem(route, who, JSON.stringify(body), response);
            if (found) problems.push(found);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('text that is not JSON, the wrong content type, no body, and a body over the limit', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const cases: [string, string | undefined, string | undefined][] = [
      ['broken JSON', '{"email": ', 'application/json'],
      ['JSON with a trailing comma', '{"a": 1,}', 'application/json'],
      ['an empty JSON body', '', 'application/json'],
      ['a lone string', '"text"', 'application/json'],
      ['a form', 'email=a%40b.co&password=x', 'application/x-www-form-urlencoded'],
      ['plain text', 'hello', 'text/plain'],
      ['XML', '<a>1</a>', 'application/xml'],
      ['multipart', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', 'multipart/form-data; boundary=x'],
      ['a JSON charset other than UTF-8', '{}', 'application/json; charset=utf-16'],
      ['no content type', '{}', undefined],
      ['a 2 MB JSON string', JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }), 'application/json'],
      ['lone surrogate escapes in every field', `{"email":"\\ud800","password":"\\udfff","text":"a\\udbffb","name":"\\ud83d","path":"/\\udc00","token":"\\ud800"}`, 'application/json'],
      ['a key holding a lone surrogate and U+0000', '{"\\ud800\\u0000":1}', 'application/json'],
      ['5,000 levels of arrays around "\\u0000"', `${'['.repeat(5000)}"\\u0000"${']'.repeat(5000)}`, 'application/json'],
      ['20,000 levels of objects', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, 'application/json'],
      ['20,000 levels around "constructor" and "__proto__"', `${'{"a":'.repeat(20_000)}{"constructor":{"prototype":{"x":1}},"__proto__":{"x":1}}${'}'.repeat(20_000)}`, 'application/json'],
    ];
    const problems: string[] = [];
    for (const route of bodyRoutes()) {
      for (const [who, client] of await callers(route)) {
        for (const [what, payload, type] of cases) {
          const headers = headersFor(route, type ? { 'content-type': type } : {});
          const response = await client.request({ method: route.method, url: concreteUrl(route.url), body: payload, headers });
          const found = problem(route, who, what, response);
          if (found) problems.push(found);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  /** Raw pieces of a URL component: text percent-encoded as a browser would, and encodings no browser sends. */
  const urlPiece = fc.oneof(
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map((text) => encodeURIComponent(text)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }).map((text) => encodeURIComponent(text.toWellFormed())) },
    // NUL in each spelling that decodes to U+0000, weighted: it is what broke six list routes.
    { weight: 2, arbitrary: fc.constantFrom('%00', 'a%00b', '%00%00', 'x%00') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%E0%A4%A', '%', '%%', '%ZZ', '+', '%2F', '%2E%2E', '..', '-1', '0', '1e309', 'NaN',
        'null', 'true', '[]', '__proto__', 'constructor', 'x'.repeat(3000), '00000000-0000-0000-0000-000000000000', '2026-13-45T99:99:99Z', '%F0%9F%98%80',
      ),
    },
  );
  const urlComponent = fc.array(urlPiece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));

  it('path parameters and query strings of any shape, on every route, as admin and anonymous', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const problems: string[] = [];
    const names = queryNames(app);
    for (const route of app.routes) {
      const known = names.get(`${route.method} ${route.url}`) ?? [];
      const name = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...known, 'limit', 'search', 'cursor', 'x', '__proto__', 'hub.mode') },
        { weight: 1, arbitrary: urlComponent },
      );
      const query = fc.array(fc.tuple(name, urlComponent), { maxLength: 4 });
      const runs = route.url.includes(':') || route.method === 'GET' ? RUNS : 3;
      for (const [who, client] of [
        ['admin', await adminClient()],
        ['anonymous', app.client()],
      ] as [string, TestClient][]) {
        await fc.assert(
          fc.asyncProperty(urlComponent, query, async (id, params) => {
            const concrete = route.url.replace(/:[A-Za-z0-9_]+/gu, id).replace(/\*/gu, id);
            const url = `${concrete}?${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
            const response = await client.request({
              method: route.method,
              url,
              headers: headersFor(route),
              ...(BODY_METHODS.has(route.method) ? { body: {} } : {}),
            });
            const found = problem(route, who, url, response);
            if (found) problems.push(found);
          }),
          { numRuns: runs, seed: SEED },
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('hostile header values, on every route, as admin and anonymous', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const problems: string[] = [];
    const HEADERS = [
      'authorization',
      'cookie',
      'x-csrf-token',
      'x-hub-signature-256',
      'x-parley-signature',
      'x-parley-timestamp',
      'x-parley-control-token',
      'content-type',
      'accept',
      'accept-language',
      'accept-encoding',
      'origin',
      'referer',
      'user-agent',
      'x-forwarded-for',
      'x-forwarded-proto',
      'x-forwarded-host',
      'if-none-match',
      'if-modified-since',
      'range',
    ];
    // What can reach the server: header values are latin-1 (Node refuses CR and LF); NUL is there for the in-process path.
    const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 });
    const value = fc.oneof(
      latin1,
      // Control characters and NUL, which only an in-process request can carry (Node's parser refuses them).
      fc.constantFrom('\u0000', 'a\u0000b', '\u0001', 'a\rb', 'a\nb', '\u0100', '\ud800'),
      fc.constantFrom(
        '',
        ' ',
        '%00',
        '\\u0000',
        '\u0000',
        'a\u0000b',
        '\xc0\x80',
        '\xed\xa0\x80',
        '\xff\xfe',
        'x'.repeat(8192),
        'x'.repeat(70_000),
        'Bearer',
        'Bearer ',
        'Bearer x',
        `Bearer ${'a'.repeat(500)}`,
        'Bearer a.b',
        'Bearer %00.%00',
        'Bearer \u0000.\u0000',
        'Basic Zm9vOmJhcg==',
        'sha256=',
        'sha256=zz',
        `sha256=${'0'.repeat(64)}`,
        `sha256=${'g'.repeat(64)}`,
        `sha256=${'0'.repeat(65)}`,
        'sha1=abc',
        '-1',
        '0',
        '99999999999999999999',
        '1e309',
        'NaN',
        'parley.session_token=%00',
        'parley.session_token=\u0000',
        'parley.session_token=abc.def',
        `parley.session_token=${'a'.repeat(32)}.${'b'.repeat(44)}`,
        'parley.session_token=%E0%A4%A',
        'parley_csrf=%ZZ; parley_csrf=',
        'parley_csrf=%00',
        '=;=;',
        ';;;',
        'a=b; a=c',
        'application/json; charset=utf-16',
        'application/json; charset=%00',
        'application/json; boundary=',
        'multipart/form-data',
        'text/html',
        '*/*',
        'null',
        'http://evil.example',
        'bytes=0-0,-1',
        '127.0.0.1, %00, ::1',
      ),
    );
    // A cookie is a name and a value: one of ours (the session, the CSRF token) or another.
    const cookieValue = fc
      .tuple(fc.constantFrom('parley.session_token', 'parley_csrf', 'x'), value)
      .map(([name, text]) => `${name}=${text}`);
    const headerEntry = fc.oneof(
      fc.tuple(fc.constant('cookie'), fc.oneof(cookieValue, value)),
      fc.tuple(fc.constantFrom(...HEADERS.filter((h) => h !== 'cookie')), value),
    );
    const hostileHeaders = fc.array(headerEntry, { minLength: 1, maxLength: 3 }).map((entries) => Object.fromEntries(entries) as Record<string, string>);
    let ip = 0;
    for (const route of app.routes) {
      for (const who of ['admin', 'anonymous']) {
        const client = who === 'admin' ? await adminClient() : app.client();
        const jar = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        await fc.assert(
          fc.asyncProperty(hostileHeaders, fc.boolean(), async (hostile, cookieFirst) => {
            const { cookie, ...others } = hostile;
            const headers: Record<string, string> = {
              ...headersFor(route),
              ...(BODY_METHODS.has(route.method) ? { 'content-type': 'application/json', [CSRF_HEADER]: client.cookies.get(CSRF_COOKIE) ?? '' } : {}),
              ...others,
              cookie: cookie === undefined ? jar : cookieFirst ? `${cookie}; ${jar}` : `${jar}; ${cookie}`,
            };
            ip += 1;
            const response = await app.inject({
              method: route.method,
              url: concreteUrl(route.url),
              headers,
              remoteAddress: `10.9.${Math.floor(ip / 250) % 250}.${ip % 250}`,
              ...(BODY_METHODS.has(route.method) ? { payload: '{}' } : {}),
            });
            const found = problem(route, who, JSON.stringify(hostile), response);
            if (found) problems.push(found);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
