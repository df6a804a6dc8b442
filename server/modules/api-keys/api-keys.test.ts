/**
 * API keys (issue 14 §4) on both engines: created once and stored hashed, accepted as
 * `Authorization: Bearer` on the routes that declare a scope — route by route from the registry —,
 * refused (401) once revoked or expired or when the account is deactivated, without CSRF, rate
 * limited per key, tenant-scoped exactly as the key's user, never logged.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES, type ApiScope } from '../../../common/api/api-scopes';
import { API_KEY_PATTERN, type ApiKeyView, type CreatedApiKey } from '../../../common/api/api-keys';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { concreteUrl } from '../../../test/helpers/routes';
import { apiKeyScopeMessage, type RegisteredRoute } from '../../http/access';
import { sha256Hex } from '../../lib/crypto';

const RATE_LIMIT = 300;

describe.each(ENGINES)('API keys (%s)', (engine) => {
  let app: TestApp;
  let admin: { client: TestClient; userId: string };
  const log: string[] = [];

  const createKey = async (client: TestClient, scopes: readonly ApiScope[], extra: Record<string, unknown> = {}, path = '/api/v1/me/api-keys') =>
    expectJson<CreatedApiKey>(await client.post(path, { name: `key ${scopes.join(' ')}`.slice(0, 90), scopes, ...extra }), 201);

  /** A request with the key only: no cookie, no CSRF token. */
  const withKey = (key: string, method: string, url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    });
    app = await createTestApp(engine, {
      startJobs: false,
      env: { API_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
      logger: pino({ level: 'trace' }, sink),
    });
    admin = await signedInClient(app, 'admin');
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('shows a key once, stores only its sha256, and lists it by prefix with its scopes', async () => {
    const created = await createKey(admin.client, ['conversations:read', 'contacts:read']);
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created.key.startsWith(created.apiKey.prefix)).toBe(true);
    expect(created.apiKey).toMatchObject({ scopes: ['conversations:read', 'contacts:read'], service: false, expiresAt: null, lastUsedAt: null });
    const row = await app.database.db.selectFrom('apiKeys').selectAll().where('id', '=', created.apiKey.id).executeTakeFirstOrThrow();
    expect(row.keyHash).toBe(sha256Hex(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.split('_').slice(3).join('_'));
    const list = await admin.client.get('/api/v1/me/api-keys');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.key);
    expect(list.json<{ apiKeys: ApiKeyView[] }>().apiKeys.map((k) => k.id)).toContain(created.apiKey.id);
    const event = await app.database.db.selectFrom('securityEvents').selectAll().where('type', '=', 'api_keys.created').where('userId', '=', admin.userId).execute();
    expect(event.some((e) => e.details.apiKeyId === created.apiKey.id)).toBe(true);
    expect(JSON.stringify(event)).not.toContain(created.key);
  });

  it('authenticates GET /api/v1/me with any valid key and records the last use and IP', async () => {
    const { key, apiKey } = await createKey(admin.client, ['agents:read']);
    const me = await withKey(key, 'GET', '/api/v1/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: admin.userId, role: 'admin' });
    const listed = (await admin.client.get('/api/v1/me/api-keys')).json<{ apiKeys: ApiKeyView[] }>().apiKeys.find((k) => k.id === apiKey.id);
    expect(listed?.lastUsedAt).not.toBeNull();
    expect(listed?.lastUsedIp).toBe('127.0.0.1');
  });

  it('the registry carries the scopes integrators need', () => {
    const scoped = (method: string, url: string, scope: string) => expect(app.routes).toContainEqual(expect.objectContaining({ method, url, scope }));
    scoped('GET', '/api/v1/me', 'any');
    scoped('GET', '/api/v1/conversations', 'conversations:read');
    scoped('GET', '/api/v1/conversations/:id/messages', 'conversations:read');
    scoped('POST', '/api/v1/conversations/:id/messages', 'messages:send');
    scoped('GET', '/api/v1/contacts', 'contacts:read');
    scoped('GET', '/api/v1/automations', 'automations:read');
    scoped('POST', '/api/v1/automations/:id/run', 'automations:run');
    scoped('GET', '/api/v1/agents', 'agents:read');
    scoped('GET', '/api/v1/clients', 'clients:read');
    for (const url of ['/api/v1/me/api-keys', '/api/v1/admin/api-keys']) {
      expect(app.routes.filter((r) => r.url.startsWith(url)).every((r) => r.scope === undefined)).toBe(true);
    }
  });

  it('route by route: a key with the scope gets through, a key with every other scope is refused with 403, and session-only routes refuse every key', async () => {
    const keys = new Map<string, { with: string; without: string }>();
    for (const scope of API_SCOPES) {
      keys.set(scope, {
        with: (await createKey(admin.client, [scope])).key,
        without: (await createKey(admin.client, API_SCOPES.filter((s) => s !== scope))).key,
      });
    }
    const all = (await createKey(admin.client, API_SCOPES)).key;
    const call = (key: string, route: RegisteredRoute) =>
      withKey(key, route.method, concreteUrl(route.url), ['GET', 'HEAD', 'DELETE'].includes(route.method) ? undefined : {});
    const failures: string[] = [];
    const sessionRoutes = app.routes.filter((r) => typeof r.access !== 'string' || r.access === 'signed-in' || (r.access === 'signature' && r.scope !== undefined));
    for (const route of sessionRoutes) {
      const name = `${route.method} ${route.url}`;
      if (route.scope === undefined) {
        const refused = await call(all, route);
        if (refused.statusCode !== 403 || refused.json<{ error: { message: string } }>().error.message !== apiKeyScopeMessage(undefined)) {
          failures.push(`${name}: a key with every scope got ${refused.statusCode}, expected 403`);
        }
        continue;
      }
      if (route.scope === 'any') continue;
      const { with: allowedKey, without } = keys.get(route.scope)!;
      const allowed = await call(allowedKey, route);
      if (allowed.statusCode === 401 || allowed.statusCode === 403 || allowed.statusCode >= 500) failures.push(`${name}: a key with ${route.scope} got ${allowed.statusCode} ${allowed.body}`);
      const refused = await call(without, route);
      if (refused.statusCode !== 403 || refused.json<{ error: { code: string; message: string } }>().error.message !== `This API key lacks the scope ${route.scope}.`) {
        failures.push(`${name}: a key without ${route.scope} got ${refused.statusCode} ${refused.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sessionRoutes.filter((r) => r.scope !== undefined && r.scope !== 'any').length).toBeGreaterThan(15);
  });

  it("a client user's key sees only its own business: another client's conversation is a 404", async () => {
    const mine = await createTestClient(app, 'Alpha Bakery');
    const theirs = await createTestClient(app, 'Omega Garage');
    const a = await app.services.messaging.recordInbound(await createTestChannel(app, { clientId: mine.id, kind: 'webchat' }), customerText('v_alpha', 'Fresh bread?'));
    const b = await app.services.messaging.recordInbound(await createTestChannel(app, { clientId: theirs.id, kind: 'webchat' }), customerText('v_omega', 'SECRET-OMEGA'));
    const alice = await signedInClientUser(app, mine.id, 'Alice Alpha');
    const { key } = await createKey(alice.client, ['conversations:read', 'messages:send', 'clients:read']);
    expect((await withKey(key, 'GET', `/api/v1/conversations/${a.conversationId}`)).statusCode).toBe(200);
    expect((await withKey(key, 'GET', `/api/v1/conversations/${b.conversationId}`)).statusCode).toBe(404);
    expect((await withKey(key, 'GET', `/api/v1/conversations/${b.conversationId}/messages`)).statusCode).toBe(404);
    expect((await withKey(key, 'POST', `/api/v1/conversations/${b.conversationId}/messages`, { text: 'hi' })).statusCode).toBe(404);
    expect((await withKey(key, 'GET', `/api/v1/clients/${theirs.id}`)).statusCode).toBe(404);
    const list = await withKey(key, 'GET', '/api/v1/conversations?tab=all');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(a.conversationId);
    expect(list.body).not.toContain(b.conversationId);
    // The key acts as a client user: admin routes stay closed (session-only and admin-only).
    expect((await withKey(key, 'GET', '/api/v1/users')).statusCode).toBe(403);
    // Service-account keys are for administrators.
    expect((await alice.client.post('/api/v1/admin/api-keys', { name: 'x', scopes: ['clients:read'] })).statusCode).toBe(403);
  });

  it("route by route: a client user's key holding every scope gets 404 for another client's ids, and lists without them", async () => {
    const mine = await createTestClient(app, 'Mine Ltd');
    const theirs = await createTestClient(app, 'Theirs Ltd');
    const channel = await createTestChannel(app, { clientId: theirs.id, kind: 'webchat' });
    const inbound = await app.services.messaging.recordInbound(channel, customerText('v_theirs', 'SECRET-THEIRS order 77'));
    const automation = expectJson<{ automation: { id: string } }>(
      await admin.client.post('/api/v1/automations', { name: 'SECRET-THEIRS flow', workflow_id: 'wf', workflow_url: 'https://hooks.example.com/t', client_id: theirs.id }),
      201,
    ).automation.id;
    const execution = (
      await app.database.db
        .insertInto('automationExecutions')
        .values({ automationId: automation, status: 'running', startedAt: new Date(), callbackTokenHash: 'b'.repeat(64) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Another client's webhook subscription (and REST hook) with one delivery, straight in its tables.
    const subscription = (
      await app.database.db
        .insertInto('webhookSubscriptions')
        .values({ name: 'SECRET-THEIRS hook', url: 'https://hooks.example.com/theirs', clientId: theirs.id, signingSecret: 'sealed', secretPrefix: 'whsec_x', source: 'rest_hook' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const delivery = (
      await app.database.db
        .insertInto('webhookDeliveries')
        .values({ subscriptionId: subscription, eventType: 'message.received', body: '{"SECRET-THEIRS":1}', status: 'succeeded', finishedAt: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Their customer's message as a public event in the outbox (the samples must never show it).
    await app.database.db
      .insertInto('events')
      .values({
        type: 'message.received',
        dedupeKey: `test:${inbound.messageId}`,
        clientId: theirs.id,
        conversationId: inbound.conversationId,
        performedBy: JSON.stringify({ kind: 'customer' }),
        envelope: JSON.stringify({ id: inbound.messageId, type: 'message.received', client_id: theirs.id, data: { text: 'SECRET-THEIRS' } }),
      })
      .execute();
    const foreign = (url: string) =>
      url
        .replace('/conversations/:id', `/conversations/${inbound.conversationId}`)
        .replace(':messageId', inbound.messageId)
        .replace('/clients/:id', `/clients/${theirs.id}`)
        .replace(':clientId', theirs.id)
        .replace('/automations/:id', `/automations/${automation}`)
        .replace('/automation-executions/:id', `/automation-executions/${execution}`)
        .replace('/webhook-subscriptions/:id', `/webhook-subscriptions/${subscription}`)
        .replace('/webhook-deliveries/:id', `/webhook-deliveries/${delivery}`)
        .replace('/hooks/:id', `/hooks/${subscription}`);
    // Parameters that name no record: a GET of what the caller's own scope holds (checked below with the lists).
    const unscopedParameters: Record<string, string> = { '/api/v1/hooks/samples/:event': '/api/v1/hooks/samples/message.received' };
    const user = await signedInClientUser(app, mine.id, 'Mina Mine');
    const key = (await createKey(user.client, API_SCOPES)).key;
    const adminKey = (await createKey(admin.client, API_SCOPES)).key;
    const scoped = app.routes.filter((r) => r.scope !== undefined && r.scope !== 'any');
    const failures: string[] = [];
    for (const route of scoped.filter((r) => r.url.includes(':') && unscopedParameters[r.url] === undefined)) {
      const url = foreign(route.url);
      if (url.includes(':')) {
        failures.push(`${route.method} ${route.url}: no foreign id for this parameter`);
        continue;
      }
      const body = route.method === 'GET' ? undefined : route.url.endsWith('/messages') ? { text: 'x', content: 'x' } : route.url.startsWith('/api/v1/webhook-subscriptions') ? { status: 'inactive' } : { status: 'paused' };
      const response = await withKey(key, route.method, url, body);
      if (response.statusCode !== 404) failures.push(`${route.method} ${url} as another client's user: ${response.statusCode}`);
      if (route.method === 'GET') {
        const staff = await withKey(adminKey, route.method, url);
        if (staff.statusCode !== 200) failures.push(`${route.method} ${url} as admin: ${staff.statusCode}`);
      }
    }
    const lists = scoped.filter((r) => r.method === 'GET' && (!r.url.includes(':') || unscopedParameters[r.url] !== undefined));
    for (const route of lists) {
      const response = await withKey(key, 'GET', unscopedParameters[route.url] ?? route.url);
      if (response.statusCode !== 200 || response.body.includes('SECRET-THEIRS') || response.body.includes(theirs.id)) {
        failures.push(`GET ${route.url}: ${response.statusCode}, ${response.body.includes('SECRET-THEIRS') || response.body.includes(theirs.id) ? 'shows the other client' : 'ok'}`);
      }
    }
    expect(failures).toEqual([]);
    expect(scoped.filter((r) => r.url.includes(':')).length).toBeGreaterThanOrEqual(15);
  });

  it("an automation's callbacks take a key with automations:report, for executions its user can see", async () => {
    const mine = await createTestClient(app, 'Report Co');
    const theirs = await createTestClient(app, 'Other Co');
    const automationFor = async (clientId: string) =>
      expectJson<{ automation: { id: string } }>(
        await admin.client.post('/api/v1/automations', { name: 'Report', workflow_id: 'wf', workflow_url: 'https://hooks.example.com/x', client_id: clientId }),
        201,
      ).automation.id;
    const execution = async (automationId: string) =>
      (
        await app.database.db
          .insertInto('automationExecutions')
          .values({ automationId, status: 'running', startedAt: new Date(), callbackTokenHash: 'a'.repeat(64) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const own = await execution(await automationFor(mine.id));
    const foreign = await execution(await automationFor(theirs.id));
    const user = await signedInClientUser(app, mine.id, 'Reporter');
    const { key } = await createKey(user.client, ['automations:report']);
    const step = { step_name: 'CRM', content: 'Lead saved', message_type: 'success' };
    expect((await withKey(key, 'POST', `/api/v1/automation-executions/${own}/messages`, step)).statusCode).toBe(201);
    expect(expectJson<{ status: string }>(await withKey(key, 'PATCH', `/api/v1/automation-executions/${own}`, { status: 'success' }), 200).status).toBe('success');
    expect((await withKey(key, 'POST', `/api/v1/automation-executions/${foreign}/messages`, step)).statusCode).toBe(404);
    const readOnly = (await createKey(user.client, ['automations:read'])).key;
    expect((await withKey(readOnly, 'POST', `/api/v1/automation-executions/${own}/messages`, step)).statusCode).toBe(403);
    // Any other Bearer credential is still the execution's callback token, checked by the route.
    const token = await app.inject({ method: 'POST', url: `/api/v1/automation-executions/${own}/messages`, headers: { authorization: 'Bearer not-a-key' }, payload: step });
    expect(token.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid or expired callback token' } });
  });

  it('a revoked key answers 401 on the very next request; only its owner can revoke it', async () => {
    const { key, apiKey } = await createKey(admin.client, ['clients:read']);
    expect((await withKey(key, 'GET', '/api/v1/clients')).statusCode).toBe(200);
    const other = await signedInClient(app, 'manager');
    expect((await other.client.delete(`/api/v1/me/api-keys/${apiKey.id}`)).statusCode).toBe(404);
    expect((await admin.client.delete(`/api/v1/admin/api-keys/${apiKey.id}`)).statusCode).toBe(404); // not a service key
    expect((await admin.client.delete(`/api/v1/me/api-keys/${apiKey.id}`)).statusCode).toBe(204);
    const after = await withKey(key, 'GET', '/api/v1/clients');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'This API key has been revoked' } });
    expect((await admin.client.get('/api/v1/me/api-keys')).body).not.toContain(apiKey.id);
    expect((await admin.client.delete(`/api/v1/me/api-keys/${apiKey.id}`)).statusCode).toBe(404);
    const revoked = await app.database.db.selectFrom('securityEvents').select('details').where('type', '=', 'api_keys.revoked').execute();
    expect(revoked.some((e) => e.details.apiKeyId === apiKey.id)).toBe(true);
  });

  it('expired keys, unknown keys, deactivated accounts and malformed headers answer 401', async () => {
    const past = await admin.client.post('/api/v1/me/api-keys', { name: 'old', scopes: ['clients:read'], expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ error: { fields: { expiresAt: 'The expiry must be in the future' } } });

    const { key, apiKey } = await createKey(admin.client, ['clients:read'], { expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await withKey(key, 'GET', '/api/v1/clients')).statusCode).toBe(200);
    await app.database.db.updateTable('apiKeys').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', apiKey.id).execute();
    expect((await withKey(key, 'GET', '/api/v1/clients')).json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'This API key has expired' } });

    const wrongSecret = `${key.slice(0, -4)}AAAA` === key ? `${key.slice(0, -4)}BBBB` : `${key.slice(0, -4)}AAAA`;
    for (const bad of [wrongSecret, 'pk_live_000000000000_' + 'A'.repeat(43), 'nonsense']) {
      const response = await withKey(bad, 'GET', '/api/v1/clients');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid API key' } });
    }
    const basic = await app.inject({ method: 'GET', url: '/api/v1/clients', headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.statusCode).toBe(401);

    const manager = await signedInClient(app, 'manager');
    const managerKey = (await createKey(manager.client, ['clients:read'])).key;
    expect((await withKey(managerKey, 'GET', '/api/v1/clients')).statusCode).toBe(200);
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', manager.userId).execute();
    expect((await withKey(managerKey, 'GET', '/api/v1/clients')).json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'The account this API key belongs to is deactivated' },
    });

    // Public routes leave the header alone (the widget's visitor token travels in it).
    expect((await withKey('nonsense', 'GET', '/api/v1/auth/session')).statusCode).toBe(200);
  });

  it('needs no CSRF token with a key, uses the key when a session cookie comes too, and still needs it for sessions alone', async () => {
    const chosen = await createTestClient(app, 'Csrf Co');
    const conversation = await app.services.messaging.recordInbound(await createTestChannel(app, { clientId: chosen.id, kind: 'webchat' }), customerText('v_csrf', 'Hello?'));
    const url = `/api/v1/conversations/${conversation.conversationId}/messages`;
    const { key } = await createKey(admin.client, ['messages:send']);
    expect((await withKey(key, 'POST', url, { text: 'From the CRM' })).statusCode).toBe(201);

    const bothNoCsrf = await admin.client.request({ method: 'POST', url, body: { text: 'Key and cookie' }, headers: { authorization: `Bearer ${key}` }, withoutCsrf: true });
    expect(bothNoCsrf.statusCode).toBe(201);
    const sessionNoCsrf = await admin.client.request({ method: 'POST', url, body: { text: 'Cookie only' }, withoutCsrf: true });
    expect(sessionNoCsrf.statusCode).toBe(403);
    expect(sessionNoCsrf.json()).toMatchObject({ error: { code: 'CSRF_FAILED' } });
    // With both, the key decides: a key lacking the scope is refused even though the session could.
    const readOnly = (await createKey(admin.client, ['conversations:read'])).key;
    const refused = await admin.client.request({ method: 'POST', url, body: { text: 'x' }, headers: { authorization: `Bearer ${readOnly}` } });
    expect(refused.statusCode).toBe(403);
  });

  it(`rate limits each key (${RATE_LIMIT} a minute here): then 429 with Retry-After, other keys unaffected`, async () => {
    const { key } = await createKey(admin.client, ['clients:read']);
    const other = (await createKey(admin.client, ['clients:read'])).key;
    for (let i = 0; i < RATE_LIMIT; i++) {
      const response = await withKey(key, 'GET', '/api/v1/me');
      if (response.statusCode !== 200) throw new Error(`request ${i + 1}: ${response.statusCode}`);
    }
    const limited = await withKey(key, 'GET', '/api/v1/me');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect((await withKey(other, 'GET', '/api/v1/me')).statusCode).toBe(200);
  });

  it('service-account keys: admins list, create and revoke them apart from personal keys', async () => {
    const created = await createKey(admin.client, ['webhooks:manage', 'conversations:read'], {}, '/api/v1/admin/api-keys');
    expect(created.apiKey).toMatchObject({ service: true, owner: { id: admin.userId } });
    const service = (await admin.client.get('/api/v1/admin/api-keys')).json<{ apiKeys: ApiKeyView[] }>().apiKeys;
    expect(service.map((k) => k.id)).toContain(created.apiKey.id);
    expect(service.every((k) => k.service)).toBe(true);
    expect((await admin.client.get('/api/v1/me/api-keys')).json<{ apiKeys: ApiKeyView[] }>().apiKeys.some((k) => k.service)).toBe(false);
    expect((await withKey(created.key, 'GET', '/api/v1/conversations')).statusCode).toBe(200);
    const other = await signedInClient(app, 'admin');
    expect((await other.client.delete(`/api/v1/admin/api-keys/${created.apiKey.id}`)).statusCode).toBe(204);
    expect((await withKey(created.key, 'GET', '/api/v1/conversations')).statusCode).toBe(401);
  });

  it('the OpenAPI document has the bearer scheme, with each key route marked with its scope', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      info: { description: string };
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, { security?: Record<string, string[]>[]; description?: string }>>;
    }>();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).toContain('curl -H "Authorization: Bearer $PARLEY_API_KEY"');
    expect(doc.paths['/api/v1/conversations']!.get!.security).toEqual([{ apiKey: ['conversations:read'] }, { session: [] }]);
    expect(doc.paths['/api/v1/me']!.get!.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/v1/me/api-keys']!.post!.security).toBeUndefined();
  });

  it('never writes a key to the log', async () => {
    const { key } = await createKey(admin.client, ['clients:read']);
    await withKey(key, 'GET', '/api/v1/clients');
    await withKey(key, 'GET', '/api/v1/users');
    expect(log.length).toBeGreaterThan(0);
    expect(log.join('\n')).not.toContain(key.slice(8));
  });
});
