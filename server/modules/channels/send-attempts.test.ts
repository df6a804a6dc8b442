/**
 * Sends interrupted by a crash (issue 10, item 4): the attempt is on record right before the
 * platform call and cleared with its result; a send job that runs again after a crash during the
 * call does not repeat it on WhatsApp, Messenger or Instagram (status `unknown`, the team told,
 * one-click resend), while the API channel (idempotency key) and website chat send again.
 * The crash itself is simulated in the database exactly as a killed process leaves it: the
 * attempt started, no result, the job running under a dead worker's expired lease. The real
 * `kill -9` is in test/crash/send-crash.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { type CallbackServer, startCallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { createMetaChannel } from '../../../test/helpers/meta-webhooks';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import type { Channel, ChannelKind } from '../../db/schema';
import { OUTCOME_UNKNOWN_REASON } from '../messaging';

describe.each(ENGINES)('sends interrupted by a crash (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let callback: CallbackServer;
  let adminId: string;
  let admin: TestClient;

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    callback = await startCallbackServer();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url, GRAPH_API_TIMEOUT_MS: '1500', ...ALLOW_LOOPBACK_FAKES }, startJobs: false });
    ({ client: admin, userId: adminId } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
    await callback.close();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;
  const message = (id: string) => db().selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sendJob = (id: string) =>
    db().selectFrom('jobs').selectAll().where('name', '=', 'channels.send-message').where('payload', '@>', JSON.stringify({ messageId: id })).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const sendsOf = (text: string) => graph.requests.filter((r) => r.method === 'POST' && JSON.stringify(r.body).includes(text));

  async function channelOf(kind: ChannelKind): Promise<Channel> {
    const id =
      kind === 'whatsapp' || kind === 'messenger' || kind === 'instagram'
        ? (await createMetaChannel(app, kind, `${kind}-${Math.random().toString(36).slice(2, 8)}`)).id
        : (await createTestChannel(app, { clientId: (await createTestClient(app)).id, kind, callbackUrl: callback.url })).id;
    return db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /**
   * A reply whose first send attempt started and never recorded a result, its job left running by
   * a dead worker whose lease ran out — what `kill -9` during the platform call leaves behind.
   */
  async function interruptedReply(kind: ChannelKind, text: string) {
    const channel = await channelOf(kind);
    const { conversationId } = await app.services.messaging.recordInbound(channel, {
      contact: { externalId: `cust-${Math.random().toString(36).slice(2, 8)}`, name: 'Rita' },
      message: { externalId: `in-${Math.random()}`, type: 'text', text: 'Where is my order?' },
    });
    // The queue is not started: the send job is queued, not run.
    const reply = await app.services.messaging.sendMessage(conversationId, { text, senderType: 'ai', senderId: null }, { kind: 'ai' });
    await sql`update messages set send_started_at = now() - interval '2 seconds', attempts = 1 where id = ${reply.id}`.execute(db());
    await sql`
      update jobs set status = 'running', attempts = 1, locked_by = 'crashed-host:4242:dead', locked_until = now() - interval '1 millisecond'
      where name = 'channels.send-message' and payload @> ${JSON.stringify({ messageId: reply.id })}::jsonb`.execute(db());
    return { reply, conversationId, channel };
  }

  async function runJobs() {
    await app.queue.start();
    try {
      await app.queue.waitForIdle(15_000);
    } finally {
      await app.queue.stop();
    }
  }

  it('does not repeat an interrupted WhatsApp, Messenger or Instagram send: unknown, with the reason, the team notified', async () => {
    const interrupted = await Promise.all(
      (['whatsapp', 'messenger', 'instagram'] as const).map(async (kind) => ({ kind, ...(await interruptedReply(kind, `Your order ships today (${kind}, ${engine})`)) })),
    );
    await runJobs();
    for (const { kind, reply, conversationId } of interrupted) {
      expect(sendsOf(`(${kind}, ${engine})`), kind).toHaveLength(0);
      expect(await message(reply.id)).toMatchObject({ status: 'unknown', errorCode: 'outcome_unknown', errorMessage: OUTCOME_UNKNOWN_REASON, sendStartedAt: null });
      expect(await sendJob(reply.id)).toMatchObject({ status: 'completed' });
      const { notifications } = await app.services.notifications.findNotifications(adminId, { limit: 50 });
      const note = notifications.find((n) => n.link === `/conversations?conversation=${conversationId}`);
      expect(note, kind).toMatchObject({ kind: 'message.outcome_unknown', read: false });
      expect(note?.title).toMatch(/^Reply not confirmed: Rita/u);
    }
  });

  it('resends an unknown message once, on request, and an echo or a later status from Meta moves an unknown one on', async () => {
    const { reply, conversationId } = await interruptedReply('whatsapp', `Resend me (${engine})`);
    await runJobs();
    expect((await message(reply.id)).status).toBe('unknown');
    // The Resend button: the thread's retry route queues it again.
    const resent = await admin.post(`/api/v1/conversations/${conversationId}/messages/${reply.id}/retry`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: reply.id, status: 'queued', errorCode: null });
    await runJobs();
    expect(sendsOf(`Resend me (${engine})`)).toHaveLength(1);
    expect(await message(reply.id)).toMatchObject({ status: 'sent', errorCode: null, errorMessage: null, sendStartedAt: null });

    // Messenger: the echo of the interrupted send carries our id back — it did go out.
    const echoed = await interruptedReply('messenger', `Echo proves it (${engine})`);
    await runJobs();
    expect((await message(echoed.reply.id)).status).toBe('unknown');
    const contact = await db().selectFrom('contacts').innerJoin('conversations', 'conversations.contactId', 'contacts.id').select('contacts.externalId').where('conversations.id', '=', echoed.conversationId).executeTakeFirstOrThrow();
    await app.services.messaging.recordEcho(echoed.channel, {
      contact: { externalId: contact.externalId },
      message: { externalId: `m_echo-${engine}`, type: 'text', text: `Echo proves it (${engine})` },
      ourMessageId: echoed.reply.id,
    });
    expect(await message(echoed.reply.id)).toMatchObject({ status: 'sent', externalMessageId: `m_echo-${engine}` });
    await app.services.messaging.recordStatus(echoed.channel, `m_echo-${engine}`, 'delivered');
    expect((await message(echoed.reply.id)).status).toBe('delivered');
    expect(sendsOf(`Echo proves it (${engine})`)).toHaveLength(0);
  });

  it('sends an interrupted API-channel reply again with the same idempotency key, and a website chat reply again', async () => {
    callback.received.length = 0;
    const api = await interruptedReply('api', `Idempotent (${engine})`);
    const webchat = await interruptedReply('webchat', `Published (${engine})`);
    await runJobs();
    expect(await message(api.reply.id)).toMatchObject({ status: 'sent', sendStartedAt: null });
    const posts = callback.received.filter((r) => r.body.toString().includes(`Idempotent (${engine})`));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers['x-parley-idempotency-key']).toBe(api.reply.id);
    expect(await message(webchat.reply.id)).toMatchObject({ status: 'sent', sendStartedAt: null });
  });

  it('has the attempt on record while the platform call is in flight, and clears it with the result', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', `pn-inflight-${engine}`);
    graph.script('POST', `/v21.0/pn-inflight-${engine}/messages`, 'hang');
    const stored = await db().selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    const { conversationId } = await app.services.messaging.recordInbound(stored, {
      contact: { externalId: '351910000777', name: 'Rui' },
      message: { externalId: `in-${Math.random()}`, type: 'text', text: 'Olá' },
    });
    await app.queue.start();
    try {
      const reply = await app.services.messaging.sendMessage(conversationId, { text: `In flight (${engine})`, senderType: 'agent', senderId: null }, { kind: 'system' });
      const deadline = Date.now() + 10_000;
      while (sendsOf(`In flight (${engine})`).length === 0) {
        if (Date.now() > deadline) throw new Error('the send never reached the fake Graph API');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The request is at Meta and unanswered: a crash now would leave exactly this behind.
      const during = await message(reply.id);
      expect(during).toMatchObject({ status: 'queued', attempts: 1 });
      expect(during.sendStartedAt).toBeInstanceOf(Date);
      // It times out (a retryable failure: the attempt is over), and the retry is sent.
      while ((await message(reply.id)).status === 'queued') {
        if (Date.now() > deadline + 20_000) throw new Error('the retry never finished');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await message(reply.id)).toMatchObject({ status: 'sent', attempts: 2, sendStartedAt: null });
    } finally {
      await app.queue.stop();
    }
  });
});
