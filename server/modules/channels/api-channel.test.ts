import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { systemClock } from '../../lib/clock';
import { createGuardedHttp } from '../../lib/guarded-http';
import { createApiAdapter } from './adapters/api.adapter';
import { SendError } from './adapters/channel-adapter';

const SECRET = 'test-signing-secret';

/** Signs as the README tells a business to: HMAC-SHA256 of "<timestamp>.<raw body>". */
function sign(body: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-parley-timestamp': String(timestamp), 'x-parley-signature': `sha256=${signature}`, 'content-type': 'application/json' };
}

function verifies(received: { headers: Record<string, string | string[] | undefined>; body: Buffer }, secret = SECRET): boolean {
  const timestamp = received.headers['x-parley-timestamp'];
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${String(timestamp)}.`), received.body])).digest('hex');
  return received.headers['x-parley-signature'] === `sha256=${expected}`;
}

describe.each(ENGINES)('custom-platform (API) channel (%s)', (engine) => {
  let app: TestApp;
  let callback: CallbackServer;
  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    callback = await startCallbackServer();
  });
  afterAll(async () => {
    await callback.close();
    await app.destroy();
  });

  async function apiChannel(callbackUrl = callback.url) {
    const client = await createTestClient(app);
    return createTestChannel(app, { clientId: client.id, kind: 'api', callbackUrl });
  }

  const post = (channelId: string, body: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/api/v1/channels/${channelId}/messages`, payload: body, headers });

  describe('inbound', () => {
    it('accepts a message signed over its raw bytes, emoji and accents included', async () => {
      const channel = await apiChannel();
      const body = JSON.stringify({ contact: { id: 'cust-42', name: 'Zoë Ødegård' }, message: { id: 'msg-1', text: 'Olá! Où est ma commande? 📦' } });
      const response = await post(channel.id, body, sign(body));
      expect(response.statusCode, response.body).toBe(201);
      const accepted = response.json();
      expect(accepted).toMatchObject({ created: true });
      const stored = await app.database.db.selectFrom('messages').selectAll().where('id', '=', accepted.messageId).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ content: 'Olá! Où est ma commande? 📦', externalMessageId: 'msg-1', conversationId: accepted.conversationId, direction: 'inbound' });
      const contact = await app.database.db.selectFrom('contacts').selectAll().where('channelId', '=', channel.id).executeTakeFirstOrThrow();
      expect(contact).toMatchObject({ externalId: 'cust-42', name: 'Zoë Ødegård' });
      const raw = await app.database.db.selectFrom('inboundEvents').selectAll().where('provider', '=', 'api').execute();
      expect(raw.filter((r) => r.channelIds.includes(channel.id)).map((r) => r.body)).toEqual([body]);
    });

    it('refuses a wrong secret, a stale or future timestamp, a re-serialised body, missing headers and unknown channels alike', async () => {
      const channel = await apiChannel();
      const disabled = await apiChannel();
      await app.database.db.updateTable('channels').set({ status: 'disabled' }).where('id', '=', disabled.id).execute();
      const webchat = await createTestChannel(app, { clientId: channel.clientId, kind: 'webchat' });
      const value = { contact: { id: 'c1' }, message: { id: 'm1', text: 'hello' } };
      const body = JSON.stringify(value);
      const now = Math.floor(Date.now() / 1000);
      const refused = [
        await post(channel.id, body, sign(body, 'another-secret')),
        await post(channel.id, body, sign(body, SECRET, now - 330)),
        await post(channel.id, body, sign(body, SECRET, now + 330)),
        // Same JSON value, different bytes than were signed.
        await post(channel.id, JSON.stringify(value, null, 2), sign(body)),
        await post(channel.id, body, { 'content-type': 'application/json' }),
        await post(channel.id, body, { ...sign(body), 'x-parley-signature': 'sha256=' }),
        await post(channel.id, body, { ...sign(body), 'x-parley-timestamp': 'yesterday' }),
        await post(disabled.id, body, sign(body)),
        await post(webchat.id, body, sign(body)),
        await post('00000000-0000-4000-8000-000000000000', body, sign(body)),
        await post('not-a-uuid', body, sign(body)),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 401));
      expect(new Set(refused.map((r) => r.body)).size).toBe(1);
      expect(await app.database.db.selectFrom('messages').select('id').where('channelId', '=', channel.id).execute()).toEqual([]);
      // Within the tolerance it is accepted.
      expect((await post(channel.id, body, sign(body, SECRET, now - 280))).statusCode).toBe(201);
    });

    it('validates a correctly signed body after the signature: 400, not 500', async () => {
      const channel = await apiChannel();
      for (const body of ['{"contact":', '{}', JSON.stringify({ contact: { id: '' }, message: { id: 'x', text: 'y' } }), JSON.stringify({ contact: { id: 'c' }, message: { id: 'x', text: '   ' } })]) {
        const response = await post(channel.id, body, sign(body));
        expect(response.statusCode, body).toBe(400);
      }
    });

    it('stores a repeated message.id once, also when the repeats arrive together', async () => {
      const channel = await apiChannel();
      const body = JSON.stringify({ contact: { id: 'c1' }, message: { id: 'same-id', text: 'only once' } });
      const first = await post(channel.id, body, sign(body));
      expect(first.statusCode).toBe(201);
      const again = await post(channel.id, body, sign(body));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ...first.json(), created: false });

      const concurrentBody = JSON.stringify({ contact: { id: 'c2' }, message: { id: 'burst', text: 'at once' } });
      const burst = await Promise.all(Array.from({ length: 20 }, () => post(channel.id, concurrentBody, sign(concurrentBody))));
      expect(burst.map((r) => r.statusCode).sort()).toEqual([...Array<number>(19).fill(200), 201]);
      expect(new Set(burst.map((r) => r.json<{ messageId: string }>().messageId)).size).toBe(1);
      const stored = await app.database.db.selectFrom('messages').select('externalMessageId').where('channelId', '=', channel.id).execute();
      expect(stored.map((m) => m.externalMessageId).sort()).toEqual(['burst', 'same-id']);
    });
  });

  describe('outbound', () => {
    async function conversationOn(channelId: string, contactId = 'cust-1') {
      const channel = await app.services.channelsRepository.getById(channelId);
      return app.services.messaging.recordInbound(channel, { contact: { externalId: contactId }, message: { externalId: `in-${Math.random()}`, type: 'text', text: 'hi' } });
    }
    const deliveriesOf = (messageId: string) =>
      app.database.db.selectFrom('channelDeliveries').selectAll().where('messageId', '=', messageId).orderBy('attempt').execute();
    const messageRow = (id: string) => app.database.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('POSTs a reply to the callback URL, signed, and logs the attempt', async () => {
      callback.received.length = 0;
      callback.script({ status: 200, body: '{"received":true}' });
      const channel = await apiChannel();
      const { conversationId } = await conversationOn(channel.id, 'cust-7');
      const reply = await app.services.messaging.sendMessage(conversationId, { text: 'Bonjour 👋', senderType: 'agent', senderId: null }, { kind: 'system' });
      await app.queue.waitForIdle();

      expect(callback.received).toHaveLength(1);
      const request = callback.received[0]!;
      expect(verifies(request)).toBe(true);
      expect(Math.abs(Number(request.headers['x-parley-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(JSON.parse(request.body.toString('utf8'))).toEqual({
        event: 'message.created',
        channelId: channel.id,
        conversationId,
        contact: { id: 'cust-7' },
        message: { id: reply.id, text: 'Bonjour 👋', senderType: 'agent', createdAt: reply.createdAt.toISOString() },
      });
      expect((await messageRow(reply.id)).status).toBe('sent');
      const [delivery, ...rest] = await deliveriesOf(reply.id);
      expect(rest).toEqual([]);
      expect(delivery).toMatchObject({ channelId: channel.id, attempt: 1, url: callback.url, statusCode: 200, responseBody: '{"received":true}', error: null });
      expect(delivery!.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('retries after a 500 and delivers once the callback answers 200, logging both attempts', async () => {
      callback.received.length = 0;
      callback.script({ status: 500, body: 'database down' }, { status: 204 });
      const channel = await apiChannel();
      const { conversationId } = await conversationOn(channel.id);
      const reply = await app.services.messaging.sendMessage(conversationId, { text: 'retry me', senderType: 'ai', senderId: null }, { kind: 'ai' });
      await app.queue.waitForIdle();
      const waiting = await messageRow(reply.id);
      expect(waiting).toMatchObject({ status: 'queued', errorCode: 'http_500', attempts: 1 });
      expect(waiting.errorMessage).toContain('database down');

      // The backoff would wait seconds: run the retry now.
      await app.database.db.updateTable('jobs').set({ runAt: new Date() }).where('name', '=', 'channels.send-message').where('status', '=', 'queued').execute();
      await app.queue.waitForIdle();
      expect(await messageRow(reply.id)).toMatchObject({ status: 'sent', attempts: 2, errorCode: null });
      expect(callback.received).toHaveLength(2);
      expect(callback.received.every((r) => verifies(r))).toBe(true);
      expect(callback.received[0]!.body.equals(callback.received[1]!.body)).toBe(true);
      const deliveries = await deliveriesOf(reply.id);
      expect(deliveries.map((d) => [d.attempt, d.statusCode, d.responseBody])).toEqual([
        [1, 500, 'database down'],
        [2, 204, ''],
      ]);
    });

    it('fails a message at once when the callback answers 400', async () => {
      callback.received.length = 0;
      callback.script({ status: 400, body: '{"error":"unknown contact"}' });
      const channel = await apiChannel();
      const { conversationId } = await conversationOn(channel.id);
      const reply = await app.services.messaging.sendMessage(conversationId, { text: 'nope', senderType: 'agent', senderId: null }, { kind: 'system' });
      await app.queue.waitForIdle();
      const failed = await messageRow(reply.id);
      expect(failed).toMatchObject({ status: 'failed', errorCode: 'http_400', attempts: 1 });
      expect(failed.errorMessage).toBe('The callback URL answered HTTP 400: {"error":"unknown contact"}');
      expect(callback.received).toHaveLength(1);
      expect((await deliveriesOf(reply.id)).map((d) => d.statusCode)).toEqual([400]);
      const job = await app.database.db.selectFrom('jobs').selectAll().where('name', '=', 'channels.send-message').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(job.status).toBe('failed');
    });

    it('treats a timeout and an unreachable URL as retryable, and tests the credentials with a signed ping', async () => {
      const http = createGuardedHttp({ allowlist: app.config.outboundAllowlist });
      const adapter = createApiAdapter({ deliveries: app.services.channelDeliveries, clock: systemClock, logger: pino({ level: 'silent' }), http, timeoutMs: 150 });
      const channel = await app.services.channelsRepository.getWithSecrets((await apiChannel()).id);
      const { messageId, conversationId } = await conversationOn(channel.id);
      const message = { messageId, conversationId, to: 'c', text: 't', senderType: 'agent' as const, createdAt: new Date() };
      const signal = new AbortController().signal;

      callback.script('hang');
      const timedOut = await adapter.sendText(channel, message, signal).catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(SendError);
      expect(timedOut).toMatchObject({ retryable: true, code: 'timeout' });

      const closed = await startCallbackServer();
      await closed.close();
      const unreachable = { ...channel, callbackUrl: closed.url };
      const refused = await adapter.sendText(unreachable, message, signal).catch((e: unknown) => e);
      expect(refused).toMatchObject({ retryable: true, code: 'network' });

      callback.script({ status: 429, headers: { 'retry-after': '7' } });
      const limited = await adapter.sendText(channel, message, signal).catch((e: unknown) => e);
      expect(limited).toMatchObject({ retryable: true, code: 'http_429', options: { retryAfterMs: 7000 } });

      callback.received.length = 0;
      callback.script({ status: 200 });
      expect(await adapter.testCredentials(channel, signal)).toMatchObject({ ok: true });
      expect(verifies(callback.received[0]!)).toBe(true);
      expect(JSON.parse(callback.received[0]!.body.toString('utf8'))).toEqual({ event: 'ping', channelId: channel.id });
      callback.script({ status: 401, body: 'bad signature' });
      expect(await adapter.testCredentials(channel, signal)).toEqual({ ok: false, message: 'The callback URL answered HTTP 401: bad signature' });

      const log = await app.services.channelDeliveries.findChannelDeliveries(channel.id);
      expect(log.map((d) => [d.attempt, d.statusCode])).toEqual([
        [1, 401],
        [1, 200],
        [3, 429],
        [2, null],
        [1, null],
      ]);
      expect(log.at(-1)?.error).toBe('The callback URL did not answer in time');
      const unreachableLog = await app.database.db.selectFrom('channelDeliveries').selectAll().where('url', '=', unreachable.callbackUrl).execute();
      expect(unreachableLog).toMatchObject([{ attempt: 2, statusCode: null }]);
      expect(unreachableLog[0]!.error).toMatch(/^Could not reach the callback URL \(ECONNREFUSED\)/u);
      await http.close();
    });

    it('does not follow a redirect from the callback URL: the 3xx is the answer', async () => {
      const elsewhere = await startCallbackServer();
      callback.received.length = 0;
      callback.script({ status: 307, headers: { location: elsewhere.url } });
      const channel = await apiChannel();
      const { conversationId } = await conversationOn(channel.id);
      const reply = await app.services.messaging.sendMessage(conversationId, { text: 'stay here', senderType: 'agent', senderId: null }, { kind: 'system' });
      await app.queue.waitForIdle();
      expect(await messageRow(reply.id)).toMatchObject({ status: 'failed', errorCode: 'http_307' });
      expect(callback.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
      await elsewhere.close();
    });
  });
});

// Every notation of this machine the audit got through, and the metadata service.
const REFUSED_HOSTS = ['127.0.0.1', '[::1]', '0x7f000001', '2130706433', '127.1', '0.0.0.0', 'localhost', '[::ffff:127.0.0.1]', '169.254.169.254', '[fd00:ec2::254]', '10.0.0.8'];

describe.each(ENGINES)('API channel callback URLs cannot reach this server or its networks (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let internal: CallbackServer;
  beforeAll(async () => {
    // The default configuration: nothing private allowed.
    app = await createTestApp(engine);
    ({ client: admin } = await signedInClient(app, 'admin'));
    internal = await startCallbackServer();
    internal.script({ status: 200, body: 'internal admin page' });
  });
  afterAll(async () => {
    await internal.close();
    await app.destroy();
  });

  const port = () => new URL(internal.url).port;
  const apiChannel = async (callbackUrl = 'https://crm.example/parley') => {
    const client = await createTestClient(app);
    const response = await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, name: 'CRM', callbackUrl });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>();
  };

  it.each(REFUSED_HOSTS)('refuses to save a callback URL on %s (400 with a field message), created or changed', async (host) => {
    const client = await createTestClient(app);
    // Parley's own port too: it is this server.
    for (const url of [`http://${host}/hook`, `http://${host}:${app.config.port}/api/v1/me`, `https://${host}:${port()}/x`]) {
      const created = await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, name: 'CRM', callbackUrl: url });
      expect(created.statusCode, url).toBe(400);
      expect(created.json().error.fields.callbackUrl).toMatch(/^Refused: the address resolves to .+\. Enter a public address, or ask the operator to allow this host in OUTBOUND_ALLOWED_HOSTS\.$/u);
    }
    const channel = await apiChannel();
    const changed = await admin.patch(`/api/v1/channels/${channel.id}`, { callbackUrl: `http://${host}:${port()}/hook` });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error.fields.callbackUrl).toMatch(/^Refused/u);
    const stored = await app.database.db.selectFrom('channels').select('callbackUrl').where('clientId', '=', client.id).execute();
    expect(stored).toEqual([]);
    expect((await app.database.db.selectFrom('channels').select('callbackUrl').where('id', '=', channel.id).executeTakeFirstOrThrow()).callbackUrl).toBe('https://crm.example/parley');
  });

  it.each(REFUSED_HOSTS)('refuses to connect to %s when such a URL is already stored: Test shows the reason, never the body', async (host) => {
    const channel = await apiChannel();
    // Saved before this check existed (or written behind the service's back): the connection is the real guard.
    const url = `http://${host}:${port()}/parley/callback`;
    await app.database.db.updateTable('channels').set({ callbackUrl: url }).where('id', '=', channel.id).execute();
    internal.received.length = 0;
    const result = expectJsonBody(await admin.post(`/api/v1/channels/${channel.id}/test`, {}));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^Refused: the address resolves to (the loopback network|the unspecified address|the cloud metadata service|a private network) \(/u);
    expect(result.message).not.toContain('internal admin page');
    expect(internal.received).toEqual([]);
    const [logged] = await app.services.channelDeliveries.findChannelDeliveries(channel.id);
    expect(logged).toMatchObject({ url, statusCode: null, responseBody: null, error: result.message });
  });

  it('fails a reply at once when the callback name resolves to this machine, with the reason in the thread and the delivery log', async () => {
    const channel = await apiChannel();
    // `localhost` is refused when saved; a name that resolves to loopback is only caught when connecting.
    const url = `http://localhost:${port()}/parley/callback`;
    await app.database.db.updateTable('channels').set({ callbackUrl: url }).where('id', '=', channel.id).execute();
    internal.received.length = 0;
    const stored = await app.services.channelsRepository.getById(channel.id);
    const { conversationId } = await app.services.messaging.recordInbound(stored, { contact: { externalId: 'c1' }, message: { externalId: 'in-1', type: 'text', text: 'hi' } });
    const reply = await app.services.messaging.sendMessage(conversationId, { text: 'to the intranet?', senderType: 'agent', senderId: null }, { kind: 'system' });
    await app.queue.waitForIdle();
    const message = await app.database.db.selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
    expect(message).toMatchObject({ status: 'failed', errorCode: 'refused', attempts: 1 });
    expect(message.errorMessage).toMatch(/^Refused: the address resolves to the loopback network \((127\.0\.0\.1|::1)\)$/u);
    const deliveries = await app.database.db.selectFrom('channelDeliveries').selectAll().where('messageId', '=', reply.id).execute();
    expect(deliveries).toMatchObject([{ statusCode: null, responseBody: null, error: message.errorMessage }]);
    expect(internal.received).toEqual([]);
  });
});

function expectJsonBody(response: { statusCode: number; body: string }): { ok: boolean; message: string } {
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as { ok: boolean; message: string };
}
