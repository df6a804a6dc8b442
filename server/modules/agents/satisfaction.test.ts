/**
 * Customer satisfaction (issue 16 §1, docs/satisfaction.md): a resolved conversation's customer is
 * asked for a 1–5 rating in its channel — stars in the website widget, a numbered reply on
 * WhatsApp (a fake Graph API on loopback), a field on the API channel — once per resolution; the
 * answer is stored once, never reopens the conversation, shows in the thread and in the insights.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SURVEY_QUESTION } from '../../../common/messaging/satisfaction';
import { createAgentClient } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createMetaChannel, postDelivery, whatsappDelivery } from '../../../test/helpers/meta-webhooks';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';

const SHOP = 'https://shop.example';
let nextIp = 1;

describe.each(ENGINES)('customer satisfaction ratings (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let callback: CallbackServer;
  let admin: TestClient;

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    callback = await startCallbackServer();
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES, GRAPH_API_BASE_URL: graph.url } });
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
    await callback.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;
  const conversation = (id: string) => db().selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const surveys = (conversationId: string) =>
    db().selectFrom('satisfactionSurveys').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').execute();

  async function resolve(conversationId: string) {
    const response = await admin.request({ method: 'PATCH', url: `/api/v1/conversations/${conversationId}`, body: { status: 'resolved' } });
    expect(response.statusCode, response.body).toBe(200);
    await app.queue.waitForIdle();
  }

  async function thread(conversationId: string) {
    const response = await admin.request({ method: 'GET', url: `/api/v1/conversations/${conversationId}/messages?limit=100` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ messages: { senderType: string; content: string; survey?: { status: string; rating: number | null; comment: string | null } | null }[] }>().messages;
  }

  function visitor(widgetId: string) {
    const ip = `10.9.${Math.floor(nextIp / 250)}.${nextIp++ % 250}`;
    let token = '';
    const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      app.inject({
        method,
        url: `/api/v1/widget/${widgetId}${url}`,
        remoteAddress: ip,
        headers: { origin: SHOP, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    return {
      async start() {
        token = (await call('POST', '/visitors', {})).json().visitorToken;
      },
      call,
    };
  }

  it('website widget: asks with stars after resolution, takes the rating once without reopening, and the figures count it', async () => {
    // The AI agent is on: it must not answer the rating.
    const { client, channel } = await createAgentClient(app);
    const widgetId = channel.externalId!;
    const v = visitor(widgetId);
    await v.start();
    const sent = await v.call('POST', '/messages', { text: 'is shipping free?', clientMessageId: 'msg-00000001' });
    expect(sent.statusCode, sent.body).toBe(201);
    await app.queue.waitForIdle();
    const conversationId = (await db().selectFrom('conversations').select('id').where('channelId', '=', channel.id).executeTakeFirstOrThrow()).id;
    await resolve(conversationId);

    const history = (await v.call('GET', '/messages')).json().messages as { id: string; senderType: string; text: string; survey?: { id: string; status: string } | null }[];
    const request = history.at(-1)!;
    expect(request).toMatchObject({ senderType: 'system', text: DEFAULT_SURVEY_QUESTION, survey: { status: 'pending' } });
    const surveyId = request.survey!.id;
    const before = await conversation(conversationId);

    const answered = await v.call('POST', `/surveys/${surveyId}`, { rating: 4, comment: '  Quick and clear  ' });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.json()).toMatchObject({ from: 'visitor', text: 'Rated 4/5 (Good): Quick and clear', survey: { id: surveyId, status: 'answered', rating: 4 } });
    await app.queue.waitForIdle();

    // Still resolved, nothing unread, nobody's to answer, and the AI stayed quiet.
    expect(await conversation(conversationId)).toMatchObject({ status: 'resolved', unreadCount: before.unreadCount, awaitingSince: before.awaitingSince });
    const messages = await thread(conversationId);
    expect(messages.at(-1)).toMatchObject({ senderType: 'customer', content: 'Rated 4/5 (Good): Quick and clear', survey: { status: 'answered', rating: 4, comment: 'Quick and clear' } });
    expect(messages.at(-2)).toMatchObject({ senderType: 'system', survey: { status: 'answered', rating: 4 } });
    expect(await surveys(conversationId)).toEqual([expect.objectContaining({ status: 'answered', rating: 4, comment: 'Quick and clear', clientId: client.id })]);

    // Once: a second answer, a wrong rating, another visitor and an unknown survey are refused.
    const again = await v.call('POST', `/surveys/${surveyId}`, { rating: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You have already rated this conversation. Thank you!');
    expect((await v.call('POST', `/surveys/${surveyId}`, { rating: 6 })).statusCode).toBe(400);
    const stranger = visitor(widgetId);
    await stranger.start();
    expect((await stranger.call('POST', `/surveys/${surveyId}`, { rating: 5 })).statusCode).toBe(404);
    expect((await v.call('POST', '/surveys/not-a-uuid', { rating: 5 })).statusCode).toBe(400);
    expect((await surveys(conversationId)).map((s) => s.rating)).toEqual([4]);

    // The insights: a mean of 4 out of 5 from one rating.
    const insights = await admin.request({ method: 'GET', url: `/api/v1/insights?period=24h&clientId=${client.id}` });
    expect(insights.statusCode, insights.body).toBe(200);
    const view = insights.json();
    expect(view.ratingsCollected).toBe(true);
    expect(view.metrics.satisfaction.value).toBe(4);
    expect(view.totals).toMatchObject({ ratings: 1, satisfied: 1 });
    expect(view.clients.find((c: { clientId: string }) => c.clientId === client.id).satisfaction).toBe(4);
    const summary = await admin.request({ method: 'GET', url: `/api/v1/summary?period=24h&clientId=${client.id}` });
    expect(summary.json().overview.customerSatisfaction).toBe(4);
  });

  it('WhatsApp: a numbered request inside the 24-hour window; "5 - great" is the rating, other words reopen', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'pn-csat-1');
    const path = '/v21.0/pn-csat-1/messages';
    let n = 0;
    const customerWrites = async (body: string) => {
      const delivery = whatsappDelivery('pn-csat-1', {
        contacts: [{ profile: { name: 'Rita' }, wa_id: '351910000077' }],
        messages: [{ from: '351910000077', id: `wamid.csat-${++n}-${Math.random()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } }],
      });
      expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);
      await app.queue.waitForIdle();
    };
    await customerWrites('Where is my parcel?');
    const conversationId = (await db().selectFrom('conversations').select('id').where('channelId', '=', channel.id).executeTakeFirstOrThrow()).id;
    await resolve(conversationId);

    const asked = graph.requestsTo('POST', path).map((r) => (r.body as { text: { body: string } }).text.body);
    expect(asked).toEqual([expect.stringMatching(/^How would you rate the help you received\?\nReply with a number from 1 \(very poor\) to 5 \(excellent\)/u)]);

    await customerWrites('5 - great, thanks');
    expect(await conversation(conversationId)).toMatchObject({ status: 'resolved' });
    expect(await surveys(conversationId)).toEqual([expect.objectContaining({ status: 'answered', rating: 5, comment: 'great, thanks' })]);

    // The survey is answered: a later "4" is an ordinary message and reopens the conversation.
    await customerWrites('4');
    expect(await conversation(conversationId)).toMatchObject({ status: 'active' });
    expect((await surveys(conversationId)).map((s) => s.rating)).toEqual([5]);

    // Resolved again: asked again (one survey per resolution). Words that are not a rating reopen it
    // and leave the survey pending.
    await resolve(conversationId);
    expect(graph.requestsTo('POST', path)).toHaveLength(2);
    await customerWrites('1 more question: do you ship to Spain?');
    expect(await conversation(conversationId)).toMatchObject({ status: 'active' });
    expect((await surveys(conversationId)).map((s) => s.status)).toEqual(['answered', 'pending']);

    // A third resolution replaces the pending survey; the window is closed now: nothing is sent.
    await db().updateTable('conversations').set({ lastInboundAt: new Date(Date.now() - 25 * 3_600_000) }).where('id', '=', conversationId).execute();
    await resolve(conversationId);
    expect(graph.requestsTo('POST', path)).toHaveLength(2);
    expect((await surveys(conversationId)).map((s) => s.status)).toEqual(['answered', 'pending']);
  });

  it("asks once per resolution, in the client's words, and not at all when the client turned ratings off", async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const put = await admin.request({ method: 'PUT', url: `/api/v1/clients/${client.id}/agent`, body: { csatQuestion: 'Did Ana solve your problem?' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ csatEnabled: true, csatQuestion: 'Did Ana solve your problem?' });
    expect((await admin.request({ method: 'PUT', url: `/api/v1/clients/${client.id}/agent`, body: { csatQuestion: ' ' } })).statusCode).toBe(400);

    const { conversationId } = await app.services.messaging.recordInbound(channel, { contact: { externalId: 'v-once' }, message: { externalId: 'v-once-1', type: 'text', text: 'hello' } });
    await resolve(conversationId);
    const [survey] = await surveys(conversationId);
    expect(survey).toMatchObject({ question: 'Did Ana solve your problem?', status: 'pending' });
    // The job run again for the same resolution asks nothing more.
    const requests = app.services.satisfactionRequests;
    expect((await requests.request(conversationId, survey!.resolvedAt)).outcome).toBe('already-asked');
    expect(await surveys(conversationId)).toHaveLength(1);
    expect((await thread(conversationId)).filter((m) => m.senderType === 'system')).toHaveLength(1);

    await admin.request({ method: 'PUT', url: `/api/v1/clients/${client.id}/agent`, body: { csatEnabled: false } });
    const other = await app.services.messaging.recordInbound(channel, { contact: { externalId: 'v-off' }, message: { externalId: 'v-off-1', type: 'text', text: 'hello' } });
    await resolve(other.conversationId);
    expect(await surveys(other.conversationId)).toEqual([]);
    expect((await thread(other.conversationId)).map((m) => m.senderType)).toEqual(['customer']);
  });

  it('API channel: the request carries the survey; the platform answers with the rating field', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'api', callbackUrl: callback.url });
    const post = (value: object) => {
      const body = JSON.stringify(value);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', 'test-signing-secret').update(`${timestamp}.${body}`).digest('hex');
      return app.inject({
        method: 'POST',
        url: `/api/v1/channels/${channel.id}/messages`,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-parley-timestamp': String(timestamp), 'x-parley-signature': `sha256=${signature}` },
      });
    };
    const first = await post({ contact: { id: 'cust-9' }, message: { id: 'in-1', text: 'My invoice is wrong' } });
    expect(first.statusCode, first.body).toBe(201);
    const { conversationId } = first.json();
    await app.queue.waitForIdle();
    await resolve(conversationId);

    const payloads = callback.received
      .map((r) => JSON.parse(r.body.toString('utf8')) as { conversationId?: string; message?: unknown })
      .filter((p) => p.conversationId === conversationId);
    const [surveyId] = (await surveys(conversationId)).map((s) => s.id);
    expect(payloads.at(-1)?.message).toMatchObject({ senderType: 'system', text: DEFAULT_SURVEY_QUESTION, survey: { id: surveyId, minRating: 1, maxRating: 5 } });

    expect((await post({ contact: { id: 'cust-9' }, message: { id: 'in-2', text: 'two', rating: 0 } })).statusCode).toBe(400);
    const rated = await post({ contact: { id: 'cust-9' }, message: { id: 'in-2', text: '★★', rating: 2, comment: 'Slow' } });
    expect(rated.statusCode, rated.body).toBe(201);
    expect(rated.json()).toMatchObject({ created: true, surveyId });
    expect(await conversation(conversationId)).toMatchObject({ status: 'resolved' });
    expect(await surveys(conversationId)).toEqual([expect.objectContaining({ rating: 2, comment: 'Slow', status: 'answered' })]);
  });
});
