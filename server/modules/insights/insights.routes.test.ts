/**
 * GET /api/v1/insights and its CSV (issue 16 §2, common/api/insights.ts) on both engines: figures
 * of a seeded history computed by hand (the period against the one before, per agent and per
 * client, by channel, six months of trends with zeros), a client user reading only their own
 * client, validation with field messages, and the CSV export.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREND_MONTHS, type InsightsView } from '../../../common/api/insights';
import type { SummaryView } from '../../../common/api/summary';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Channel, ConversationStatus, SenderType } from '../../db/schema';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(ENGINES)('insights API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let person: { userId: string };
  let alpha: { id: string; companyName: string };
  let beta: { id: string; companyName: string };
  let quiet: { id: string; companyName: string };
  let alphaUser: TestClient;
  const now = Date.now();
  const ago = (ms: number) => new Date(now - ms).toISOString();

  /** A conversation and its messages (each step: who, how long after the start) written as history, then its row computed. */
  async function seed(
    channel: Channel,
    startedAgo: number,
    steps: readonly [SenderType, number][],
    options: { status?: ConversationStatus; resolvedAfter?: number; assignedAgentId?: string; rating?: number } = {},
  ): Promise<string> {
    const db = app.database.db;
    const started = now - startedAgo;
    const contact = await db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('conversations')
      .values({
        clientId: channel.clientId,
        channelId: channel.id,
        contactId: contact.id,
        status: options.status ?? 'active',
        handledBy: steps.some(([sender]) => sender === 'agent') ? 'human' : 'ai',
        assignedAgentId: options.assignedAgentId ?? null,
        createdAt: new Date(started).toISOString(),
        updatedAt: new Date(started + (options.resolvedAfter ?? 0)).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [sender, after] of steps) {
      const inbound = sender === 'customer';
      await db
        .insertInto('messages')
        .values({
          conversationId: id,
          clientId: channel.clientId,
          channelId: channel.id,
          direction: inbound ? 'inbound' : 'outbound',
          senderType: sender,
          senderId: sender === 'agent' ? person.userId : null,
          content: `${sender} after ${after} ms`,
          status: inbound ? 'received' : 'sent',
          createdAt: new Date(started + after).toISOString(),
        })
        .execute();
    }
    if (options.rating !== undefined) {
      const resolvedAt = new Date(started + (options.resolvedAfter ?? 0));
      await db
        .insertInto('satisfactionSurveys')
        .values({
          clientId: channel.clientId,
          conversationId: id,
          channelId: channel.id,
          resolvedAt,
          question: 'How did we do?',
          status: 'answered',
          rating: options.rating,
          answeredAt: new Date(resolvedAt.getTime() + MINUTE),
          expiresAt: new Date(resolvedAt.getTime() + 7 * DAY),
        })
        .execute();
    }
    await app.services.insights.refresh([id]);
    return id;
  }

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
    person = await signedInClient(app, 'manager', { name: 'Maya Manager' });
    const a = await createTestClient(app, `Alpha ${randomUUID().slice(0, 6)}`);
    const b = await createTestClient(app, `Beta ${randomUUID().slice(0, 6)}`);
    const q = await createTestClient(app, `Quiet ${randomUUID().slice(0, 6)}`);
    alpha = { id: a.id, companyName: a.companyName };
    beta = { id: b.id, companyName: b.companyName };
    quiet = { id: q.id, companyName: q.companyName };
    const alphaChat = await createTestChannel(app, { clientId: alpha.id, kind: 'webchat' });
    const alphaWhatsApp = await createTestChannel(app, { clientId: alpha.id, kind: 'whatsapp' });
    const betaChat = await createTestChannel(app, { clientId: beta.id, kind: 'webchat' });
    alphaUser = (await signedInClientUser(app, alpha.id)).client;

    // This week (the last 7 days), Alpha: the AI answers in 30 s and resolves it (automated);
    // the AI answers in 90 s, then a person (assigned) writes and resolves it; nobody answers one
    // on WhatsApp. Beta: a person answers in 10 min, unresolved.
    // Rated 5 and 2 (the week before: 4).
    await seed(alphaChat, 2 * HOUR, [['customer', 0], ['ai', 30_000]], { status: 'resolved', resolvedAfter: 10 * MINUTE, rating: 5 });
    await seed(alphaChat, 3 * DAY, [['customer', 0], ['ai', 90_000], ['customer', 5 * MINUTE], ['agent', 6 * MINUTE]], {
      status: 'resolved',
      resolvedAfter: HOUR,
      rating: 2,
      assignedAgentId: person.userId,
    });
    await seed(alphaWhatsApp, 5 * DAY, [['customer', 0]]);
    await seed(betaChat, 6 * DAY, [['customer', 0], ['agent', 10 * MINUTE]]);
    // The week before: one Alpha conversation, automated in 60 s.
    await seed(alphaChat, 9 * DAY, [['customer', 0], ['ai', 60_000]], { status: 'resolved', resolvedAfter: 5 * MINUTE, rating: 4 });
    // Two months ago: outside both periods, in the trends.
    await seed(alphaChat, 62 * DAY, [['customer', 0], ['ai', 5_000]]);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const only = (view: InsightsView, ids: readonly string[]) => ({ ...view, clients: view.clients.filter((c) => ids.includes(c.clientId)) });

  it('gives the period’s figures against the period before, computed from the conversations', async () => {
    const view = expectJson<InsightsView>(await admin.get(`/api/v1/insights?period=7d&clientId=${alpha.id}`), 200);
    expect(view.clientId).toBe(alpha.id);
    expect(Date.parse(view.period.to) - Date.parse(view.period.from)).toBe(7 * DAY);
    expect(view.previous.to).toBe(view.period.from);
    expect(view.metrics.conversations).toEqual({ value: 3, previous: 1 });
    // First responses 30 s and 90 s (the unanswered one has none): median 60 s; before: 60 s.
    expect(view.metrics.medianFirstResponseSeconds).toEqual({ value: 60, previous: 60 });
    expect(view.metrics.automatedResolutionRate).toEqual({ value: 1 / 3, previous: 1 });
    // Rated 5 and 2 this week, 4 the week before.
    expect(view.metrics.satisfaction).toEqual({ value: 3.5, previous: 4 });
    expect(view.ratingsCollected).toBe(true);
    expect(view.totals).toEqual({ conversations: 3, messages: 2 + 4 + 1, answered: 2, resolved: 2, automated: 1, handedOff: 0, reopened: 0, ratings: 2, satisfied: 1 });
    expect(view.medians.resolutionSeconds).toBe((10 * 60 + 3600) / 2);
    expect(view.distribution.conversationsByChannel).toEqual([
      { key: 'webchat', label: 'Website chat', count: 2 },
      { key: 'whatsapp', label: 'WhatsApp', count: 1 },
    ]);
    expect(view.distribution.clientsByStatus).toEqual([{ key: 'active', label: 'Active', count: 1 }]);
  });

  it('ranks the AI agent of each client and each person by conversations', async () => {
    const view = expectJson<InsightsView>(await admin.get('/api/v1/insights?period=7d'), 200);
    const mine = view.agents.filter((a) => a.id === `ai:${alpha.id}` || a.id === person.userId);
    expect(mine).toEqual([
      {
        id: `ai:${alpha.id}`,
        kind: 'ai',
        name: expect.any(String),
        clientName: alpha.companyName,
        conversations: 2,
        resolved: 2,
        resolutionRate: 1,
        medianFirstResponseSeconds: 60,
        // It answered both rated conversations first: 5 and 2.
        satisfaction: 3.5,
        ratings: 2,
      },
      {
        id: person.userId,
        kind: 'person',
        name: 'Maya Manager',
        clientName: null,
        // The assigned Alpha conversation, and Beta's, which they answered first.
        conversations: 2,
        resolved: 1,
        resolutionRate: 0.5,
        // 90 s (the AI answered that one first) and 600 s.
        medianFirstResponseSeconds: 345,
        // Their assigned conversation was rated 2; Beta's was not rated.
        satisfaction: 2,
        ratings: 1,
      },
    ]);
    // Every client, most conversations first: one without a conversation in the period too, at zero.
    const clients = only(view, [alpha.id, beta.id, quiet.id]).clients;
    expect(clients.map((c) => [c.name, c.totals.conversations, c.automatedResolutionRate, c.handoffRate, c.medianFirstResponseSeconds, c.satisfaction])).toEqual([
      [alpha.companyName, 3, 1 / 3, 0, 60, 3.5],
      [beta.companyName, 1, 0, 0, 600, null],
      [quiet.companyName, 0, null, null, null, null],
    ]);
    expect(clients.at(-1)!.totals).toEqual({ conversations: 0, messages: 0, answered: 0, resolved: 0, automated: 0, handedOff: 0, reopened: 0, ratings: 0, satisfied: 0 });
  });

  it('gives six months of trends, oldest first, with zeros for months without data', async () => {
    const view = expectJson<InsightsView>(await admin.get(`/api/v1/insights?period=30d&clientId=${alpha.id}`), 200);
    expect(view.trends).toHaveLength(TREND_MONTHS);
    const thisMonth = new Date(now).toISOString().slice(0, 7);
    expect(view.trends.at(-1)!.month).toBe(thisMonth);
    const expected = new Map<string, number>();
    for (const startedAgo of [2 * HOUR, 3 * DAY, 5 * DAY, 9 * DAY, 62 * DAY]) {
      const month = ago(startedAgo).slice(0, 7);
      expected.set(month, (expected.get(month) ?? 0) + 1);
    }
    for (const month of view.trends) expect(month.conversations).toBe(expected.get(month.month) ?? 0);
    expect(view.trends.filter((m) => m.conversations === 0).every((m) => m.messages === 0 && m.automatedResolutionRate === null && m.satisfaction === null)).toBe(true);
    expect(view.trends.reduce((sum, m) => sum + m.conversations, 0)).toBe(5);
  });

  it('a client user reads only their own client, whatever client the query names', async () => {
    const own = expectJson<InsightsView>(await alphaUser.get(`/api/v1/insights?period=7d&clientId=${beta.id}`), 200);
    expect(own.clientId).toBe(alpha.id);
    expect(own.metrics.conversations.value).toBe(3);
    expect(own.clients.map((c) => c.clientId)).toEqual([alpha.id]);
    expect(own.agents.every((a) => a.id === `ai:${alpha.id}` || a.kind === 'person')).toBe(true);
    // The person's figures cover Alpha's conversation only.
    expect(own.agents.find((a) => a.kind === 'person')).toMatchObject({ conversations: 1, medianFirstResponseSeconds: 90 });
    expect(JSON.stringify(own)).not.toContain(beta.companyName);
    const csv = await alphaUser.get(`/api/v1/insights/export.csv?period=7d&clientId=${beta.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(beta.companyName);
  });

  it('refuses a malformed query with field messages, and anyone signed out', async () => {
    const missing = await admin.get('/api/v1/insights?period=custom');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: { fields: { from: 'Choose the first day of the period', to: 'Choose the last day of the period' } } });
    const backwards = await admin.get(`/api/v1/insights?period=custom&from=${encodeURIComponent(ago(0))}&to=${encodeURIComponent(ago(DAY))}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ error: { fields: { to: 'The period must end after it starts' } } });
    const tooLong = await admin.get(`/api/v1/insights?period=custom&from=${encodeURIComponent(ago(400 * DAY))}&to=${encodeURIComponent(ago(0))}`);
    expect(tooLong.json()).toMatchObject({ error: { fields: { to: 'Choose at most 366 days' } } });
    expect((await admin.get('/api/v1/insights?period=year')).statusCode).toBe(400);
    expect((await admin.get('/api/v1/insights?clientId=nope')).statusCode).toBe(400);
    expect((await app.client().get('/api/v1/insights')).statusCode).toBe(401);
  });

  it('a custom range covers exactly the conversations started in it', async () => {
    const from = encodeURIComponent(ago(4 * DAY));
    const to = encodeURIComponent(ago(3 * HOUR));
    const view = expectJson<InsightsView>(await admin.get(`/api/v1/insights?period=custom&from=${from}&to=${to}&clientId=${alpha.id}`), 200);
    // The 3-day-old conversation only (the 5-day-old one started before `from`, the 2-hour-old one after `to`).
    expect(view.metrics.conversations.value).toBe(1);
    expect(view.period).toEqual({ kind: 'custom', from: ago(4 * DAY), to: ago(3 * HOUR) });
  });

  it('exports the figures shown as CSV', async () => {
    const response = await admin.get(`/api/v1/insights/export.csv?period=7d&clientId=${alpha.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="insights-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/u);
    const lines = response.body.split('\r\n');
    expect(lines).toContain('Metric,Value,Previous period');
    expect(lines).toContain('Total conversations,3,1');
    expect(lines).toContain('Median first response (s),60,60');
    expect(lines).toContain('Automated resolution (%),33.3,100');
    expect(lines).toContain('Customer satisfaction (of 5),3.5,4');
    expect(lines).toContain('Ratings,2,');
    expect(lines.some((line) => line.startsWith(`${alpha.companyName},active,3,7,2,33.3,0,60,`) && line.endsWith(',3.5,2'))).toBe(true);
  });
});

describe.each(ENGINES)('AI summary API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let clientId: string;
  let otherUser: TestClient;
  const FROM = '2026-05-10T00:00:00.000Z';
  const TO = '2026-05-11T00:00:00.000Z';
  const query = (extra = '') => `/api/v1/summary?period=custom&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&clientId=${clientId}${extra}`;

  /** A customer's question and the AI's reply with what it matched, in a conversation of its own. */
  async function question(
    channel: Channel,
    at: string,
    text: string,
    reply: { decision: 'answer' | 'handoff' | 'fallback' | 'greeting'; confidence: number; source?: { id: string; title: string } },
    escalated = false,
  ): Promise<void> {
    const db = app.database.db;
    const contact = await db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('conversations')
      .values({ clientId: channel.clientId, channelId: channel.id, contactId: contact.id, createdAt: at, updatedAt: at, escalationReason: escalated ? 'Asked for a person' : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = { conversationId: id, clientId: channel.clientId, channelId: channel.id };
    await db.insertInto('messages').values({ ...base, direction: 'inbound', senderType: 'customer', content: text, status: 'received', createdAt: at }).execute();
    const replyAt = new Date(Date.parse(at) + 20_000).toISOString();
    const ai = {
      engine: 'embedded',
      model: 'test',
      decision: reply.decision,
      confidence: reply.confidence,
      sources: reply.source ? [{ kind: 'faq', id: reply.source.id, title: reply.source.title }] : [],
      latencyMs: 1,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      knowledgeVersion: 1,
    };
    await db
      .insertInto('messages')
      .values({ ...base, direction: 'outbound', senderType: 'ai', content: 'reply', status: 'sent', aiConfidence: reply.confidence, ai: JSON.stringify(ai), createdAt: replyAt })
      .execute();
    await app.services.insights.refresh([id]);
  }

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
    const client = await createTestClient(app);
    clientId = client.id;
    const chat = await createTestChannel(app, { clientId, kind: 'webchat' });
    const whatsapp = await createTestChannel(app, { clientId, kind: 'whatsapp' });
    const other = await createTestClient(app);
    const otherChat = await createTestChannel(app, { clientId: other.id, kind: 'webchat' });
    otherUser = (await signedInClientUser(app, other.id)).client;
    const hours = { id: 'e-hours', title: 'Opening hours' };
    const returns = { id: 'e-returns', title: 'Returns' };
    // The period: three questions on opening hours (one handed off), two on returns (both handed
    // off), one the agent matched too weakly and one it matched to nothing, and a greeting.
    await question(chat, '2026-05-10T10:15:00Z', 'when do you open on saturday?', { decision: 'answer', confidence: 0.9, source: hours });
    await question(chat, '2026-05-10T10:40:00Z', 'till what time are you open?', { decision: 'answer', confidence: 0.9, source: hours });
    await question(whatsapp, '2026-05-10T16:05:00Z', 'are you open on bank holidays', { decision: 'handoff', confidence: 0.6, source: hours });
    await question(chat, '2026-05-10T11:00:00Z', 'can I send back a bike?', { decision: 'handoff', confidence: 0.55, source: returns }, true);
    await question(whatsapp, '2026-05-10T12:00:00Z', 'refund for a helmet', { decision: 'handoff', confidence: 0.55, source: returns }, true);
    await question(chat, '2026-05-10T13:00:00Z', 'do you sell gift cards?', { decision: 'handoff', confidence: 0.2, source: returns }, true);
    await question(chat, '2026-05-10T14:00:00Z', 'do you repair e-scooters?', { decision: 'fallback', confidence: 0.1 });
    await question(chat, '2026-05-10T15:00:00Z', 'hello', { decision: 'greeting', confidence: 1 });
    // The day before: one question on opening hours.
    await question(chat, '2026-05-09T09:00:00Z', 'what are your hours', { decision: 'answer', confidence: 0.95, source: hours });
    // Another client's question in the period.
    await question(otherChat, '2026-05-10T10:00:00Z', 'secret other client question', { decision: 'fallback', confidence: 0.1 });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('gives the overview, the topics by matched entry and the questions the knowledge base misses', async () => {
    const view = expectJson<SummaryView>(await admin.get(query()), 200);
    expect(view.period).toEqual({ kind: 'custom', from: FROM, to: TO });
    expect(view.overview).toEqual({
      totalConversations: 8,
      // Every conversation answered 20 s after the question.
      averageResponseTime: 20,
      // The seven questions' replies (the greeting is no question).
      aiConfidence: expect.closeTo((0.9 + 0.9 + 0.6 + 0.55 + 0.55 + 0.2 + 0.1) / 7, 6),
      escalationRate: 3 / 8,
      // Nobody rated these conversations.
      customerSatisfaction: null,
    });
    expect(view.ratingsCollected).toBe(true);
    expect(view.insights).toEqual([
      {
        id: 'faq:e-hours',
        title: 'Opening hours',
        type: 'trending',
        count: 3,
        trend: 2,
        confidence: expect.closeTo(0.8, 6),
        answered: 2,
        handedOff: 1,
        summary: '3 questions: the AI answered 2, handed 1 to a person, +200 % on the period before.',
        missingFromKnowledgeBase: false,
        examples: [],
        clientId,
        suggestedQuestion: null,
        variants: [],
      },
      {
        id: 'faq:e-returns',
        title: 'Returns',
        type: 'escalation',
        count: 2,
        trend: null,
        confidence: expect.closeTo(0.55, 6),
        answered: 0,
        handedOff: 2,
        summary: '2 questions: the AI answered 0, handed 2 to a person, none the period before.',
        missingFromKnowledgeBase: false,
        examples: [],
        clientId,
        suggestedQuestion: null,
        variants: [],
      },
      {
        id: 'unmatched',
        title: 'Questions the knowledge base does not answer',
        type: 'escalation',
        count: 2,
        trend: null,
        confidence: expect.closeTo(0.15, 6),
        answered: 0,
        handedOff: 1,
        summary: '2 questions: the AI answered 0, handed 1 to a person, none the period before.',
        // Two one-off questions: no topic of their own to write an entry for (summary-topics.routes.test.ts has the groups).
        missingFromKnowledgeBase: false,
        examples: ['do you repair e-scooters?', 'do you sell gift cards?'],
        clientId,
        suggestedQuestion: null,
        variants: [],
      },
    ]);
  });

  it('gives activity by hour of the viewer’s day and by channel', async () => {
    const utc = expectJson<SummaryView>(await admin.get(query()), 200);
    expect(utc.performance.byTimeOfDay).toHaveLength(24);
    const nonEmpty = (view: SummaryView) => view.performance.byTimeOfDay.filter((b) => b.conversations > 0).map((b) => [b.label, b.conversations]);
    expect(nonEmpty(utc)).toEqual([
      ['10:00', 2],
      ['11:00', 1],
      ['12:00', 1],
      ['13:00', 1],
      ['14:00', 1],
      ['15:00', 1],
      ['16:00', 1],
    ]);
    // India is UTC+5:30: 10:15Z is 15:45, 10:40Z is 16:10 — the hour buckets are UTC hours placed at their local start.
    const india = expectJson<SummaryView>(await admin.get(query('&timeZone=Asia/Kolkata')), 200);
    expect(india.timeZone).toBe('Asia/Kolkata');
    expect(nonEmpty(india).map(([label]) => label)).toEqual(['15:00', '16:00', '17:00', '18:00', '19:00', '20:00', '21:00']);
    expect(utc.performance.byChannel).toEqual([
      { key: 'webchat', label: 'Website chat', conversations: 6, confidence: expect.closeTo((0.9 + 0.9 + 0.55 + 0.2 + 0.1) / 5, 6) },
      { key: 'whatsapp', label: 'WhatsApp', conversations: 2, confidence: expect.closeTo((0.6 + 0.55) / 2, 6) },
    ]);
  });

  it('a client user sees only their own questions; a bad time zone is a field error', async () => {
    const own = expectJson<SummaryView>(await otherUser.get(query()), 200);
    expect(own.overview.totalConversations).toBe(1);
    expect(own.insights.map((t) => [t.id, t.examples])).toEqual([['unmatched', ['secret other client question']]]);
    const mine = expectJson<SummaryView>(await admin.get(query()), 200);
    expect(JSON.stringify(mine)).not.toContain('secret other client question');
    const bad = await admin.get(query('&timeZone=Mars/Olympus'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { timeZone: 'Unknown time zone' } } });
  });
});
