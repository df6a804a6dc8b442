/**
 * The report files and the AI Summary's share links (issue 16 §2–3, common/api/reports.ts,
 * common/api/summary-shares.ts) on both engines: real PDFs whose text (read back out of the file)
 * holds the figures of a seeded history, the summary's CSV, tenant isolation of every file and
 * link, links that open without sign-in until they expire or are revoked, and the 4xx answers with
 * their field messages.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SummaryView } from '../../../common/api/summary';
import { REPORT_UNSHOWN_TEXT } from '../../../common/api/reports';
import { type CreatedSummaryShare, SHARE_GONE_MESSAGE, type SharedSummaryView, sharedSummaryView, type SummaryShare } from '../../../common/api/summary-shares';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { pdfText } from '../../../test/helpers/pdf-text';
import type { Channel, ConversationStatus, SenderType } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The AI Summary's seeded day. */
const FROM = '2026-05-10T00:00:00.000Z';
const TO = '2026-05-11T00:00:00.000Z';
const CYRILLIC_QUESTION = 'Можно ли взять велосипед напрокат?';

describe.each(ENGINES)('reports and share links (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;
  let person: { userId: string };
  let alpha: { id: string; companyName: string };
  let beta: { id: string; companyName: string };
  let alphaUser: TestClient;
  let alphaColleague: TestClient;
  let betaUser: TestClient;
  const now = Date.now();

  /** A conversation and its messages (each step: who, how long after the start) written as history, then its row computed. */
  async function seed(
    channel: Channel,
    startedAgo: number,
    steps: readonly [SenderType, number][],
    options: { status?: ConversationStatus; resolvedAfter?: number; assignedAgentId?: string; rating?: number } = {},
  ): Promise<void> {
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
  }

  /** A customer's question and the AI's reply 20 s later with what it matched, in a conversation of its own. */
  async function question(
    channel: Channel,
    at: string,
    text: string,
    reply: { decision: 'answer' | 'handoff' | 'fallback'; confidence: number; source?: { id: string; title: string } },
  ): Promise<void> {
    const db = app.database.db;
    const contact = await db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('conversations')
      .values({ clientId: channel.clientId, channelId: channel.id, contactId: contact.id, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = { conversationId: id, clientId: channel.clientId, channelId: channel.id };
    await db.insertInto('messages').values({ ...base, direction: 'inbound', senderType: 'customer', content: text, status: 'received', createdAt: at }).execute();
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
      .values({
        ...base,
        direction: 'outbound',
        senderType: 'ai',
        content: 'reply',
        status: 'sent',
        aiConfidence: reply.confidence,
        ai: JSON.stringify(ai),
        createdAt: new Date(Date.parse(at) + 20_000).toISOString(),
      })
      .execute();
    await app.services.insights.refresh([id]);
  }

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
    const maya = await signedInClient(app, 'manager', { name: 'Maya Manager' });
    manager = maya.client;
    person = maya;
    const a = await createTestClient(app, `Alpha Bikes ${randomUUID().slice(0, 6)}`);
    const b = await createTestClient(app, `Beta Boats ${randomUUID().slice(0, 6)}`);
    alpha = { id: a.id, companyName: a.companyName };
    beta = { id: b.id, companyName: b.companyName };
    const alphaChat = await createTestChannel(app, { clientId: alpha.id, kind: 'webchat' });
    const alphaWhatsApp = await createTestChannel(app, { clientId: alpha.id, kind: 'whatsapp' });
    const betaChat = await createTestChannel(app, { clientId: beta.id, kind: 'webchat' });
    alphaUser = (await signedInClientUser(app, alpha.id)).client;
    alphaColleague = (await signedInClientUser(app, alpha.id)).client;
    betaUser = (await signedInClientUser(app, beta.id)).client;

    // The last 7 days, Alpha: the AI answers in 30 s and resolves it (rated 5); the AI answers in
    // 90 s, then Maya (assigned) writes and resolves it (rated 2); nobody answers one on WhatsApp.
    // Beta: Maya answers in 10 min. The week before: one Alpha conversation automated in 60 s (rated 4).
    await seed(alphaChat, 2 * HOUR, [['customer', 0], ['ai', 30_000]], { status: 'resolved', resolvedAfter: 10 * MINUTE, rating: 5 });
    await seed(alphaChat, 3 * DAY, [['customer', 0], ['ai', 90_000], ['customer', 5 * MINUTE], ['agent', 6 * MINUTE]], {
      status: 'resolved',
      resolvedAfter: HOUR,
      rating: 2,
      assignedAgentId: person.userId,
    });
    await seed(alphaWhatsApp, 5 * DAY, [['customer', 0]]);
    await seed(betaChat, 6 * DAY, [['customer', 0], ['agent', 10 * MINUTE]]);
    await seed(alphaChat, 9 * DAY, [['customer', 0], ['ai', 60_000]], { status: 'resolved', resolvedAfter: 5 * MINUTE, rating: 4 });

    // The AI Summary's day, Alpha: two questions on opening hours, one the knowledge base does not
    // answer (in Russian) and one it matched too weakly. Beta: a question of its own.
    const hours = { id: 'e-hours', title: 'Opening hours' };
    await question(alphaChat, '2026-05-10T09:15:00Z', 'when do you open on saturday?', { decision: 'answer', confidence: 0.9, source: hours });
    await question(alphaWhatsApp, '2026-05-10T09:40:00Z', 'till what time are you open?', { decision: 'answer', confidence: 0.8, source: hours });
    await question(alphaChat, '2026-05-10T14:00:00Z', CYRILLIC_QUESTION, { decision: 'fallback', confidence: 0.1 });
    await question(alphaChat, '2026-05-10T15:00:00Z', 'do you sell gift cards?', { decision: 'handoff', confidence: 0.2, source: hours });
    await question(betaChat, '2026-05-10T10:00:00Z', 'secret beta question', { decision: 'fallback', confidence: 0.1 });
  });
  afterAll(async () => {
    await app.destroy();
  });

  const summaryQuery = (clientId: string | null, extra = '') =>
    `period=custom&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}${clientId ? `&clientId=${clientId}` : ''}${extra}`;

  describe('the insights PDF', () => {
    it('is a real PDF of the period’s figures against the period before, per agent, per client and per month', async () => {
      const response = await admin.get(`/api/v1/insights/report.pdf?period=7d&clientId=${alpha.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="insights-report-alpha-bikes-[0-9a-f]{6}-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf"$/u);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(response.rawPayload);
      expect(text).toContain('Analytics & Insights');
      expect(text).toContain(`Client: ${alpha.companyName}`);
      // The four cards: 3 conversations (1 before), median first response 60 s (60 s before),
      // automated 1 of 3 (1 of 1 before), rated 5 and 2 (4 before).
      expect(text).toMatch(/Total conversations\n3\nPrevious period: 1\nChange: \+200%/u);
      expect(text).toMatch(/Median first response\n1 min\nPrevious period: 1 min\nChange: 0%/u);
      expect(text).toMatch(/Automated resolution\n33\.3%\nPrevious period: 100%\nChange: -66\.7 pp/u);
      expect(text).toMatch(/Customer satisfaction\n3\.5 \/ 5\nPrevious period: 4\.0 \/ 5\nChange: -12%/u);
      // Totals, then the agents: Alpha's AI agent (2 conversations) and Maya (1, her assigned one).
      expect(text).toMatch(/Resolved by the AI alone\n1\n/u);
      expect(text).toContain('Top performing agents');
      expect(text).toMatch(/Maya Manager\nPerson\n—\n1\n1\n100%\n2 min\n2\.0 \/ 5 \(1\)/u);
      // The client's row, then six months of trends with the current month's 3 + 1 conversations.
      expect(text).toMatch(/\nactive\n3\n7\n2\n33\.3%\n0%\n1 min\n35 min\n3\.5 \/ 5/u);
      expect(text).toContain('Six-month trends');
      const month = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(now));
      expect(text).toContain(month);
      expect(text).not.toContain(beta.companyName);
      expect(text).toContain('Parley · Analytics & Insights · page 1 of ');
    });

    it('a client user gets only their own client, whatever client the query names', async () => {
      const response = await alphaUser.get(`/api/v1/insights/report.pdf?period=7d&clientId=${beta.id}`);
      expect(response.statusCode).toBe(200);
      const text = pdfText(response.rawPayload);
      expect(text).toContain(`Client: ${alpha.companyName}`);
      expect(text).toMatch(/Total conversations\n3\n/u);
      expect(text).not.toContain(beta.companyName);
      const own = pdfText((await betaUser.get(`/api/v1/insights/report.pdf?period=7d&clientId=${alpha.id}`)).rawPayload);
      expect(own).toContain(`Client: ${beta.companyName}`);
      expect(own).toMatch(/Total conversations\n1\n/u);
      expect(own).not.toContain(alpha.companyName);
    });

    it('prints the dates in the time zone asked for, and refuses a malformed query with field messages', async () => {
      const from = '2026-05-09T22:00:00.000Z';
      const to = '2026-05-10T22:00:00.000Z';
      const paris = await admin.get(`/api/v1/insights/report.pdf?period=custom&from=${from}&to=${to}&timeZone=Europe/Paris`);
      expect(paris.statusCode).toBe(200);
      expect(paris.headers['content-disposition']).toBe('attachment; filename="insights-report-2026-05-10-2026-05-10.pdf"');
      expect(pdfText(paris.rawPayload)).toContain('Custom range: 10 May 2026');
      const zone = await admin.get('/api/v1/insights/report.pdf?timeZone=Mars/Olympus');
      expect(zone.statusCode).toBe(400);
      expect(zone.json()).toMatchObject({ error: { fields: { timeZone: 'Unknown time zone' } } });
      const missing = await admin.get('/api/v1/insights/report.pdf?period=custom');
      expect(missing.json()).toMatchObject({ error: { fields: { from: 'Choose the first day of the period', to: 'Choose the last day of the period' } } });
      expect((await app.client().get('/api/v1/insights/report.pdf')).statusCode).toBe(401);
    });
  });

  describe('the AI Summary PDF and CSV', () => {
    it('the PDF holds the overview, the topics with the customers’ words, the hours and the channels', async () => {
      const response = await admin.get(`/api/v1/summary/report.pdf?${summaryQuery(alpha.id)}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="ai-summary-alpha-bikes-[0-9a-f]{6}-2026-05-10-2026-05-10\.pdf"$/u);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(response.rawPayload);
      expect(text).toContain('AI Summary');
      expect(text).toContain('Custom range: 10 May 2026');
      // Four conversations, each answered 20 s after the question; one handed to a person.
      expect(text).toMatch(/Total conversations\n4\n/u);
      expect(text).toMatch(/Avg response time\n20 s\n/u);
      expect(text).toMatch(/Escalation rate\n0%\n/u);
      expect(text).toMatch(/Opening hours\nCommon\n2\nnew\n85%\n2\n0/u);
      // The questions no entry matched, in the customers' words (however the summary groups them):
      // Latin text as written, the Russian question marked as not drawable, and the report says why.
      expect(text).toContain('do you sell gift cards?');
      expect(text).toContain(`${REPORT_UNSHOWN_TEXT}?`);
      expect(text).not.toMatch(/[\u0400-\u04ff]/u);
      expect(text).toContain(`${REPORT_UNSHOWN_TEXT} marks text in a script this report's font cannot show`);
      expect(text).toMatch(/Hour\nConversations\nAI confidence\n09:00\n2\n85%\n14:00\n1\n10%\n15:00\n1\n20%/u);
      expect(text).toMatch(/Channel\nConversations\nAI confidence\nWebsite chat\n3\n40%\nWhatsApp\n1\n80%/u);
      expect(text).not.toContain('secret beta question');
    });

    it('the CSV is the summary’s own, every character of the customers’ words kept', async () => {
      const response = await admin.get(`/api/v1/summary/export.csv?${summaryQuery(alpha.id)}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="ai-summary-alpha-bikes-[0-9a-f]{6}-2026-05-10-2026-05-10\.csv"$/u);
      const lines = response.body.split('\r\n');
      expect(lines).toContain(`Client,${alpha.companyName}`);
      expect(lines).toContain('Total conversations,4');
      expect(lines).toContain('Average response time (s),20');
      expect(lines).toContain('Escalation rate (%),0');
      expect(lines.some((line) => line.startsWith('Opening hours,common,2,,85,2,0,no,'))).toBe(true);
      // The questions no entry matched, every character kept (however the summary groups them).
      expect(response.body).toContain(CYRILLIC_QUESTION);
      expect(response.body).toContain('do you sell gift cards?');
      expect(lines).toContain('Hour (UTC),Conversations,AI confidence (%)');
      expect(lines).toContain('09:00,2,85');
      expect(lines).toContain('WhatsApp,1,80');
      expect(response.body).not.toContain('secret beta question');
    });

    it('a client user’s PDF and CSV hold only their own client, whatever client the query names', async () => {
      const csv = await betaUser.get(`/api/v1/summary/export.csv?${summaryQuery(alpha.id)}`);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('secret beta question');
      expect(csv.body).toContain(`Client,${beta.companyName}`);
      expect(csv.body).not.toContain('Opening hours');
      expect(csv.body).not.toContain(CYRILLIC_QUESTION);
      const pdf = pdfText((await betaUser.get(`/api/v1/summary/report.pdf?${summaryQuery(alpha.id)}`)).rawPayload);
      expect(pdf).toContain('secret beta question');
      expect(pdf).not.toContain('Opening hours');
      expect(pdf).not.toContain(alpha.companyName);
    });

    it('refuses a malformed query with field messages, and anyone signed out', async () => {
      const zone = await admin.get(`/api/v1/summary/export.csv?${summaryQuery(alpha.id, '&timeZone=Mars/Olympus')}`);
      expect(zone.statusCode).toBe(400);
      expect(zone.json()).toMatchObject({ error: { fields: { timeZone: 'Unknown time zone' } } });
      const backwards = await admin.get(`/api/v1/summary/report.pdf?period=custom&from=${encodeURIComponent(TO)}&to=${encodeURIComponent(FROM)}`);
      expect(backwards.json()).toMatchObject({ error: { fields: { to: 'The period must end after it starts' } } });
      expect((await app.client().get('/api/v1/summary/export.csv')).statusCode).toBe(401);
      expect((await app.client().get('/api/v1/summary/report.pdf')).statusCode).toBe(401);
    });
  });

  describe('share links', () => {
    const create = async (client: TestClient, body: Record<string, unknown>) => expectJson<CreatedSummaryShare>(await client.post('/api/v1/summary/shares', body), 201);
    const openLink = (token: string, query = '') => app.client().get(`/api/v1/shared/summary/${encodeURIComponent(token)}${query}`);
    const custom = { period: 'custom', from: FROM, to: TO };

    it('a link shows the same summary without sign-in, and only the token’s hash is stored', async () => {
      const before = Date.now();
      const created = await create(alphaUser, { ...custom, expiresInDays: 1 });
      expect(created.url).toBe(`${TEST_PUBLIC_URL}/shared/summary/${created.token}`);
      expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/u);
      expect(created.share).toMatchObject({ clientId: alpha.id, clientName: alpha.companyName, status: 'active', revokedAt: null, period: { kind: 'custom', from: FROM, to: TO } });
      const lifetime = Date.parse(created.share.expiresAt) - Date.parse(created.share.createdAt);
      expect(lifetime).toBe(DAY);
      expect(Date.parse(created.share.createdAt)).toBeGreaterThanOrEqual(before - 1000);

      const rows = await app.database.db.selectFrom('summaryShares').selectAll().where('id', '=', created.share.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.tokenHash).toBe(sha256Hex(created.token));
      expect(JSON.stringify(rows)).not.toContain(created.token);

      const response = await openLink(created.token, '?timeZone=Europe/Paris');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      const shared = sharedSummaryView.parse(response.json());
      const signedIn = expectJson<SummaryView>(await alphaUser.get(`/api/v1/summary?${summaryQuery(null, '&timeZone=Europe/Paris')}`), 200);
      expect(shared.summary).toEqual({ ...signedIn, generatedAt: shared.summary.generatedAt });
      expect(shared.summary.overview.totalConversations).toBe(4);
      expect(shared.summary.timeZone).toBe('Europe/Paris');
      expect(shared.share).toEqual({ clientName: alpha.companyName, createdAt: created.share.createdAt, expiresAt: created.share.expiresAt });
      // The six months up to May 2026, with the seeded day's four conversations in May.
      expect(shared.trends.map((m) => m.month)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05']);
      expect(shared.trends.at(-1)!.conversations).toBe(4);
      expect(JSON.stringify(shared)).not.toContain('secret beta question');
    });

    it('a relative period is frozen when the link is made', async () => {
      const before = Date.now();
      const created = await create(manager, { period: '7d', clientId: alpha.id });
      const after = Date.now();
      const to = Date.parse(created.share.period.to);
      expect(to).toBeGreaterThanOrEqual(before - 1000);
      expect(to).toBeLessThanOrEqual(after);
      expect(Date.parse(created.share.period.from)).toBe(to - 7 * DAY);
      // The default lifetime is 7 days.
      expect(Date.parse(created.share.expiresAt) - Date.parse(created.share.createdAt)).toBe(7 * DAY);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const shared = expectJson<SharedSummaryView>(await openLink(created.token), 200);
      expect(shared.summary.period).toEqual({ kind: '7d', from: created.share.period.from, to: created.share.period.to });
      expect(shared.summary.overview.totalConversations).toBe(3);
    });

    it('staff may share every client; a client user only their own', async () => {
      const everyone = await create(admin, custom);
      expect(everyone.share).toMatchObject({ clientId: null, clientName: null });
      const all = expectJson<SharedSummaryView>(await openLink(everyone.token), 200);
      expect(all.summary.overview.totalConversations).toBe(5);
      expect(JSON.stringify(all)).toContain('secret beta question');

      const refused = await alphaUser.post('/api/v1/summary/shares', { ...custom, clientId: beta.id });
      expect(refused.statusCode).toBe(403);
      // Without a client named, a client user's link is their own client's.
      const own = await create(betaUser, custom);
      expect(own.share.clientId).toBe(beta.id);
      const shared = expectJson<SharedSummaryView>(await openLink(own.token), 200);
      expect(shared.summary.overview.totalConversations).toBe(1);
      expect(JSON.stringify(shared)).not.toContain('Opening hours');
    });

    it('lists the caller’s own links; administrators see everyone’s', async () => {
      const mine = await create(alphaUser, custom);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const colleagues = await create(alphaColleague, custom);
      const list = (client: TestClient) => client.get('/api/v1/summary/shares').then((r) => expectJson<{ shares: SummaryShare[] }>(r, 200).shares.map((s) => s.id));
      const alphaList = await list(alphaUser);
      expect(alphaList).toContain(mine.share.id);
      expect(alphaList).not.toContain(colleagues.share.id);
      expect(await list(alphaColleague)).toEqual([colleagues.share.id]);
      const managerList = await list(manager);
      expect(managerList).not.toContain(mine.share.id);
      const adminList = await list(admin);
      expect(adminList).toEqual(expect.arrayContaining([mine.share.id, colleagues.share.id]));
      // Newest first.
      expect(adminList.indexOf(colleagues.share.id)).toBeLessThan(adminList.indexOf(mine.share.id));
      expect((await app.client().get('/api/v1/summary/shares')).statusCode).toBe(401);
    });

    it('a revoked link answers 404 with the same message as an unknown one; only its creator or an administrator may revoke it', async () => {
      const created = await create(alphaUser, custom);
      expect((await alphaColleague.delete(`/api/v1/summary/shares/${created.share.id}`)).statusCode).toBe(404);
      expect((await manager.delete(`/api/v1/summary/shares/${created.share.id}`)).statusCode).toBe(404);
      expect((await betaUser.delete(`/api/v1/summary/shares/${created.share.id}`)).statusCode).toBe(404);
      expect((await openLink(created.token)).statusCode).toBe(200);

      const revoked = expectJson<SummaryShare>(await alphaUser.delete(`/api/v1/summary/shares/${created.share.id}`), 200);
      expect(revoked.status).toBe('revoked');
      expect(revoked.revokedAt).not.toBeNull();
      const gone = await openLink(created.token);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: { code: 'NOT_FOUND', message: SHARE_GONE_MESSAGE } });
      const unknown = await openLink('x'.repeat(43));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual(gone.json());
      // Revoking again changes nothing.
      expect(expectJson<SummaryShare>(await alphaUser.delete(`/api/v1/summary/shares/${created.share.id}`), 200).revokedAt).toBe(revoked.revokedAt);

      const another = await create(alphaUser, custom);
      expect(expectJson<SummaryShare>(await admin.delete(`/api/v1/summary/shares/${another.share.id}`), 200).status).toBe('revoked');
      expect((await openLink(another.token)).statusCode).toBe(404);
      expect((await alphaUser.delete(`/api/v1/summary/shares/${randomUUID()}`)).statusCode).toBe(404);
    });

    it('an expired link answers the same 404 and is listed as expired', async () => {
      const created = await create(alphaUser, { ...custom, expiresInDays: 30 });
      expect((await openLink(created.token)).statusCode).toBe(200);
      await app.database.db
        .updateTable('summaryShares')
        .set({ expiresAt: new Date(Date.now() - MINUTE) })
        .where('id', '=', created.share.id)
        .execute();
      const gone = await openLink(created.token);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: { code: 'NOT_FOUND', message: SHARE_GONE_MESSAGE } });
      const listed = expectJson<{ shares: SummaryShare[] }>(await alphaUser.get('/api/v1/summary/shares'), 200).shares.find((s) => s.id === created.share.id);
      expect(listed?.status).toBe('expired');
    });

    it('a link stops working when its creator may no longer read it', async () => {
      const { client, userId } = await signedInClientUser(app, alpha.id);
      const created = await create(client, custom);
      expect((await openLink(created.token)).statusCode).toBe(200);
      // Moved to another client: the link showed Alpha, which they may no longer read.
      await app.database.db.updateTable('users').set({ clientId: beta.id }).where('id', '=', userId).execute();
      expect((await openLink(created.token)).statusCode).toBe(404);
      await app.database.db.updateTable('users').set({ clientId: alpha.id, disabledAt: new Date() }).where('id', '=', userId).execute();
      expect((await openLink(created.token)).statusCode).toBe(404);
    });

    it('the link’s page is served to anyone and kept out of search engines', async () => {
      const page = await app.client().get('/shared/summary/AbCdEf');
      // 503 here: the tests run without a built web app; the header is the page's in either case.
      expect(page.statusCode).not.toBe(401);
      expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect((await app.client().get('/summary')).headers['x-robots-tag']).toBeUndefined();
    });

    it('refuses malformed requests with field messages', async () => {
      const expiry = await alphaUser.post('/api/v1/summary/shares', { ...custom, expiresInDays: 3 });
      expect(expiry.statusCode).toBe(400);
      expect(expiry.json()).toMatchObject({ error: { fields: { expiresInDays: 'Choose 1, 7 or 30 days' } } });
      const period = await alphaUser.post('/api/v1/summary/shares', { period: 'custom' });
      expect(period.json()).toMatchObject({ error: { fields: { from: 'Choose the first day of the period', to: 'Choose the last day of the period' } } });
      const badClient = await admin.post('/api/v1/summary/shares', { ...custom, clientId: 'nope' });
      expect(badClient.json()).toMatchObject({ error: { fields: { clientId: 'Choose a client' } } });
      const unknownClient = await admin.post('/api/v1/summary/shares', { ...custom, clientId: randomUUID() });
      expect(unknownClient.statusCode).toBe(400);
      expect(unknownClient.json()).toMatchObject({ error: { fields: { clientId: 'Choose a client' } } });
      expect((await alphaUser.delete('/api/v1/summary/shares/not-an-id')).statusCode).toBe(400);
      const zone = await openLink('x'.repeat(43), '?timeZone=Mars/Olympus');
      expect(zone.statusCode).toBe(400);
      expect(zone.json()).toMatchObject({ error: { fields: { timeZone: 'Unknown time zone' } } });
      expect((await app.client().post('/api/v1/summary/shares', custom)).statusCode).toBe(401);
    });
  });
});
