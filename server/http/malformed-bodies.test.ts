/**
 * Malformed input on every route answers 4xx, never 500: arbitrary JSON, the route's own fields
 * with wrong types and huge strings, text that is not JSON, the wrong content type, bad path ids
 * and query strings. The routes and their field names come from the app itself (the access
 * registry and the OpenAPI document), so routes added later are covered.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { concreteUrl } from '../../test/helpers/routes';
import type { RegisteredRoute } from './access';

const CONTROL_TOKEN = 'control-token-for-malformed-bodies';
const RUNS = 8;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
};

/** Field names of each route's JSON body, from the OpenAPI document (hidden routes: none). */
function bodyFields(app: TestApp): Map<string, string[]> {
  const doc = app.server.swagger() as unknown as OpenApi;
  const fields = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const properties = operation.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      fields.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/gu, ':$1')}`, Object.keys(properties));
    }
  }
  return fields;
}

/** Values of every kind, including the wrong ones and very long strings. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', 'a@b', 'ADMIN', 'admin', '00000000-0000-0000-0000-000000000000', 'Str0ng!Passw0rd', '<script>', '\u0000', '%00'),
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

describe.each(ENGINES)('malformed input never causes a 500 (%s)', (engine) => {
  let app: TestApp;
  let admin: { client: TestClient; email: string; password: string };
  let fields: Map<string, string[]>;

  beforeAll(async () => {
    app = await createTestApp(engine, { controlToken: CONTROL_TOKEN });
    admin = await signedInClient(app, 'admin');
    fields = bodyFields(app);
  });
  afterAll(async () => {
    await app.destroy();
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

  it('arbitrary JSON and wrong-typed fields', async () => {
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
          { numRuns: RUNS },
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('text that is not JSON, the wrong content type, no body, and a body over the limit', async () => {
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

  it('path ids that are not ids and query strings of any shape', async () => {
    const problems: string[] = [];
    const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('1', '-1', 'null', 'x'.repeat(3000), '%E0%A4%A', '..'));
    const query = fc.dictionary(fc.constantFrom('limit', 'search', 'role', 'token', 'redirectTo', 'x'), fc.string({ maxLength: 30 }), { maxKeys: 3 });
    for (const route of app.routes.filter((r) => r.url.startsWith('/api/'))) {
      const [who, client] = (await callers(route))[0]!;
      await fc.assert(
        fc.asyncProperty(segment, query, async (id, params) => {
          const path = route.url.replace(/:[A-Za-z0-9_]+/gu, encodeURIComponent(id));
          const url = `${path}?${new URLSearchParams(params).toString()}`;
          const response = await client.request({
            method: route.method,
            url,
            headers: headersFor(route),
            ...(BODY_METHODS.has(route.method) ? { body: {} } : {}),
          });
          const found = problem(route, who, url, response);
          if (found) problems.push(found);
        }),
        { numRuns: route.url.includes(':') || route.method === 'GET' ? RUNS : 2 },
      );
    }
    expect(problems).toEqual([]);
  });
});
