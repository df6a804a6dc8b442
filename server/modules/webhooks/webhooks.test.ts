/**
 * Meta webhooks end to end through HTTP: the handshake, signatures on raw bytes, every fixture
 * wrapped into a full signed delivery, batches, redeliveries, statuses, echoes, odd items.
 * Only the Graph API (for the replies whose statuses and echoes come back) is faked, on loopback.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import {
  createMetaChannel,
  fixture,
  FIXTURES_DIR,
  type MetaTestChannel,
  messagingDelivery,
  postDelivery,
  signature,
  whatsappDelivery,
} from '../../../test/helpers/meta-webhooks';

const SECRET = 'meta-app-secret-ü-1';

/** A Chatwoot fixture without the route parameter Rails merged in (README caveat 1). */
function withoutRouteParam<T extends Record<string, unknown>>(body: T): Omit<T, 'phone_number'> {
  const { phone_number: _ignored, ...rest } = body;
  return rest;
}

describe.each(ENGINES)('Meta webhooks (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url } });
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;
  const settle = () => app.queue.waitForIdle();
  const messagesOf = (channelId: string) => db().selectFrom('messages').selectAll().where('channelId', '=', channelId).orderBy('createdAt').orderBy('id').execute();
  /** Deliveries posted one after another may be processed by concurrent jobs: compare by id. */
  const byExternalId = <T extends { externalMessageId: string | null }>(rows: T[]) =>
    [...rows].sort((x, y) => ((x.externalMessageId ?? '') < (y.externalMessageId ?? '') ? -1 : 1));
  const eventsOf = (channelId: string) =>
    db().selectFrom('inboundEvents').selectAll().where((eb) => eb(eb.val(channelId), '=', eb.fn.any('channelIds'))).orderBy('id').execute();
  const countEvents = async () => (await db().selectFrom('inboundEvents').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  /** A customer message (so the 24-hour window is open) and a reply sent through the fake Graph API. */
  async function replyOnChannel(channel: MetaTestChannel, customer: string, text: string, graphAnswer?: { messageId: string }) {
    const stored = await db().selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    const { conversationId } = await app.services.messaging.recordInbound(stored, {
      contact: { externalId: customer, name: 'Customer' },
      message: { externalId: `in-${Math.random().toString(36).slice(2)}`, type: 'text', text: 'hello' },
    });
    if (graphAnswer) {
      const path = channel.kind === 'instagram' ? '/v21.0/me/messages' : `/v21.0/${channel.externalId}/messages`;
      const body =
        channel.kind === 'whatsapp' ? { messaging_product: 'whatsapp', messages: [{ id: graphAnswer.messageId }] } : { recipient_id: customer, message_id: graphAnswer.messageId };
      graph.script('POST', path, { status: 200, body });
    }
    const reply = await app.services.messaging.sendMessage(conversationId, { text, senderType: 'agent', senderId: null }, { kind: 'system' });
    await settle();
    return { conversationId, reply: await db().selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow() };
  }

  describe('handshake', () => {
    it("answers hub.challenge as plain text for an active channel's verify token, 403 otherwise", async () => {
      const channel = await createMetaChannel(app, 'whatsapp', '555000111', { verifyToken: 'the-verify-token' });
      const messenger = await createMetaChannel(app, 'messenger', 'page-handshake', { verifyToken: 'messenger-token' });
      const get = (kind: string, query: string) => app.inject({ method: 'GET', url: `/webhooks/${kind}?${query}` });

      const ok = await get('whatsapp', 'hub.mode=subscribe&hub.verify_token=the-verify-token&hub.challenge=1158201444');
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('1158201444');
      expect(ok.headers['content-type']).toMatch(/^text\/plain/u);

      for (const query of [
        'hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
        'hub.mode=subscribe&hub.challenge=1',
        'hub.mode=unsubscribe&hub.verify_token=the-verify-token&hub.challenge=1',
        'hub.verify_token=the-verify-token&hub.challenge=1',
        '',
      ]) {
        expect((await get('whatsapp', query)).statusCode, query).toBe(403);
      }
      // Another kind's token, on this kind's endpoint.
      expect((await get('whatsapp', 'hub.mode=subscribe&hub.verify_token=messenger-token&hub.challenge=1')).statusCode).toBe(403);
      expect((await get('messenger', 'hub.mode=subscribe&hub.verify_token=messenger-token&hub.challenge=7')).body).toBe('7');

      await db().updateTable('channels').set({ status: 'disabled' }).where('id', 'in', [channel.id, messenger.id]).execute();
      expect((await get('whatsapp', 'hub.mode=subscribe&hub.verify_token=the-verify-token&hub.challenge=1')).statusCode).toBe(403);
    });
  });

  describe('signatures', () => {
    it("accepts the exact bytes Meta signed — emoji, accents and Meta's \\u escapes — and stores the text decoded", async () => {
      const channel = await createMetaChannel(app, 'whatsapp', '555000222');
      const literal = `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"messaging_product":"whatsapp","metadata":{"phone_number_id":"555000222"},"contacts":[{"profile":{"name":"José Ñúñez"},"wa_id":"34600111222"}],"messages":[{"from":"34600111222","id":"wamid.literal","timestamp":"1749416383","type":"text","text":{"body":"Olá! Café ☕ crème brûlée 👋🏽"}}]}}]}]}`;
      // Meta escapes non-ASCII characters; the signature covers the escaped bytes.
      const escaped = literal.replace('wamid.literal', 'wamid.escaped').replace(/[\u0080-\u{10ffff}]/gu, (c) =>
        [...c].map((ch) => {
          const code = ch.codePointAt(0)!;
          const units = code > 0xffff ? [0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff)] : [code];
          return units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join('');
        }).join(''),
      );
      expect(escaped).not.toMatch(/[\u0080-\u{10ffff}]/u);

      expect((await postDelivery(app, 'whatsapp', Buffer.from(literal, 'utf8'))).statusCode).toBe(200);
      expect((await postDelivery(app, 'whatsapp', escaped)).statusCode).toBe(200);
      await settle();
      const messages = byExternalId(await messagesOf(channel.id));
      expect(messages.map((m) => [m.externalMessageId, m.content])).toEqual([
        ['wamid.escaped', 'Olá! Café ☕ crème brûlée 👋🏽'],
        ['wamid.literal', 'Olá! Café ☕ crème brûlée 👋🏽'],
      ]);
      const contact = await db().selectFrom('contacts').selectAll().where('channelId', '=', channel.id).executeTakeFirstOrThrow();
      expect(contact).toMatchObject({ externalId: '34600111222', name: 'José Ñúñez' });
    });

    it('refuses a missing, malformed or wrong signature — and re-serialised JSON — with 401, storing nothing', async () => {
      await createMetaChannel(app, 'whatsapp', '555000333');
      const raw = JSON.stringify(whatsappDelivery('555000333', fixture('whatsapp-text.json')));
      const good = signature(raw, SECRET);
      const before = await countEvents();
      const attempts: [string, Promise<{ statusCode: number }>][] = [
        ['no header', postDelivery(app, 'whatsapp', raw, { signature: null })],
        ['empty header', postDelivery(app, 'whatsapp', raw, { signature: '' })],
        ['sha1 scheme', postDelivery(app, 'whatsapp', raw, { signature: good.replace('sha256=', 'sha1=') })],
        ['bare hex', postDelivery(app, 'whatsapp', raw, { signature: good.slice('sha256='.length) })],
        ['truncated', postDelivery(app, 'whatsapp', raw, { signature: good.slice(0, -2) })],
        ['another secret', postDelivery(app, 'whatsapp', raw, { appSecret: 'some-other-secret' })],
        ['re-serialised with other whitespace', postDelivery(app, 'whatsapp', JSON.stringify(JSON.parse(raw), null, 2), { signature: good })],
        ['a changed character', postDelivery(app, 'whatsapp', raw.replace('Test', 'Tést'), { signature: good })],
        ['the right signature on another endpoint', postDelivery(app, 'messenger', raw, { signature: good })],
        ['a form body', postDelivery(app, 'whatsapp', 'a=1', { signature: good, contentType: 'application/x-www-form-urlencoded' })],
      ];
      for (const [what, response] of attempts) expect((await response).statusCode, what).toBe(401);
      expect(await countEvents()).toBe(before);

      const response = await postDelivery(app, 'whatsapp', raw, { signature: good.toUpperCase().replace('SHA256=', 'sha256=') });
      expect(response.statusCode).toBe(200);
      expect(await countEvents()).toBe(before + 1);
    });

    it('answers 400 to a correctly signed body that is not JSON, storing nothing', async () => {
      await createMetaChannel(app, 'messenger', 'page-not-json');
      const before = await countEvents();
      expect((await postDelivery(app, 'messenger', '{"object": "page", ')).statusCode).toBe(400);
      expect(await countEvents()).toBe(before);
    });

    it('acknowledges deliveries for unknown channels, for channels of another app and for another platform, storing nothing', async () => {
      await createMetaChannel(app, 'whatsapp', '555000444');
      await createMetaChannel(app, 'whatsapp', '555000445', { appSecret: 'second-app-secret' });
      const before = await countEvents();
      // No channel has this phone number id.
      expect((await postDelivery(app, 'whatsapp', whatsappDelivery('999999999', fixture('whatsapp-text.json')))).statusCode).toBe(200);
      // 555000445 exists, but belongs to another Meta app than the secret that signed this delivery.
      expect((await postDelivery(app, 'whatsapp', whatsappDelivery('555000445', fixture('whatsapp-text.json')))).statusCode).toBe(200);
      // A Messenger envelope sent to the WhatsApp endpoint.
      expect((await postDelivery(app, 'whatsapp', { object: 'page', entry: [{ id: '555000444', messaging: [] }] })).statusCode).toBe(200);
      // Chatwoot's image fixture has no metadata at all: nothing names the channel.
      expect((await postDelivery(app, 'whatsapp', withoutRouteParam(fixture('whatsapp-image.json')))).statusCode).toBe(200);
      expect(await countEvents()).toBe(before);
      // The second app's own delivery is accepted.
      const own = await postDelivery(app, 'whatsapp', whatsappDelivery('555000445', fixture('whatsapp-text.json')), { appSecret: 'second-app-secret' });
      expect(own.statusCode).toBe(200);
      expect(await countEvents()).toBe(before + 1);
    });

    it('answers deliveries before Fastify the way the documented route does: 200 text, errors as the API states them', async () => {
      await createMetaChannel(app, 'whatsapp', '555000777');
      const raw = JSON.stringify(whatsappDelivery('555000777', fixture('whatsapp-text.json')));
      const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signature(raw, SECRET) };
      const cases = [
        { what: 'signed', headers, body: raw },
        { what: 'unsigned', headers: { 'content-type': 'application/json' }, body: raw },
        { what: 'not JSON', headers: { ...headers, 'x-hub-signature-256': signature('{"x":', SECRET) }, body: '{"x":' },
      ];
      for (const c of cases) {
        // app.inject goes through the app's HTTP handler (the fast path); app.server.inject reaches the Fastify route.
        const fast = await app.inject({ method: 'POST', url: '/webhooks/whatsapp', headers: c.headers, payload: c.body });
        const routed = await app.server.inject({ method: 'POST', url: '/webhooks/whatsapp', headers: c.headers, payload: c.body });
        expect(fast.statusCode, c.what).toBe(routed.statusCode);
        expect(fast.body, c.what).toBe(routed.body);
        expect(fast.headers['content-type'], c.what).toBe(routed.headers['content-type']);
        expect(fast.headers['x-content-type-options'], c.what).toBe('nosniff');
      }
      // Fastify logs every request it handles; the deliveries above never reached it.
      const lines: { msg?: string; req?: { url?: string } }[] = [];
      const logged = await createTestApp(engine, {
        startJobs: false,
        database: app.database,
        logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) }),
      });
      try {
        await logged.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: raw });
        expect(lines.filter((l) => l.req?.url === '/webhooks/whatsapp')).toEqual([]);
        await logged.server.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: raw });
        expect(lines.filter((l) => l.req?.url === '/webhooks/whatsapp').map((l) => l.msg)).toContain('incoming request');
      } finally {
        await logged.close();
      }
      const unsigned = await app.inject({ method: 'POST', url: '/webhooks/whatsapp', headers: { 'content-type': 'application/json' }, payload: raw });
      expect(unsigned.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Missing or invalid X-Hub-Signature-256' } });
      expect((await app.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: raw })).body).toBe('EVENT_RECEIVED');
    });

    it('takes the URL with a query string or a trailing slash, leaves other methods and paths to the app, refuses a body over 3 MB', async () => {
      await createMetaChannel(app, 'messenger', 'page-fast-path');
      const before = await countEvents();
      for (const url of ['/webhooks/messenger?x=1', '/webhooks/messenger/']) {
        const raw = JSON.stringify(messagingDelivery('messenger', 'page-fast-path'));
        const response = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(raw, SECRET) }, payload: raw });
        expect(response.statusCode, url).toBe(200);
      }
      expect(await countEvents()).toBe(before + 2);
      // GET is the handshake (Fastify's route): 403 without a verify token, not the fast path's 401.
      expect((await app.inject({ method: 'GET', url: '/webhooks/messenger' })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: '/webhooks/telegram', payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode).toBe(404);
      const huge = `{"object":"page","pad":"${'x'.repeat(3 * 1024 * 1024)}"}`;
      const tooLarge = await app.inject({ method: 'POST', url: '/webhooks/messenger', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(huge, SECRET) }, payload: huge });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' } });
      expect(await countEvents()).toBe(before + 2);
    });

    it('accepts a channel created a moment ago, without waiting for the secrets cache', async () => {
      await createMetaChannel(app, 'instagram', 'ig-cache-1', { appSecret: 'first-secret' });
      expect((await postDelivery(app, 'instagram', messagingDelivery('instagram', 'ig-cache-1'), { appSecret: 'first-secret' })).statusCode).toBe(200);
      // Created behind the cache's back (another instance, say): no invalidate().
      const client = await db().selectFrom('clients').select('id').executeTakeFirstOrThrow();
      await db()
        .insertInto('channels')
        .values({
          clientId: client.id,
          kind: 'instagram',
          name: 'new',
          externalId: 'ig-cache-2',
          secrets: app.services.channelsRepository.sealSecrets({ accessToken: 't', appSecret: 'brand-new-secret', verifyToken: 'v' }),
          verifyTokenHash: 'x',
          appSecretHash: 'y',
        })
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await postDelivery(app, 'instagram', messagingDelivery('instagram', 'ig-cache-2'), { appSecret: 'brand-new-secret' })).statusCode).toBe(200);
    });
  });

  describe('WhatsApp fixtures', () => {
    it('records a text, an image, a reaction and an unsupported message; the Meta docs envelope as it is', async () => {
      const channel = await createMetaChannel(app, 'whatsapp', 'random_id');
      const docs = await createMetaChannel(app, 'whatsapp', '106540352242922');

      // Value-level fixtures sit at entry[0].changes[0].value of a real delivery.
      expect((await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', fixture('whatsapp-text.json')))).statusCode).toBe(200);
      expect((await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', fixture('whatsapp-unsupported.json')))).statusCode).toBe(200);
      // Envelope-form fixtures: without Chatwoot's route parameter; Chatwoot's specs leave out the
      // message id every real message has (and the reaction's target), so the wrapper adds them.
      const image = withoutRouteParam(fixture<{ entry: { changes: { value: { messages: Record<string, unknown>[] } }[] }[] }>('whatsapp-image.json'));
      const imageValue = image.entry[0]!.changes[0]!.value;
      imageValue.messages[0]!.id = 'wamid.image-1';
      expect((await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', imageValue))).statusCode).toBe(200);
      const reaction = withoutRouteParam(fixture<{ entry: { changes: { value: { messages: Record<string, unknown>[] } }[] }[] }>('whatsapp-reaction.json'));
      const reactionMessage = reaction.entry[0]!.changes[0]!.value.messages[0]!;
      reactionMessage.id = 'wamid.reaction-1';
      (reactionMessage.reaction as Record<string, unknown>).message_id = 'SDFADSf23sfasdafasdfa';
      expect((await postDelivery(app, 'whatsapp', reaction)).statusCode).toBe(200);
      // The full envelope from Meta's documentation, byte for byte as in the file.
      const docsBytes = fs.readFileSync(`${FIXTURES_DIR}/whatsapp-text-envelope-metadocs.json`);
      expect((await postDelivery(app, 'whatsapp', docsBytes)).statusCode).toBe(200);
      await settle();

      const messages = byExternalId(await messagesOf(channel.id));
      expect(messages.map((m) => ({ id: m.externalMessageId, type: m.messageType, content: m.content, direction: m.direction }))).toEqual([
        { id: 'SDFADSf23sfasdafasdfa', type: 'text', content: 'Test', direction: 'inbound' },
        { id: 'wamid.SDFADSf23sfasdafasdfa', type: 'unsupported', content: '', direction: 'inbound' },
        { id: 'wamid.image-1', type: 'image', content: 'Check out my product!', direction: 'inbound' },
        { id: 'wamid.reaction-1', type: 'reaction', content: '👍', direction: 'inbound' },
      ]);
      expect(messages[2]!.media).toMatchObject({ id: 'b1c68f38-8734-4ad3-b4a1-ef0c10d683', mimeType: 'image/jpeg', caption: 'Check out my product!' });
      const contacts = await db().selectFrom('contacts').select(['externalId', 'name']).where('channelId', '=', channel.id).orderBy('externalId').execute();
      expect(contacts).toEqual([
        { externalId: '1111981136571', name: 'Test Test' },
        { externalId: '2423423243', name: 'Sojan Jose' },
      ]);
      const [docsMessage] = await messagesOf(docs.id);
      expect(docsMessage).toMatchObject({ content: 'Does it come in another color?', externalMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=' });
      for (const event of [...(await eventsOf(channel.id)), ...(await eventsOf(docs.id))]) {
        expect(event.processedAt).not.toBeNull();
        expect(event.error).toBeNull();
      }
    });

    it('applies read and failed statuses to our reply, never moving backwards (read then delivered stays read; failed after read is ignored)', async () => {
      const channel = await createMetaChannel(app, 'whatsapp', 'random_id');
      // The status fixtures' id equals the phone number (README caveat 3): our reply gets that id.
      const { reply } = await replyOnChannel(channel, '2423423243', 'Your order shipped', { messageId: '2423423243' });
      expect(reply).toMatchObject({ status: 'sent', externalMessageId: '2423423243' });

      await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', fixture('whatsapp-status-read.json')));
      await settle();
      const delivered = { statuses: [{ id: '2423423243', status: 'delivered', timestamp: '1749416390', recipient_id: '2423423243' }] };
      await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', delivered));
      await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', fixture('whatsapp-status-failed.json')));
      await settle();
      const after = await db().selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ status: 'read', errorCode: null });
      expect(after.seenAt).not.toBeNull();
    });

    it('stores the reason of a failed status on a sent reply', async () => {
      const channel = await createMetaChannel(app, 'whatsapp', 'random_id');
      const { reply } = await replyOnChannel(channel, '2423423243', 'Hello', { messageId: '2423423243' });
      await postDelivery(app, 'whatsapp', whatsappDelivery('random_id', fixture('whatsapp-status-failed.json')));
      await settle();
      const after = await db().selectFrom('messages').selectAll().where('id', '=', reply.id).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ status: 'failed', errorCode: '123', errorMessage: 'Meta could not deliver the message: abc' });
    });
  });

  describe('Messenger fixtures', () => {
    it('records a text and applies delivery and read watermarks to the replies sent before them', async () => {
      const page = '117172741761305';
      const channel = await createMetaChannel(app, 'messenger', page);
      const item = fixture<{ messaging: Record<string, unknown> }>('messenger-text.json').messaging;
      expect((await postDelivery(app, 'messenger', messagingDelivery('messenger', page, { ...item, timestamp: 1648581600000 }))).statusCode).toBe(200);
      await settle();
      const [inbound] = await messagesOf(channel.id);
      expect(inbound).toMatchObject({ content: 'facebook message', direction: 'inbound', externalMessageId: item.message && (item.message as { mid: string }).mid });

      const { reply: first } = await replyOnChannel(channel, '3383290475046708', 'First reply');
      const { reply: second } = await replyOnChannel(channel, '3383290475046708', 'Second reply');
      // The fixtures' watermark (2022-03-29T19:20:33.369Z) lies after the first reply, before the second.
      await db().updateTable('messages').set({ createdAt: new Date('2022-03-29T19:00:00Z') }).where('id', '=', first.id).execute();
      await db().updateTable('messages').set({ createdAt: new Date('2022-03-29T20:00:00Z') }).where('id', '=', second.id).execute();

      expect((await postDelivery(app, 'messenger', messagingDelivery('messenger', page, fixture<{ messaging: unknown }>('messenger-delivery.json').messaging))).statusCode).toBe(200);
      await settle();
      const status = async (id: string) => (await db().selectFrom('messages').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      expect([await status(first.id), await status(second.id)]).toEqual(['delivered', 'sent']);
      expect((await postDelivery(app, 'messenger', messagingDelivery('messenger', page, fixture<{ messaging: unknown }>('messenger-read.json').messaging))).statusCode).toBe(200);
      // A late delivery watermark after the read one changes nothing.
      await postDelivery(app, 'messenger', messagingDelivery('messenger', page, fixture<{ messaging: unknown }>('messenger-delivery.json').messaging));
      await settle();
      expect([await status(first.id), await status(second.id)]).toEqual(['read', 'sent']);
    });

    it("matches the echo of its own send by the metadata it carries, and records a reply typed in the Page inbox as an agent's", async () => {
      const page = 'page-echo-1';
      const customer = 'psid-echo-1';
      const channel = await createMetaChannel(app, 'messenger', page);
      // The send is throttled once, so the echo arrives while our message is still queued.
      graph.script('POST', `/v21.0/${page}/messages`, { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'Too many', code: 4 } } });
      const { conversationId, reply } = await replyOnChannel(channel, customer, 'We ship worldwide.');
      expect(reply).toMatchObject({ status: 'queued', attempts: 1 });
      const sent = graph.requestsTo('POST', `/v21.0/${page}/messages`)[0]!;
      expect(sent.body).toEqual({ recipient: { id: customer }, messaging_type: 'RESPONSE', message: { text: 'We ship worldwide.', metadata: `parley:${reply.id}` } });

      // Meta's echo: the page is the sender; the text differs (trimmed by a bot framework, say) —
      // the metadata alone identifies our message.
      const echo = (mid: string, text: string, metadata?: string) => ({
        sender: { id: page },
        recipient: { id: customer },
        timestamp: Date.now(),
        message: { is_echo: true, app_id: 1517776481860111, mid, text, ...(metadata ? { metadata } : {}) },
      });
      await postDelivery(app, 'messenger', messagingDelivery('messenger', page, echo('m_echo_ours', 'We ship worldwide', `parley:${reply.id}`)));
      await settle();
      let outbound = (await messagesOf(channel.id)).filter((m) => m.direction === 'outbound');
      expect(outbound.map((m) => [m.id, m.externalMessageId])).toEqual([[reply.id, 'm_echo_ours']]);

      // The throttled send is retried after Retry-After and goes out once.
      for (let i = 0; i < 100 && (await db().selectFrom('messages').select('status').where('id', '=', reply.id).executeTakeFirstOrThrow()).status === 'queued'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await db().selectFrom('messages').select(['status', 'attempts', 'externalMessageId']).where('id', '=', reply.id).executeTakeFirstOrThrow()).toEqual({
        status: 'sent',
        attempts: 2,
        externalMessageId: 'm_echo_ours',
      });
      // Its echo redelivered: still one message.
      await postDelivery(app, 'messenger', messagingDelivery('messenger', page, echo('m_echo_ours', 'We ship worldwide', `parley:${reply.id}`)));

      // Typed by a person in the Page inbox: no metadata, unknown text.
      await postDelivery(app, 'messenger', messagingDelivery('messenger', page, echo('m_typed_1', 'Hi, Ana from the shop here 😊')));
      await settle();
      outbound = (await messagesOf(channel.id)).filter((m) => m.direction === 'outbound');
      expect(outbound.map((m) => [m.content, m.senderType, m.status])).toEqual([
        ['We ship worldwide.', 'agent', 'sent'],
        ['Hi, Ana from the shop here 😊', 'agent', 'sent'],
      ]);
      const conversation = await db().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow();
      expect(conversation.handledBy).toBe('human');
    });
  });

  describe('Instagram fixtures', () => {
    const account = 'chatwoot-app-user-id-1';

    it('records a text and an unsupported message with ISO timestamps, and a story-mention echo as an outgoing agent message', async () => {
      const channel = await createMetaChannel(app, 'instagram', account);
      // instagram-text.json is a full delivery already (ISO timestamps, as Chatwoot's factories write them).
      expect((await postDelivery(app, 'instagram', fixture('instagram-text.json'))).statusCode).toBe(200);
      expect((await postDelivery(app, 'instagram', { object: 'instagram', ...fixture('instagram-unsupported.json') })).statusCode).toBe(200);
      await settle();
      const inbound = byExternalId(await messagesOf(channel.id));
      expect(inbound.map((m) => [m.externalMessageId, m.messageType, m.content, m.direction])).toEqual([
        ['message-id-1', 'text', 'This is the first message from the customer', 'inbound'],
        ['unsupported-message-id-1', 'unsupported', '', 'inbound'],
      ]);

      // For an echo the business account is the sender (README: Chatwoot flips sender/recipient).
      const echoAccount = await createMetaChannel(app, 'instagram', 'Sender-id-1');
      const echo = fixture<{ entry: Record<string, unknown>[] }>('instagram-echo-story-mention.json');
      expect((await postDelivery(app, 'instagram', { object: 'instagram', ...echo })).statusCode).toBe(200);
      await settle();
      const [story] = await messagesOf(echoAccount.id);
      expect(story).toMatchObject({ direction: 'outbound', senderType: 'agent', externalMessageId: 'message-id-1', messageType: 'unsupported' });
      expect(story!.media).toEqual({ url: 'https://www.example.com/test.jpeg' });
      const contact = await db().selectFrom('contacts').select('externalId').where('channelId', '=', echoAccount.id).executeTakeFirstOrThrow();
      expect(contact.externalId).toBe('chatwoot-app-user-id-1');
    });

    it('marks our reply read by its message id', async () => {
      const channel = await createMetaChannel(app, 'instagram', account);
      const { reply } = await replyOnChannel(channel, 'Sender-id-1', 'Thanks for writing!', { messageId: 'message-id-1' });
      expect(graph.requestsTo('POST', '/v21.0/me/messages')[0]!.body).toEqual({
        recipient: { id: 'Sender-id-1' },
        messaging_type: 'RESPONSE',
        message: { text: 'Thanks for writing!' },
      });
      expect((await postDelivery(app, 'instagram', { object: 'instagram', ...fixture('instagram-seen.json') })).statusCode).toBe(200);
      await settle();
      expect((await db().selectFrom('messages').select('status').where('id', '=', reply.id).executeTakeFirstOrThrow()).status).toBe('read');
    });

    it('acknowledges the dashboard test event and records nothing from it', async () => {
      const channel = await createMetaChannel(app, 'instagram', 'ig-test-event');
      const testEvent = fixture<{ entry: Record<string, unknown>[] }>('instagram-test-event-changes.json');
      testEvent.entry[0]!.id = 'ig-test-event';
      expect((await postDelivery(app, 'instagram', { object: 'instagram', ...testEvent })).statusCode).toBe(200);
      await settle();
      expect(await messagesOf(channel.id)).toEqual([]);
      const [event] = await eventsOf(channel.id);
      expect(event).toMatchObject({ error: null });
      expect(event!.processedAt).not.toBeNull();
    });
  });

  it('processes every entry, every change and every message of a batched delivery', async () => {
    const a = await createMetaChannel(app, 'whatsapp', 'batch-a');
    const b = await createMetaChannel(app, 'whatsapp', 'batch-b');
    const text = (id: string, from: string, body: string) => ({ from, id, timestamp: '1749416383', type: 'text', text: { body } });
    const delivery = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba-1',
          changes: [
            { field: 'messages', value: { metadata: { phone_number_id: 'batch-a' }, contacts: [{ wa_id: '1', profile: { name: 'One' } }, { wa_id: '2', profile: { name: 'Two' } }], messages: [text('w1', '1', 'a1'), text('w2', '2', 'a2')] } },
            { field: 'messages', value: { metadata: { phone_number_id: 'batch-a' }, messages: [text('w3', '1', 'a3')] } },
          ],
        },
        { id: 'waba-2', changes: [{ field: 'messages', value: { metadata: { phone_number_id: 'batch-b' }, messages: [text('w4', '3', 'b1'), text('w5', '3', 'b2')] } }] },
      ],
    };
    expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);

    const pageA = await createMetaChannel(app, 'messenger', 'batch-page-a');
    const pageB = await createMetaChannel(app, 'messenger', 'batch-page-b');
    const dm = (page: string, psid: string, mid: string, body: string) => ({ sender: { id: psid }, recipient: { id: page }, timestamp: Date.now(), message: { mid, text: body } });
    const messenger = {
      object: 'page',
      entry: [
        { id: 'batch-page-a', time: Date.now(), messaging: [dm('batch-page-a', 'p1', 'm1', 'x1'), dm('batch-page-a', 'p2', 'm2', 'x2')] },
        { id: 'batch-page-b', time: Date.now(), messaging: [dm('batch-page-b', 'p3', 'm3', 'y1')] },
      ],
    };
    expect((await postDelivery(app, 'messenger', messenger)).statusCode).toBe(200);
    await settle();

    expect((await messagesOf(a.id)).map((m) => m.content).sort()).toEqual(['a1', 'a2', 'a3']);
    expect((await messagesOf(b.id)).map((m) => m.content)).toEqual(['b1', 'b2']);
    expect((await messagesOf(pageA.id)).map((m) => m.content).sort()).toEqual(['x1', 'x2']);
    expect((await messagesOf(pageB.id)).map((m) => m.content)).toEqual(['y1']);
    const conversations = await db().selectFrom('conversations').select('id').where('channelId', 'in', [a.id, b.id]).execute();
    expect(conversations).toHaveLength(3);
    // One raw event per delivery, naming every channel it concerns.
    const [event] = await eventsOf(b.id);
    expect([...event!.channelIds].sort()).toEqual([a.id, b.id].sort());
  });

  it('stores one message for 50 identical deliveries arriving in parallel over HTTP', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'parallel-1');
    // Real sockets; the app closes the listener in afterAll.
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    {
      const { port } = app.server.server.address() as AddressInfo;
      const raw = JSON.stringify(whatsappDelivery('parallel-1', fixture('whatsapp-text.json')));
      const sig = signature(raw, SECRET);
      const jobsBefore = await db().selectFrom('jobs').select('id').where('name', '=', 'webhooks.process-inbound').execute();
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`http://127.0.0.1:${port}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': sig }, body: raw }).then(async (r) => {
            await r.text();
            return r.status;
          }),
        ),
      );
      expect(statuses).toEqual(Array.from({ length: 50 }, () => 200));
      await settle();
      const messages = await messagesOf(channel.id);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ content: 'Test', externalMessageId: 'SDFADSf23sfasdafasdfa' });
      const events = await eventsOf(channel.id);
      expect(events).toHaveLength(50);
      expect(events.every((e) => e.processedAt !== null && e.error === null)).toBe(true);
      const jobs = (await db().selectFrom('jobs').select('id').where('name', '=', 'webhooks.process-inbound').execute()).length - jobsBefore.length;
      // One job per group-committed batch (how many deliveries overlap depends on timing; group-commit.test.ts pins the batching).
      expect(jobs).toBeGreaterThanOrEqual(1);
      expect(jobs).toBeLessThanOrEqual(50);
      const conversation = await db().selectFrom('conversations').selectAll().where('channelId', '=', channel.id).executeTakeFirstOrThrow();
      expect(conversation.unreadCount).toBe(1);
    }
  });

  it('never fails on odd items: they are skipped, the rest of the delivery is stored', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'odd-1');
    const delivery = whatsappDelivery(
      'odd-1',
      {
        messages: [
          null,
          42,
          { type: 'text', text: { body: 'no id, no sender' } },
          { from: '1', id: 'odd-no-type' },
          { from: '1', id: 'odd-location-bad', type: 'location', location: { latitude: 'north' } },
          { from: '1', id: 'odd-reaction-removed', type: 'reaction', reaction: { message_id: 'x', emoji: '' } },
          { from: '1', id: 'odd-system', type: 'system', system: { body: 'changed number' } },
          { from: '1', id: 'odd-contacts', type: 'contacts', contacts: [{ name: { formatted_name: 'X' } }] },
          { from: '1', id: 'odd-good', type: 'text', text: { body: 'still here' }, timestamp: 'not a time' },
          { from: '1', id: 'odd-long', type: 'text', text: { body: 'x'.repeat(25_000) } },
        ],
        statuses: [{}, { id: 'x', status: 'deleted' }, 'text'],
        contacts: 'not a list',
      },
      { messages: 'not a list' },
    );
    (delivery.entry as unknown[]).push(null, { changes: [null, { field: 'account_update', value: {} }] });
    expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);
    await settle();
    const messages = byExternalId(await messagesOf(channel.id));
    expect(messages.map((m) => [m.externalMessageId, m.messageType])).toEqual([
      ['odd-contacts', 'unsupported'],
      ['odd-good', 'text'],
      ['odd-long', 'text'],
    ]);
    expect(messages[2]!.content).toHaveLength(20_000);
    const [event] = await eventsOf(channel.id);
    expect(event).toMatchObject({ error: null });
  });

  it('stores a message carrying U+0000 without it, and the rest of the delivery with it', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'nul-1');
    const delivery = whatsappDelivery('nul-1', {
      contacts: [{ wa_id: '4915550001', profile: { name: 'Nu\u0000ll' } }],
      messages: [
        { from: '4915550001', id: 'nul-text', type: 'text', text: { body: 'before\u0000after' }, timestamp: '1700000000' },
        { from: '4915550001', id: 'nul-plain', type: 'text', text: { body: 'plain' }, timestamp: '1700000001' },
      ],
    });
    expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);
    await settle();
    const messages = byExternalId(await messagesOf(channel.id));
    expect(messages.map((m) => [m.externalMessageId, m.content])).toEqual([
      ['nul-plain', 'plain'],
      ['nul-text', 'beforeafter'],
    ]);
    const contact = await db().selectFrom('contacts').select('name').where('channelId', '=', channel.id).executeTakeFirstOrThrow();
    expect(contact.name).toBe('Null');
    const [event] = await eventsOf(channel.id);
    expect(event).toMatchObject({ error: null });
    expect(event!.processedAt).not.toBeNull();
  });
});
