/**
 * A client's switches (issue 17 §2–3, docs/client-dashboard.md), both engines, through the real
 * inbound path (signed WhatsApp deliveries, a fake Graph API on loopback) and the client's real AI
 * agent: pausing stops the agent's answers (the away text and a hand-off instead) and the client's
 * event-triggered automations, is logged and tells the administrators; resuming restores both; a
 * deactivated client's users are signed out and cannot sign in and its channels stop accepting,
 * until it is reactivated; who may flip which switch.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_TEXTS, type AgentView } from '../../../common/api/agents';
import type { ExecutionView } from '../../../common/api/automations';
import type { ClientView } from '../../../common/api/channels';
import { createAgentClient } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createMetaChannel, postDelivery, whatsappDelivery } from '../../../test/helpers/meta-webhooks';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { PAUSED_HANDOFF_REASON } from '../agents/agents.policy';
import { CLIENT_DEACTIVATED_MESSAGE } from '../auth/auth.service';
import { AUTOMATION_PAUSED_MESSAGE } from '../automations/automations.service';

const PASSWORD = 'Corr3ct!Horse#Battery';
/** STORE_FAQ's answer to the shipping question (test/fixtures/store-faq). */
const SHIPPING_QUESTION = 'is shipping free or do you charge for delivery?';
const SHIPPING_ANSWER = 'Shipping is free over 50 euros, otherwise 4.90.';
/** The app secret createTestChannel gives Meta channels. */
const TEST_APP_SECRET = 'test-app-secret';

/** Signs an API channel's request as a business does: HMAC-SHA256 of "<timestamp>.<raw body>". */
function signApi(body: string, secret = 'test-signing-secret') {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-parley-timestamp': String(timestamp), 'x-parley-signature': `sha256=${signature}`, 'content-type': 'application/json' };
}

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(ENGINES)("a client's switches: pause, deactivate (%s)", (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let workflow: CallbackServer;
  let admin: { client: TestClient; userId: string; email: string };

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    workflow = await startCallbackServer();
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES, GRAPH_API_BASE_URL: graph.url } });
    admin = await signedInClient(app, 'admin');
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
    await workflow.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;
  let sequence = 0;

  /** A customer's WhatsApp text, delivered as Meta does (signed). */
  function customerWrites(phoneNumberId: string, waId: string, body: string, appSecret = TEST_APP_SECRET) {
    const delivery = whatsappDelivery(phoneNumberId, {
      contacts: [{ profile: { name: `Customer ${waId.slice(-2)}` }, wa_id: waId }],
      messages: [{ from: waId, id: `wamid.switch-${++sequence}-${Math.random()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } }],
    });
    return postDelivery(app, 'whatsapp', delivery, { appSecret });
  }

  const conversationWith = (channelId: string, waId: string) =>
    db()
      .selectFrom('conversations')
      .innerJoin('contacts', 'contacts.id', 'conversations.contactId')
      .selectAll('conversations')
      .where('conversations.channelId', '=', channelId)
      .where('contacts.externalId', '=', waId)
      .executeTakeFirstOrThrow();
  const thread = (conversationId: string) => db().selectFrom('messages').selectAll().where('conversationId', '=', conversationId).orderBy('createdAt').orderBy('id').execute();
  /** The texts Parley sent through the (fake) Graph API. */
  const sentTexts = () =>
    graph.requests
      .filter((r) => r.method === 'POST')
      .map((r) => (r.body as { text?: { body?: string } } | null)?.text?.body)
      .filter((text) => text !== undefined);
  const securityEvents = async (type: string, clientId: string) =>
    (await db().selectFrom('securityEvents').selectAll().where('type', '=', type).execute()).filter((e) => (e.details as { clientId?: string }).clientId === clientId);

  async function createAutomation(clientId: string): Promise<string> {
    const response = await admin.client.post('/api/v1/automations', {
      name: 'Tell the CRM',
      workflow_id: 'wf-crm',
      workflow_url: workflow.url,
      status: 'active',
      client_id: clientId,
      config: { triggers: ['message.received'] },
    });
    return expectJson<{ automation: { id: string } }>(response, 201).automation.id;
  }
  const executionsOf = async (automationId: string) =>
    expectJson<{ executions: ExecutionView[] }>(await admin.client.get(`/api/v1/automations/${automationId}/executions`), 200).executions;

  it("pausing stops the AI agent and the client's automations until resumed; each change is logged and the administrators are told", async () => {
    const { client, channel } = await createAgentClient(app, {}, 'whatsapp');
    app.services.webhooks.secrets.invalidate();
    const phoneNumberId = channel.externalId!;
    const automationId = await createAutomation(client.id);
    const owner = await signedInClientUser(app, client.id, 'Olivia Owner');
    const manager = await signedInClient(app, 'manager');

    // The client's own user pauses it; every view of the client and its agent says so.
    const paused = expectJson<ClientView>(await owner.client.put(`/api/v1/clients/${client.id}/automation`, { paused: true }), 200);
    expect(paused).toMatchObject({ automationPausedAt: expect.any(String), automationPausedBy: 'Olivia Owner' });
    expect(expectJson<ClientView>(await admin.client.get(`/api/v1/clients/${client.id}`), 200).automationPausedAt).toBe(paused.automationPausedAt);
    expect(expectJson<AgentView>(await owner.client.get(`/api/v1/clients/${client.id}/agent`), 200).automationPausedAt).toBe(paused.automationPausedAt);
    // Pausing again changes nothing and logs nothing again.
    expect(expectJson<ClientView>(await admin.client.put(`/api/v1/clients/${client.id}/automation`, { paused: true }), 200).automationPausedAt).toBe(paused.automationPausedAt);
    const logged = await securityEvents('clients.automation_paused', client.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ userId: owner.userId, severity: 'warning' });

    // The administrators are told, in the app and by e-mail (the owner is not an administrator).
    const notes = await app.services.notifications.findNotifications(admin.userId, { limit: 50 });
    expect(notes.notifications).toContainEqual(
      expect.objectContaining({ kind: 'client.automation_paused', title: `Automation paused: ${client.companyName}`, link: `/client-dashboard?client=${client.id}` }),
    );
    const mails = await db().selectFrom('emails').select(['toAddress', 'subject']).where('kind', '=', 'client-automation-paused').execute();
    expect(mails).toContainEqual({ toAddress: admin.email, subject: `Automation paused: ${client.companyName}` });
    expect(mails.map((m) => m.toAddress)).not.toContain(owner.email);

    // A customer writes while paused: no answer — the away text, and the conversation goes to people.
    expect((await customerWrites(phoneNumberId, '351910000001', SHIPPING_QUESTION)).statusCode).toBe(200);
    await app.queue.waitForIdle();
    const during = await conversationWith(channel.id, '351910000001');
    const messages = await thread(during.id);
    expect(messages.map((m) => [m.senderType, m.ai?.decision ?? null])).toEqual([
      ['customer', null],
      ['ai', 'away'],
    ]);
    expect(messages[1]?.content).toBe(DEFAULT_AGENT_TEXTS.away);
    expect(during).toMatchObject({ status: 'escalated', handledBy: 'human', priority: 'high', escalationReason: PAUSED_HANDOFF_REASON });
    expect(sentTexts()).toEqual([DEFAULT_AGENT_TEXTS.away]);
    const handOff = await app.services.notifications.findNotifications(admin.userId, { limit: 50 });
    expect(handOff.notifications.some((n) => n.kind === 'conversation.escalated' && n.link === `/conversations?conversation=${during.id}`)).toBe(true);

    // Its event-triggered automation did not start; Run is refused with a clear reason.
    expect(await executionsOf(automationId)).toEqual([]);
    const run = await manager.client.post(`/api/v1/automations/${automationId}/run`, {});
    expect(run.statusCode).toBe(409);
    expect(run.json().error).toMatchObject({ code: 'CONFLICT', message: AUTOMATION_PAUSED_MESSAGE, details: { reason: 'client_paused' } });

    // A manager resumes it: logged, the administrators told.
    const resumed = expectJson<ClientView>(await manager.client.put(`/api/v1/clients/${client.id}/automation`, { paused: false }), 200);
    expect(resumed).toMatchObject({ automationPausedAt: null, automationPausedBy: null });
    expect(await securityEvents('clients.automation_resumed', client.id)).toEqual([expect.objectContaining({ userId: manager.userId })]);
    const afterResume = await app.services.notifications.findNotifications(admin.userId, { limit: 50 });
    expect(afterResume.notifications.some((n) => n.kind === 'client.automation_resumed' && n.title === `Automation resumed: ${client.companyName}`)).toBe(true);

    // The AI answers again, and the automation starts again.
    graph.reset();
    expect((await customerWrites(phoneNumberId, '351910000002', SHIPPING_QUESTION)).statusCode).toBe(200);
    await app.queue.waitForIdle();
    const after = await conversationWith(channel.id, '351910000002');
    const answered = await thread(after.id);
    expect(answered.map((m) => m.senderType)).toEqual(['customer', 'ai']);
    expect(answered[1]).toMatchObject({ content: SHIPPING_ANSWER });
    expect(answered[1]?.ai?.decision).toBe('answer');
    expect(after).toMatchObject({ status: 'active', handledBy: 'ai' });
    expect(sentTexts()).toEqual([SHIPPING_ANSWER]);
    const started = await eventually(async () => {
      const executions = await executionsOf(automationId);
      return executions.length > 0 && executions;
    }, "the automation's execution");
    expect(started).toEqual([expect.objectContaining({ started_how: 'event', trigger_event_type: 'message.received' })]);
    expect((await manager.client.post(`/api/v1/automations/${automationId}/run`, {})).statusCode).toBe(201);
  });

  it('while paused, a resolved conversation people handled stays with them when the customer writes again (the reopen rule)', async () => {
    const { client, channel } = await createAgentClient(app, {}, 'whatsapp');
    app.services.webhooks.secrets.invalidate();
    const phoneNumberId = channel.externalId!;
    expect((await customerWrites(phoneNumberId, '351910000003', SHIPPING_QUESTION)).statusCode).toBe(200);
    await app.queue.waitForIdle();
    const conversation = await conversationWith(channel.id, '351910000003');
    expectJson(await admin.client.patch(`/api/v1/conversations/${conversation.id}`, { handledBy: 'human', assignedAgentId: admin.userId }), 200);
    expectJson(await admin.client.patch(`/api/v1/conversations/${conversation.id}`, { status: 'resolved' }), 200);
    await app.queue.waitForIdle();
    expectJson(await admin.client.put(`/api/v1/clients/${client.id}/automation`, { paused: true }), 200);

    const before = (await thread(conversation.id)).length;
    expect((await customerWrites(phoneNumberId, '351910000003', 'I have one more question about my parcel')).statusCode).toBe(200);
    await app.queue.waitForIdle();
    expect(await conversationWith(channel.id, '351910000003')).toMatchObject({ status: 'active', handledBy: 'human' });
    // Nothing from the AI: the customer's message is the last one, and people were told of the reopening.
    const now = await thread(conversation.id);
    expect(now.slice(before).map((m) => m.senderType)).toEqual(['customer']);
    const notes = await app.services.notifications.findNotifications(admin.userId, { limit: 50 });
    expect(notes.notifications.some((n) => n.kind === 'conversation.reopened' && n.link?.includes(conversation.id))).toBe(true);
  });

  it('a deactivated client: its users are signed out and cannot sign in, its channels stop accepting; reactivated, both work again', async () => {
    const client = await createTestClient(app, 'Closing Shop');
    const appSecret = 'deactivation-app-secret';
    const wa = await createMetaChannel(app, 'whatsapp', 'pn-deactivate-1', { appSecret, clientId: client.id });
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const api = await createTestChannel(app, { clientId: client.id, kind: 'api' });
    const user = await signedInClientUser(app, client.id, 'Casey Closing');
    const handshake = () => app.inject({ method: 'GET', url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(wa.verifyToken)}&hub.challenge=42` });
    const widget = () => app.inject({ method: 'GET', url: `/api/v1/widget/${web.externalId!}` });
    let apiMessage = 0;
    const postApi = () => {
      const body = JSON.stringify({ contact: { id: 'crm-7' }, message: { id: `crm-msg-${++apiMessage}`, text: 'Hello from the CRM' } });
      return app.inject({ method: 'POST', url: `/api/v1/channels/${api.id}/messages`, payload: body, headers: signApi(body) });
    };
    const stored = async () => (await db().selectFrom('messages').select('id').where('channelId', 'in', [wa.id, web.id, api.id]).execute()).length;
    expect((await handshake()).statusCode).toBe(200);
    expect((await widget()).statusCode).toBe(200);

    const deactivated = expectJson<ClientView>(await admin.client.patch(`/api/v1/clients/${client.id}`, { status: 'inactive' }), 200);
    expect(deactivated.status).toBe('inactive');
    // Signed out at once, and refused with a clear message (only once the password was right).
    expect((await user.client.get('/api/v1/auth/session')).json()).toEqual({ user: null });
    expect(await db().selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()).toEqual([]);
    const refused = await app.client().post('/api/v1/auth/sign-in', { email: user.email, password: PASSWORD });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: { code: 'AUTH_ERROR', message: CLIENT_DEACTIVATED_MESSAGE, details: { reason: 'client_inactive' } } });
    const wrong = await app.client().post('/api/v1/auth/sign-in', { email: user.email, password: 'Wr0ng!Horse#Battery' });
    expect(wrong.json().error.message).toMatch(/^Invalid email or password/u);
    expect(await securityEvents('clients.deactivated', client.id)).toEqual([expect.objectContaining({ userId: admin.userId, details: expect.objectContaining({ sessionsRevoked: 1 }) })]);

    // Its channels answer as disabled ones do: the WhatsApp app's signature matches no accepting
    // channel (401), the handshake is refused, the widget is not found, the API channel refused.
    expect((await customerWrites('pn-deactivate-1', '4915100000001', 'hello?', appSecret)).statusCode).toBe(401);
    expect((await handshake()).statusCode).toBe(403);
    expect((await widget()).statusCode).toBe(404);
    expect((await postApi()).statusCode).toBe(401);
    // When the same Meta app also serves an accepting channel, the delivery is acknowledged and dropped.
    const neighbour = await createTestClient(app, 'Neighbour Shop');
    await createMetaChannel(app, 'whatsapp', 'pn-deactivate-2', { appSecret, clientId: neighbour.id });
    expect((await customerWrites('pn-deactivate-1', '4915100000001', 'anyone there?', appSecret)).statusCode).toBe(200);
    await app.queue.waitForIdle();
    expect(await stored()).toBe(0);

    // Reactivated: sign-in and every channel work again.
    expect(expectJson<ClientView>(await admin.client.patch(`/api/v1/clients/${client.id}`, { status: 'active' }), 200).status).toBe('active');
    expect(await securityEvents('clients.reactivated', client.id)).toHaveLength(1);
    await app.client().signIn(user.email, PASSWORD);
    expect((await handshake()).statusCode).toBe(200);
    expect((await widget()).statusCode).toBe(200);
    expect((await customerWrites('pn-deactivate-1', '4915100000001', 'back again', appSecret)).statusCode).toBe(200);
    expect((await postApi()).statusCode).toBe(201);
    await app.queue.waitForIdle();
    expect(await stored()).toBe(2);
  });

  it('who may flip which switch: the client’s own users and staff pause; only admins deactivate; other clients are not found', async () => {
    const mine = await createTestClient(app);
    const theirs = await createTestClient(app);
    const owner = await signedInClientUser(app, mine.id);
    const manager = await signedInClient(app, 'manager');
    const loose = await signedInClient(app, 'client');
    const pause = (who: TestClient, id: string, body: unknown = { paused: true }) => who.put(`/api/v1/clients/${id}/automation`, body);

    expect((await pause(app.client(), mine.id)).statusCode).toBe(401);
    expect((await pause(owner.client, theirs.id)).statusCode).toBe(404);
    expect((await pause(loose.client, mine.id)).statusCode).toBe(404);
    expect((await pause(admin.client, crypto.randomUUID())).statusCode).toBe(404);
    expect((await pause(admin.client, 'not-a-uuid')).statusCode).toBe(400);
    const invalid = await pause(owner.client, mine.id, { paused: 'yes' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toHaveProperty('paused');
    expect((await pause(owner.client, mine.id, {})).statusCode).toBe(400);
    expect(await securityEvents('clients.automation_paused', theirs.id)).toEqual([]);

    expect(expectJson<ClientView>(await pause(owner.client, mine.id), 200).automationPausedAt).not.toBeNull();
    expect(expectJson<ClientView>(await pause(manager.client, theirs.id), 200).automationPausedAt).not.toBeNull();
    expect(expectJson<ClientView>(await pause(admin.client, theirs.id, { paused: false }), 200).automationPausedAt).toBeNull();

    for (const who of [owner.client, manager.client]) {
      expect((await who.patch(`/api/v1/clients/${mine.id}`, { status: 'inactive' })).statusCode).toBe(403);
    }
    expect((await app.client().patch(`/api/v1/clients/${mine.id}`, { status: 'inactive' })).statusCode).toBe(401);
    expect((await admin.client.patch(`/api/v1/clients/${crypto.randomUUID()}`, { status: 'inactive' })).statusCode).toBe(404);
    expect((await admin.client.patch(`/api/v1/clients/${mine.id}`, { status: 'archived' })).statusCode).toBe(400);
    expect(await securityEvents('clients.deactivated', mine.id)).toEqual([]);
    // The owner's session survived all of that.
    expect((await owner.client.get('/api/v1/auth/session')).json().user).toMatchObject({ email: owner.email });
  });
});
