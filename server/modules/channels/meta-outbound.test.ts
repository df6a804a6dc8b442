/**
 * Sending through Meta, against a fake Graph API on loopback: what is sent, what is retried
 * (throttling, timeouts, dropped connections) and what fails at once with its reason in the thread.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createMetaChannel, type MetaTestChannel } from '../../../test/helpers/meta-webhooks';
import { createInstagramAdapter } from './adapters/instagram.adapter';
import { createMessengerAdapter } from './adapters/messenger.adapter';
import { createWhatsAppAdapter } from './adapters/whatsapp.adapter';
import type { ChannelWithSecrets } from './adapters/channel-adapter';

// Long enough for an answer on a busy machine (a late answer would count as a timeout and add an attempt), short enough for the hang test.
const TIMEOUT_MS = 1_500;

describe.each(ENGINES)('sending through the Graph API (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url, GRAPH_API_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;

  /** A customer wrote (the window is open); a person answers. */
  async function reply(channel: MetaTestChannel, text: string) {
    const stored = await db().selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    const { conversationId } = await app.services.messaging.recordInbound(stored, {
      contact: { externalId: '351910000001', name: 'Rita' },
      message: { externalId: `wamid.in-${Math.random()}`, type: 'text', text: 'Olá' },
    });
    return app.services.messaging.sendMessage(conversationId, { text, senderType: 'agent', senderId: null }, { kind: 'system' });
  }

  /** The message once its send job stopped trying (sent or failed). */
  async function outcome(messageId: string, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = await db().selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
      if (m.status !== 'queued') return m;
      if (Date.now() > deadline) throw new Error(`message still queued after ${timeoutMs} ms (attempts ${m.attempts}, ${m.errorMessage})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('sends a WhatsApp text with the Bearer token, retries a 429 after its Retry-After, and sends it exactly once', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'pn-out-1');
    const path = '/v21.0/pn-out-1/messages';
    graph.script('POST', path, { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } } });
    const message = await reply(channel, 'Olá Rita! Já enviámos a encomenda 📦');
    const sent = await outcome(message.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, errorCode: null, errorMessage: null });
    expect(sent.externalMessageId).toMatch(/^wamid\.fake-/u);

    const requests = graph.requestsTo('POST', path);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers.authorization).toBe('Bearer token-pn-out-1');
    expect(requests[1]!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '351910000001',
      type: 'text',
      text: { body: 'Olá Rita! Já enviámos a encomenda 📦', preview_url: false },
    });
    const job = await db().selectFrom('jobs').selectAll().where('name', '=', 'channels.send-message').where('payload', '@>', JSON.stringify({ messageId: message.id })).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it("fails at once outside the 24-hour window (131047), with Meta's reason in the thread", async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'pn-out-2');
    graph.script('POST', '/v21.0/pn-out-2/messages', {
      status: 400,
      body: {
        error: {
          message: '(#131047) Re-engagement message',
          type: 'OAuthException',
          code: 131047,
          error_data: { messaging_product: 'whatsapp', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
          fbtrace_id: 'A1',
        },
      },
    });
    const message = await reply(channel, 'Still there?');
    const failed = await outcome(message.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, errorCode: '131047' });
    expect(graph.requestsTo('POST', '/v21.0/pn-out-2/messages')).toHaveLength(1);
    const view = await app.services.conversationsRepository.findMessageView(message.id, { clientId: null });
    expect(view).toMatchObject({ status: 'failed', errorCode: '131047' });
    expect(view!.errorMessage).toBe('Meta refused the message: more than 24 hours have passed since the customer last wrote, so only a template message can be sent (131047)');
  });

  it('retries after a timeout and after a dropped connection, then sends', async () => {
    const slow = await createMetaChannel(app, 'whatsapp', 'pn-out-3');
    const dropped = await createMetaChannel(app, 'messenger', 'page-out-4');
    graph.script('POST', '/v21.0/pn-out-3/messages', 'hang');
    graph.script('POST', '/v21.0/page-out-4/messages', 'drop');
    const [first, second] = await Promise.all([reply(slow, 'Are you there?'), reply(dropped, 'Hello from the page')]);
    const [timedOut, reconnected] = await Promise.all([outcome(first.id), outcome(second.id)]);
    expect(timedOut).toMatchObject({ status: 'sent', attempts: 2 });
    expect(reconnected).toMatchObject({ status: 'sent', attempts: 2 });
    expect(reconnected.externalMessageId).toMatch(/^m_fake-/u);
    expect(graph.requestsTo('POST', '/v21.0/pn-out-3/messages')).toHaveLength(2);
    expect(graph.requestsTo('POST', '/v21.0/page-out-4/messages')).toHaveLength(2);
  });

  it('checks credentials with a GET of the number, page or account', async () => {
    const config = { baseUrl: graph.url, version: 'v21.0', timeoutMs: TIMEOUT_MS };
    const channel = (externalId: string): ChannelWithSecrets =>
      ({ id: 'c', externalId, secretValues: { accessToken: 'tok', appSecret: 's', verifyToken: 'v' } }) as unknown as ChannelWithSecrets;
    const signal = new AbortController().signal;

    expect(await createWhatsAppAdapter(config).testCredentials(channel('pn-9'), signal)).toEqual({ ok: true, message: 'Connected to the WhatsApp number Fake Shop, +1 555 0100.' });
    expect(graph.requestsTo('GET', '/v21.0/pn-9')[0]!.query.get('fields')).toBe('display_phone_number,verified_name');
    expect(await createMessengerAdapter(config).testCredentials(channel('page-9'), signal)).toEqual({ ok: true, message: 'Connected to the Facebook Page "Fake Page".' });
    expect(await createInstagramAdapter(config).testCredentials(channel('ig-9'), signal)).toEqual({ ok: true, message: 'Connected to the Instagram account @fake.' });

    graph.script('GET', '/v21.0/page-10', { status: 401, body: { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190 } } });
    expect(await createMessengerAdapter(config).testCredentials(channel('page-10'), signal)).toEqual({
      ok: false,
      message: 'Meta refused the credentials: the access token is invalid or has expired; reconnect the channel (190)',
    });
    graph.script('GET', '/v21.0/pn-10', 'hang');
    const slow = await createWhatsAppAdapter(config).testCredentials(channel('pn-10'), signal);
    expect(slow).toEqual({ ok: false, message: `Could not check the credentials right now: The Graph API did not answer within ${TIMEOUT_MS} ms` });
  });
});
