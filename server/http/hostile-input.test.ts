/**
 * The hostile inputs of issue 10 (item 6), one test each: a lone surrogate in every path a
 * message comes in by is stored as U+FFFD (never a 500, never lost); `%00` in a query string or a
 * path parameter is a 400; JSON nested thousands of levels deep is a 400, not a stack overflow.
 * The fuzz suite (malformed-bodies.test.ts) covers the same ground at random on every route.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../test/helpers/messaging';
import { createMetaChannel, postDelivery, whatsappDelivery } from '../../test/helpers/meta-webhooks';
import { concreteUrl } from '../../test/helpers/routes';
import { MAX_JSON_DEPTH } from './json-body';

/** JSON text (not a JS string) holding the escape of a lone high surrogate, as an attacker sends it. */
const LONE = 'Hi \\ud800 there \\udc00!';
const STORED = 'Hi \uFFFD there \uFFFD!';

/** `depth` nested arrays around a string carrying U+0000: the body that overflowed the NUL check. */
const deepJson = (depth: number, inner = '"\\u0000"') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

type OpenApi = { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };

describe.each(ENGINES)('hostile input (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: true });
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;
  const contentOf = async (id: string) => (await db().selectFrom('messages').select('content').where('id', '=', id).executeTakeFirstOrThrow()).content;

  describe('a lone surrogate is stored as U+FFFD', () => {
    it('in a widget message', async () => {
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      const widget = `/api/v1/widget/${channel.externalId}`;
      const visitor = expectJson<{ visitorToken: string }>(
        await app.inject({ method: 'POST', url: `${widget}/visitors`, headers: { 'content-type': 'application/json' }, payload: '{"name":"Vis\\udfff"}' }),
        201,
      );
      const response = await app.inject({
        method: 'POST',
        url: `${widget}/messages`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${visitor.visitorToken}` },
        payload: `{"text":"${LONE}","clientMessageId":"lone-\\ud800-surrogate"}`,
      });
      const message = expectJson<{ id: string; text: string }>(response, 201);
      expect(message.text).toBe(STORED);
      expect(await contentOf(message.id)).toBe(STORED);
      const contact = await db().selectFrom('contacts').select('name').where('channelId', '=', channel.id).executeTakeFirstOrThrow();
      expect(contact.name).toBe('Vis\uFFFD');
    });

    it('in an API-channel message (signed over the raw bytes, escape and all)', async () => {
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'api' });
      const body = `{"contact":{"id":"cust-\\ud83d","name":"Zo\\udc4b"},"message":{"id":"m-\\udbff","text":"${LONE}"}}`;
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', 'test-signing-secret').update(`${timestamp}.${body}`).digest('hex');
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/channels/${channel.id}/messages`,
        headers: { 'content-type': 'application/json', 'x-parley-timestamp': String(timestamp), 'x-parley-signature': `sha256=${signature}` },
        payload: body,
      });
      const accepted = expectJson<{ messageId: string }>(response, 201);
      expect(await contentOf(accepted.messageId)).toBe(STORED);
      const contact = await db().selectFrom('contacts').select(['externalId', 'name']).where('channelId', '=', channel.id).executeTakeFirstOrThrow();
      expect(contact).toEqual({ externalId: 'cust-\uFFFD', name: 'Zo\uFFFD' });
    });

    it('in a portal reply and in a response from the messages view', async () => {
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      const { client: user } = await signedInClientUser(app, client.id);
      const question = await app.services.messaging.recordInbound(channel, customerText('Eve', 'Do you open on Saturday?'));
      const send = (url: string) => user.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: `{"text":"${LONE}"}` });

      const reply = expectJson<{ id: string; content: string }>(await send(`/api/v1/conversations/${question.conversationId}/messages`), 201);
      expect(reply.content).toBe(STORED);
      expect(await contentOf(reply.id)).toBe(STORED);
      const response = expectJson<{ id: string; content: string }>(await send(`/api/v1/messages/${question.messageId}/respond`), 201);
      expect(response.content).toBe(STORED);
      expect(await contentOf(response.id)).toBe(STORED);
    });

    it('in a Meta delivery, without failing its group commit or losing the others of the batch', async () => {
      const channel = await createMetaChannel(app, 'whatsapp', '555000999');
      const delivery = (id: string, text: string) =>
        JSON.stringify(
          whatsappDelivery(channel.externalId, {
            contacts: [{ profile: { name: 'Ana' }, wa_id: '34600999000' }],
            messages: [{ from: '34600999000', id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
          }),
        );
      // JSON.stringify writes a lone surrogate as its escape, as a hostile sender would.
      const bodies = [
        delivery('wamid.plain-1', 'plain one'),
        delivery('wamid.lone', 'Hi \ud800 there \udc00!'),
        // Deep nesting with U+0000 inside, in a part of the delivery no schema reads.
        delivery('wamid.plain-2', 'plain two').replace('"field":"messages"', `"field":"messages","extra":${deepJson(5000)}`),
      ];
      expect(bodies[1]).toContain('\\ud800');
      // Sent together: read in the same turn, stored by one group commit.
      const answers = await Promise.all(bodies.map((body) => postDelivery(app, 'whatsapp', body)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      await app.queue.waitForIdle();
      const messages = await db().selectFrom('messages').select(['externalMessageId', 'content']).where('channelId', '=', channel.id).orderBy('externalMessageId').execute();
      expect(messages).toEqual([
        { externalMessageId: 'wamid.lone', content: STORED },
        { externalMessageId: 'wamid.plain-1', content: 'plain one' },
        { externalMessageId: 'wamid.plain-2', content: 'plain two' },
      ]);
      const events = await db()
        .selectFrom('inboundEvents')
        .select(['error', 'processedAt'])
        .where((eb) => eb(eb.val(channel.id), '=', eb.fn.any('channelIds')))
        .execute();
      expect(events).toHaveLength(3);
      expect(events.every((e) => e.error === null && e.processedAt !== null)).toBe(true);
    });
  });

  describe('JSON inside JSON: a knowledge file', () => {
    it('stores a lone surrogate as U+FFFD and refuses U+0000 with a 400 naming the entry', async () => {
      const client = await createTestClient(app);
      const url = `/api/v1/clients/${client.id}/knowledge/import`;
      const imported = await admin.post(url, { format: 'json', mode: 'replace', content: '[{"questions":["Open \\ud800 today?"],"answer":"Yes \\udc00"}]' });
      expect(imported.statusCode, imported.body).toBe(200);
      const entries = await db().selectFrom('knowledgeEntries').select(['questions', 'answer']).where('clientId', '=', client.id).execute();
      expect(entries).toEqual([{ questions: ['Open \uFFFD today?'], answer: 'Yes \uFFFD' }]);

      const refused = await admin.post(url, { format: 'json', mode: 'replace', content: '[{"questions":["a"],"answer":"b"},{"questions":["x\\u0000"],"answer":"y"}]' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { content: expect.stringMatching(/NUL.*\(entry 2\)/u) } } });
      const deep = await admin.post(url, { format: 'json', mode: 'replace', content: deepJson(5000) });
      expect(deep.statusCode).toBe(400);
    });
  });

  describe('NUL in the URL', () => {
    /** GET routes whose query schema has a `search` parameter, from the OpenAPI document. */
    function searchRoutes(): string[] {
      const doc = app.server.swagger() as unknown as OpenApi;
      return Object.entries(doc.paths).flatMap(([path, operations]) =>
        operations.get?.parameters?.some((p) => p.in === 'query' && p.name === 'search') ? [path.replace(/\{([^}]+)\}/gu, ':$1')] : [],
      );
    }

    it('?search=%00 is a 400 naming the parameter on every list route', async () => {
      const routes = searchRoutes();
      expect(routes.length).toBeGreaterThanOrEqual(6);
      const failures: string[] = [];
      for (const route of routes) {
        for (const query of ['search=%00', 'search=brakes%00', 'search=a&search=%00']) {
          const response = await admin.get(`${concreteUrl(route)}?${query}`);
          const body = response.json<{ error?: { code?: string; fields?: Record<string, string> } }>();
          if (response.statusCode !== 400 || body.error?.code !== 'VALIDATION_ERROR' || !body.error.fields?.search?.includes('NUL')) {
            failures.push(`${route}?${query}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('NUL in any query parameter, in a parameter name and in a path parameter is a 400', async () => {
      for (const url of ['/api/v1/users?role=%00', '/api/v1/conversations?tab=all&x%00=1', '/api/v1/messages/export.csv?cursor=%00', '/api/v1/notifications?limit=%00']) {
        const response = await admin.get(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('NUL') } });
      }
      const anonymous = app.client();
      for (const [method, url] of [
        ['GET', '/api/v1/widget/%00'],
        ['GET', '/api/v1/widget/w%00x/messages'],
        ['POST', '/api/v1/channels/%00/messages'],
        ['GET', '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=%00&hub.challenge=1'],
      ] as const) {
        const response = await anonymous.request({ method, url, body: method === 'POST' ? {} : undefined });
        expect(response.statusCode, url).toBe(400);
      }
      for (const url of ['/api/v1/conversations/%00', '/api/v1/clients/%00', '/api/v1/users/%00']) {
        const response = await admin.get(url);
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
      }
    });
  });

  describe('hostile headers', () => {
    it('a garbage session cookie, CSRF token, visitor token, Authorization or signature is a 4xx, never a 5xx', async () => {
      const client = await createTestClient(app);
      const widget = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      const api = await createTestChannel(app, { clientId: client.id, kind: 'api' });
      await createMetaChannel(app, 'messenger', 'page-hostile-headers');
      const long = 'x'.repeat(20_000);
      const values = ['%00', '\u0000', 'a\u0000b', '\\u0000', '\xc0\x80', '\xff', long, '', ' ', '=;=;', 'Bearer', 'Bearer %00.%00', `Bearer ${long}`, 'sha256=', `sha256=${'g'.repeat(64)}`, `sha256=${'0'.repeat(64)}`];
      const headerSets = (value: string): Record<string, string>[] => [
        { cookie: `parley.session_token=${value}` },
        { cookie: `parley.session_token=${encodeURIComponent(value)}.${encodeURIComponent(value)}` },
        { cookie: `parley_csrf=${value}`, 'x-csrf-token': value },
        { 'x-csrf-token': value },
        { authorization: value },
        { authorization: `Bearer ${value}` },
        { 'x-hub-signature-256': value },
        { 'x-parley-signature': value, 'x-parley-timestamp': value },
        { 'x-parley-timestamp': value, 'x-parley-signature': `sha256=${'0'.repeat(64)}` },
        { 'x-parley-control-token': value },
        { 'content-type': `application/json; charset=${value}` },
        { origin: value, referer: value },
      ];
      const routes: [string, string, string | undefined][] = [
        ['GET', '/api/v1/conversations', undefined],
        ['GET', '/api/v1/auth/session', undefined],
        ['POST', '/api/v1/auth/sign-in', '{"email":"a@b.co","password":"x"}'],
        ['GET', `/api/v1/widget/${widget.externalId}/messages`, undefined],
        ['POST', `/api/v1/widget/${widget.externalId}/messages`, '{"text":"hi","clientMessageId":"hostile-header-1"}'],
        ['POST', `/api/v1/channels/${api.id}/messages`, '{"contact":{"id":"c"},"message":{"id":"m","text":"hi"}}'],
        ['POST', '/webhooks/messenger', '{"object":"page","entry":[{"id":"page-hostile-headers","messaging":[]}]}'],
        ['POST', '/api/internal/cli', '{"command":"status","flags":{}}'],
      ];
      const failures: string[] = [];
      let ip = 0;
      for (const [method, url, body] of routes) {
        for (const value of values) {
          for (const headers of headerSets(value)) {
            ip += 1;
            const response = await app.inject({
              method,
              url,
              remoteAddress: `10.8.${Math.floor(ip / 250) % 250}.${ip % 250}`,
              headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
              ...(body ? { payload: body } : {}),
            });
            if (response.statusCode >= 500) failures.push(`${method} ${url} ${JSON.stringify(headers).slice(0, 120)}: ${response.statusCode} ${response.body.slice(0, 120)}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  });

  describe('deeply nested JSON', () => {
    it(`is a 400 past ${MAX_JSON_DEPTH} levels on the anonymous, widget, telemetry and API-channel routes, and fine below`, async () => {
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      const api = await createTestChannel(app, { clientId: client.id, kind: 'api' });
      const signed = (body: string) => {
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = createHmac('sha256', 'test-signing-secret').update(`${timestamp}.${body}`).digest('hex');
        return { 'x-parley-timestamp': String(timestamp), 'x-parley-signature': `sha256=${signature}` };
      };
      const routes: [string, string, (body: string) => Record<string, string>][] = [
        ['/api/v1/auth/sign-in', 'email', () => ({})],
        ['/api/v1/auth/reset-password/check', 'token', () => ({})],
        [`/api/v1/widget/${channel.externalId}/visitors`, 'name', () => ({})],
        ['/api/v1/telemetry/not-found', 'path', () => ({})],
        [`/api/v1/channels/${api.id}/messages`, 'contact', signed],
      ];
      for (const [url, field, headers] of routes) {
        for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
          for (const inner of ['"\\u0000"', '"\\ud800"', '1']) {
            const body = `{"${field}":${deepJson(depth, inner)}}`;
            const response = await app.client().request({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers(body) }, body });
            expect(response.statusCode, `${url} at depth ${depth}`).toBe(400);
            expect(response.json(), url).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('nested') } });
          }
        }
        // Below the limit the route answers as it does for any wrong value (a field error, not a depth one).
        const body = `{"${field}":${deepJson(MAX_JSON_DEPTH - 2, '"x"')}}`;
        const response = await app.client().request({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers(body) }, body });
        expect(response.statusCode, url).toBeLessThan(500);
        expect(response.body, url).not.toContain('nested');
      }
    });

    it('still names the field holding U+0000 at any depth below the limit', async () => {
      const nul = await app.client().request({
        method: 'POST',
        url: '/api/v1/auth/reset-password/check',
        headers: { 'content-type': 'application/json' },
        body: `{"token":"ok","x":{"y":${deepJson(MAX_JSON_DEPTH - 4)}}}`,
      });
      expect(nul.statusCode).toBe(400);
      expect(nul.json()).toMatchObject({ error: { fields: { [['x', 'y', ...Array<string>(MAX_JSON_DEPTH - 4).fill('0')].join('.')]: expect.stringContaining('NUL') } } });
    });
  });
});
