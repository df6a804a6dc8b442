/**
 * The client dashboard (issue 17 §2, docs/client-dashboard.md), both engines: the five figures of
 * the last 30 days from seeded conversations (exact counts; one conversation 40 days old stays
 * out), "Mark as converted" moving the conversion rate, the recent conversations, the Automation
 * Settings (the agent's auto-response and business hours, the client's lead qualification — off,
 * a customer's e-mail address makes no lead), the paused badge, and who may read or change which
 * client's dashboard (404 across clients), and the Going live steps (active channels, the live
 * knowledge base).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_TEXTS, type AgentView } from '../../../common/api/agents';
import type { AutomationSettingsView, ClientDashboardView } from '../../../common/api/client-dashboard';
import { NOT_A_LEAD_MESSAGE, type ConversationView } from '../../../common/api/conversations';
import { STORE_FAQ } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { dayOf } from './client-dashboard.service';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('client dashboard (%s)', (engine) => {
  let app: TestApp;
  // Real time that a test can move (a conversation of 40 days ago).
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { clock });
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;
  const dashboard = async (who: TestClient, clientId: string) => expectJson<ClientDashboardView>(await who.get(`/api/v1/clients/${clientId}/dashboard`), 200);
  const sum = (days: ClientDashboardView['daily'], key: 'messages' | 'conversations' | 'answered') => days.reduce((total, d) => total + d[key], 0);

  it('computes the five figures of the last 30 days from the client’s conversations; marking a lead converted moves the conversion rate', async () => {
    const client = await createTestClient(app, 'Figures Cafe');
    const other = await createTestClient(app, 'Other Cafe');
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const otherChannel = await createTestChannel(app, { clientId: other.id, kind: 'webchat' });
    const owner = await signedInClientUser(app, client.id, 'Fiona Figures');
    const reply = (conversationId: string, text: string) =>
      app.services.messaging.sendMessage(conversationId, { text, senderType: 'agent', senderId: owner.userId }, { kind: 'user', userId: owner.userId });

    // 40 days ago: a lead that was answered — outside the period.
    offsetMs = -40 * DAY_MS;
    const old = await app.services.messaging.recordInbound(channel, customerText('old-visitor', 'I want to buy a gift card, mail me at old@example.com'));
    await reply(old.conversationId, 'Sure!');
    offsetMs = 0;
    // The database stamps a new conversation with its own clock: started then too.
    await app.queue.waitForIdle();
    await sql`update conversations set created_at = ${new Date(Date.now() - 40 * DAY_MS)} where id = ${old.conversationId}::uuid`.execute(db());
    await app.services.insights.refresh([old.conversationId]);
    // The period: Ana (a lead, answered), Ben (answered, thanks), Cy (a lead by phone, unanswered).
    const ana = await app.services.messaging.recordInbound(channel, customerText('ana', 'Hello! I want to buy the blue bike, my email is ana@example.com', 'Ana'));
    await reply(ana.conversationId, 'Great choice, Ana!');
    const ben = await app.services.messaging.recordInbound(channel, customerText('ben', 'Where is my parcel?', 'Ben'));
    await reply(ben.conversationId, 'It ships today.');
    await app.services.messaging.recordInbound(channel, customerText('ben', 'Thanks a lot', 'Ben'));
    await app.services.messaging.recordInbound(channel, customerText('cy', 'Please call me back on +44 7700 900123', 'Cy'));
    // Another client's conversation counts for that client only.
    await app.services.messaging.recordInbound(otherChannel, customerText('zed', 'Do you sell coffee beans? my email is zed@example.com', 'Zed'));
    await app.queue.waitForIdle();

    const view = await dashboard(owner.client, client.id);
    const today = dayOf(new Date());
    expect(view.period).toEqual({ from: dayOf(new Date(Date.parse(`${today}T00:00:00Z`) - 29 * DAY_MS)), to: today, days: 30 });
    expect(view.client).toMatchObject({ id: client.id, companyName: 'Figures Cafe', status: 'active', automationPausedAt: null });
    expect(view.metrics).toMatchObject({
      totalMessages: 6,
      conversations: 3,
      answeredConversations: 2,
      leadsGenerated: 2,
      convertedLeads: 0,
      conversionRate: 0,
    });
    expect(view.metrics.responseRate).toBeCloseTo(2 / 3, 10);
    // The mean of the two answered conversations' first responses, as the insights module measured them.
    const levels = await db()
      .selectFrom('conversationServiceLevels')
      .select('firstResponseSeconds')
      .where('conversationId', 'in', [ana.conversationId, ben.conversationId])
      .execute();
    expect(levels.map((l) => l.firstResponseSeconds).every((s) => s !== null)).toBe(true);
    expect(view.metrics.avgResponseSeconds).toBeCloseTo(levels.reduce((total, l) => total + (l.firstResponseSeconds ?? 0), 0) / 2, 6);
    expect(view.daily).toHaveLength(30);
    expect(view.daily[0]?.day).toBe(view.period.from);
    expect(view.daily.at(-1)?.day).toBe(view.period.to);
    expect([sum(view.daily, 'messages'), sum(view.daily, 'conversations'), sum(view.daily, 'answered')]).toEqual([6, 3, 2]);
    expect(view.recentConversations.map((c) => [c.customerName, c.status, c.platform])).toEqual([
      ['Cy', 'lead', 'webchat'],
      ['Ben', 'active', 'webchat'],
      ['Ana', 'lead', 'webchat'],
      ['old-visitor', 'lead', 'webchat'],
    ]);
    expect(view.recentConversations[0]).toMatchObject({ lastMessage: 'Please call me back on +44 7700 900123', timestamp: expect.any(String), isLead: true, convertedAt: null });
    expect(view.plan).toBeNull();
    expect(view.subscriptionStatus).toBeNull();

    // Only a lead can be marked converted; marking it again keeps the first time.
    const notLead = await owner.client.put(`/api/v1/conversations/${ben.conversationId}/conversion`, { converted: true });
    expect(notLead.statusCode).toBe(409);
    expect(notLead.json().error).toMatchObject({ code: 'CONFLICT', message: NOT_A_LEAD_MESSAGE, details: { reason: 'not_a_lead' } });
    const converted = expectJson<ConversationView>(await owner.client.put(`/api/v1/conversations/${ana.conversationId}/conversion`, { converted: true }), 200);
    expect(converted.convertedAt).toEqual(expect.any(String));
    const again = expectJson<ConversationView>(await admin.put(`/api/v1/conversations/${ana.conversationId}/conversion`, { converted: true }), 200);
    expect(again.convertedAt).toBe(converted.convertedAt);
    let figures = (await dashboard(owner.client, client.id)).metrics;
    expect(figures).toMatchObject({ leadsGenerated: 2, convertedLeads: 1, conversionRate: 0.5 });
    // The old lead converted is outside the period: the rate does not move.
    expectJson(await owner.client.put(`/api/v1/conversations/${old.conversationId}/conversion`, { converted: true }), 200);
    expect((await dashboard(owner.client, client.id)).metrics).toMatchObject({ convertedLeads: 1, conversionRate: 0.5 });
    // Undone: back to none.
    expect(expectJson<ConversationView>(await owner.client.put(`/api/v1/conversations/${ana.conversationId}/conversion`, { converted: false }), 200).convertedAt).toBeNull();
    figures = (await dashboard(admin, client.id)).metrics;
    expect(figures).toMatchObject({ convertedLeads: 0, conversionRate: 0 });
    expect((await owner.client.put(`/api/v1/conversations/${ana.conversationId}/conversion`, { converted: 'yes' })).statusCode).toBe(400);

    // The other client's figures are its own.
    expect((await dashboard(admin, other.id)).metrics).toMatchObject({ totalMessages: 1, conversations: 1, answeredConversations: 0, leadsGenerated: 1, responseRate: 0, avgResponseSeconds: null });
  });

  it('Automation Settings: auto-response and business hours are the agent’s, lead qualification the client’s; the badge shows a pause', async () => {
    const client = await createTestClient(app, 'Settings Salon');
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const owner = await signedInClientUser(app, client.id, 'Sam Settings');

    const empty = await dashboard(owner.client, client.id);
    expect(empty.metrics).toEqual({
      totalMessages: 0,
      conversations: 0,
      answeredConversations: 0,
      responseRate: null,
      avgResponseSeconds: null,
      leadsGenerated: 0,
      convertedLeads: 0,
      conversionRate: null,
    });
    expect(empty.recentConversations).toEqual([]);
    expect(empty.settings).toEqual({ autoResponse: false, leadQualification: true, businessHours: null, outsideHours: 'answer', awayText: DEFAULT_AGENT_TEXTS.away });

    const hours = { timezone: 'Europe/Lisbon', days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '09:00', close: '18:00' })) };
    const url = `/api/v1/clients/${client.id}/agent-settings`;
    const saved = expectJson<AutomationSettingsView>(await owner.client.patch(url, { autoResponse: true, businessHours: hours, outsideHours: 'away' }), 200);
    expect(saved).toMatchObject({ autoResponse: true, businessHours: hours, outsideHours: 'away', leadQualification: true });
    expect(expectJson<AgentView>(await admin.get(`/api/v1/clients/${client.id}/agent`), 200)).toMatchObject({ enabled: true, businessHours: hours, outsideHours: 'away' });
    const badZone = await owner.client.patch(url, { businessHours: { timezone: 'Mars/Olympus', days: [] } });
    expect(badZone.statusCode).toBe(400);
    expect(Object.keys(badZone.json().error.fields ?? {}).some((key) => key.startsWith('businessHours'))).toBe(true);
    expect((await owner.client.patch(url, { businessHours: { timezone: 'UTC', days: [{ day: 1, open: '18:00', close: '09:00' }] } })).statusCode).toBe(400);
    expect((await owner.client.patch(url, {})).statusCode).toBe(400);
    // Nothing of a refused change was stored.
    expect((await dashboard(owner.client, client.id)).settings).toMatchObject({ autoResponse: true, businessHours: hours });
    expect(expectJson<AutomationSettingsView>(await owner.client.patch(url, { autoResponse: false, businessHours: null }), 200)).toMatchObject({ autoResponse: false, businessHours: null, outsideHours: 'away' });

    // Lead qualification off: an e-mail address makes no lead; on again, the next signal does.
    const leads = `/api/v1/clients/${client.id}/lead-qualification`;
    expect(expectJson<AutomationSettingsView>(await owner.client.put(leads, { enabled: false }), 200).leadQualification).toBe(false);
    const dee = await app.services.messaging.recordInbound(channel, customerText('dee', 'Hi, my email is dee@example.com', 'Dee'));
    const isLead = async () => (await db().selectFrom('conversations').select('isLead').where('id', '=', dee.conversationId).executeTakeFirstOrThrow()).isLead;
    expect(await isLead()).toBe(false);
    expect((await dashboard(owner.client, client.id)).metrics.leadsGenerated).toBe(0);
    expect(expectJson<AutomationSettingsView>(await owner.client.put(leads, { enabled: true }), 200).leadQualification).toBe(true);
    await app.services.messaging.recordInbound(channel, customerText('dee', 'You can also call +44 7700 900456', 'Dee'));
    expect(await isLead()).toBe(true);
    expect((await dashboard(owner.client, client.id)).metrics.leadsGenerated).toBe(1);
    expect((await owner.client.put(leads, { enabled: 'no' })).statusCode).toBe(400);

    // Paused: the badge and the header say so, and who paused it.
    expectJson(await owner.client.put(`/api/v1/clients/${client.id}/automation`, { paused: true }), 200);
    const paused = await dashboard(owner.client, client.id);
    expect(paused.subscriptionStatus).toBe('paused');
    expect(paused.client).toMatchObject({ automationPausedAt: expect.any(String), automationPausedBy: 'Sam Settings' });
    expectJson(await owner.client.put(`/api/v1/clients/${client.id}/automation`, { paused: false }), 200);
    expect((await dashboard(owner.client, client.id)).subscriptionStatus).toBeNull();
  });

  it('Going live: the active channels and their kinds, and the knowledge base once it is live', async () => {
    const client = await createTestClient(app, 'Live Lamps');
    const owner = await signedInClientUser(app, client.id, 'Lena Live');
    expect((await dashboard(owner.client, client.id)).goLive).toEqual({ channels: 0, channelKinds: [], knowledgeLive: false, liveEntries: 0, training: false });

    await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const off = await createTestChannel(app, { clientId: client.id, kind: 'messenger' });
    await db().updateTable('channels').set({ status: 'disabled' }).where('id', '=', off.id).execute();
    // Another client's channel is not this one's.
    await createTestChannel(app, { clientId: (await createTestClient(app, 'Other Lamps')).id, kind: 'instagram' });
    expect((await dashboard(owner.client, client.id)).goLive).toMatchObject({ channels: 2, channelKinds: ['whatsapp'], knowledgeLive: false });

    await app.services.agents.importKnowledge(client.id, { format: 'json', content: JSON.stringify(STORE_FAQ), mode: 'replace' });
    await app.queue.waitForIdle();
    expect((await dashboard(owner.client, client.id)).goLive).toEqual({ channels: 2, channelKinds: ['whatsapp'], knowledgeLive: true, liveEntries: STORE_FAQ.length, training: false });
  });

  it('a client user reads and changes only their own client’s dashboard; staff any; nobody else', async () => {
    const mine = await createTestClient(app);
    const theirs = await createTestClient(app);
    const theirChannel = await createTestChannel(app, { clientId: theirs.id, kind: 'webchat' });
    const theirLead = await app.services.messaging.recordInbound(theirChannel, customerText('eve', 'my email is eve@example.com', 'Eve'));
    const owner = await signedInClientUser(app, mine.id);
    const manager = (await signedInClient(app, 'manager')).client;
    const loose = (await signedInClient(app, 'client')).client;

    expect((await owner.client.get(`/api/v1/clients/${mine.id}/dashboard`)).statusCode).toBe(200);
    for (const [who, id] of [
      [owner.client, theirs.id],
      [loose, mine.id],
      [admin, crypto.randomUUID()],
    ] as const) {
      expect((await who.get(`/api/v1/clients/${id}/dashboard`)).statusCode).toBe(404);
      expect((await who.patch(`/api/v1/clients/${id}/agent-settings`, { autoResponse: true })).statusCode).toBe(404);
      expect((await who.put(`/api/v1/clients/${id}/lead-qualification`, { enabled: false })).statusCode).toBe(404);
    }
    expect((await owner.client.put(`/api/v1/conversations/${theirLead.conversationId}/conversion`, { converted: true })).statusCode).toBe(404);
    for (const who of [manager, admin]) {
      expect((await who.get(`/api/v1/clients/${theirs.id}/dashboard`)).statusCode).toBe(200);
      expect((await who.put(`/api/v1/clients/${theirs.id}/lead-qualification`, { enabled: true })).statusCode).toBe(200);
    }
    expect((await admin.get('/api/v1/clients/not-a-uuid/dashboard')).statusCode).toBe(400);
    const anonymous = app.client();
    expect((await anonymous.get(`/api/v1/clients/${mine.id}/dashboard`)).statusCode).toBe(401);
    expect((await anonymous.patch(`/api/v1/clients/${mine.id}/agent-settings`, { autoResponse: true })).statusCode).toBe(401);
    expect((await anonymous.put(`/api/v1/clients/${mine.id}/lead-qualification`, { enabled: true })).statusCode).toBe(401);
    // Nothing was changed by the refused calls.
    expect((await db().selectFrom('conversations').select('convertedAt').where('id', '=', theirLead.conversationId).executeTakeFirstOrThrow()).convertedAt).toBeNull();
    expect((await dashboard(admin, mine.id)).settings).toMatchObject({ autoResponse: false, leadQualification: true });
  });
});
