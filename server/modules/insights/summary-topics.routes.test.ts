/**
 * GET /api/v1/summary's topics of unanswered questions (issue 16 §3; docs/insights.md "Topics of
 * unanswered questions") on both engines: the questions no knowledge-base entry matched, worded
 * differently, grouped by the AI agent's text features into topics with their counts, trend
 * against the period before, the "missing from the knowledge base" threshold and the new FAQ
 * entry's questions; the rest as one group; never another client's questions.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SummaryTopic, SummaryView } from '../../../common/api/summary';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Channel } from '../../db/schema';

const PARKING = ['Where can I park my car?', 'Is there parking for cars near the shop?', 'Do you have a car park?', 'Can I park my car outside the shop?', 'Where do customers park their cars?'];
const GIFT_CARDS = ['Do you sell gift cards?', 'Can I buy a gift card online?', 'I would like to buy a gift card for a friend', 'Do gift cards expire?'];
const BIKES = ['Do you rent bikes?', 'Can I rent a bike for the weekend?'];
const ONE_OFFS = ['What is the wifi password?', 'How late are you open on Sundays?'];
const VANS = ['Where do I park my van?', 'Is there parking for vans?', 'Can I park my van outside?'];

describe.each(ENGINES)('AI summary: topics of unanswered questions (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let alphaId: string;
  let betaId: string;
  let betaUser: TestClient;
  const FROM = '2026-05-10T00:00:00.000Z';
  const TO = '2026-05-11T00:00:00.000Z';
  const query = (clientId?: string) => `/api/v1/summary?period=custom&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}${clientId ? `&clientId=${clientId}` : ''}`;

  /** A customer's question and the AI's reply (what it matched, if anything), in a conversation of its own. */
  async function question(channel: Channel, at: string, text: string, reply: { decision: 'answer' | 'handoff' | 'fallback'; confidence: number; source?: string }): Promise<void> {
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
      sources: reply.source ? [{ kind: 'faq', id: reply.source, title: reply.source === 'e-hours' ? 'Opening hours' : 'Returns' }] : [],
      latencyMs: 1,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      knowledgeVersion: 1,
    };
    const replyAt = new Date(Date.parse(at) + 20_000).toISOString();
    await db
      .insertInto('messages')
      .values({ ...base, direction: 'outbound', senderType: 'ai', content: 'reply', status: 'sent', aiConfidence: reply.confidence, ai: JSON.stringify(ai), createdAt: replyAt })
      .execute();
  }

  /** `texts` asked one after the other from `start` (ISO), a few minutes apart. */
  async function ask(channel: Channel, start: string, texts: readonly string[], reply: (i: number) => { decision: 'answer' | 'handoff' | 'fallback'; confidence: number; source?: string }) {
    for (const [i, text] of texts.entries()) await question(channel, new Date(Date.parse(start) + i * 7 * 60_000).toISOString(), text, reply(i));
  }

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
    const alpha = await createTestClient(app);
    const beta = await createTestClient(app);
    alphaId = alpha.id;
    betaId = beta.id;
    const alphaChat = await createTestChannel(app, { clientId: alphaId, kind: 'webchat' });
    const betaChat = await createTestChannel(app, { clientId: betaId, kind: 'webchat' });
    betaUser = (await signedInClientUser(app, betaId)).client;
    const handoff = (confidence: number) => () => ({ decision: 'handoff' as const, confidence });

    // The period, Alpha: five questions about parking (one matched to an entry too weakly to count, at 0.4),
    // four about gift cards (one answered at 0.45), two about bike rental, two one-offs, and three on an entry.
    await ask(alphaChat, '2026-05-10T08:00:00Z', PARKING, (i) => (i === 0 ? { decision: 'handoff', confidence: 0.4, source: 'e-returns' } : { decision: i < 3 ? 'handoff' : 'fallback', confidence: 0.2 }));
    await ask(alphaChat, '2026-05-10T10:00:00Z', GIFT_CARDS, (i) => (i === 1 ? { decision: 'answer', confidence: 0.45 } : { decision: 'handoff', confidence: 0.3 }));
    await ask(alphaChat, '2026-05-10T12:00:00Z', BIKES, handoff(0.1));
    await ask(alphaChat, '2026-05-10T14:00:00Z', ONE_OFFS, () => ({ decision: 'fallback', confidence: 0.05 }));
    await ask(alphaChat, '2026-05-10T16:00:00Z', ['when do you open?', 'opening hours saturday', 'are you open today'], () => ({ decision: 'answer', confidence: 0.9, source: 'e-hours' }));
    // The day before, Alpha: two parking questions, one about cancelling an order.
    await ask(alphaChat, '2026-05-09T09:00:00Z', ['Is there a car park nearby?', 'Where should I park my car?', 'How do I cancel my order?'], handoff(0.2));
    // Beta, the same day: three questions about parking vans — Beta's own topic, never Alpha's.
    await ask(betaChat, '2026-05-10T09:00:00Z', VANS, handoff(0.15));
  });
  afterAll(async () => {
    await app.destroy();
  });

  const unmatchedTopics = (view: SummaryView) => view.insights.filter((t) => t.id.startsWith('unmatched'));
  const topicOf = (view: SummaryView, texts: readonly string[]): SummaryTopic => {
    const found = view.insights.filter((t) => t.suggestedQuestion !== null && texts.includes(t.suggestedQuestion));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('groups differently worded questions into topics with counts, trend, confidence and the new entry’s questions', async () => {
    const view = expectJson<SummaryView>(await admin.get(query(alphaId)), 200);
    // Most questions first; among equals the group before the rest.
    expect(view.insights.map((t) => [t.id.startsWith('unmatched:') ? 'group' : t.id, t.count])).toEqual([
      ['group', 5],
      ['group', 4],
      ['faq:e-hours', 3],
      ['group', 2],
      ['unmatched', 2],
    ]);

    const parking = topicOf(view, PARKING);
    expect(parking).toMatchObject({
      type: 'escalation',
      count: 5,
      // Two the day before: +150 %.
      trend: 1.5,
      answered: 0,
      handedOff: 3,
      missingFromKnowledgeBase: true,
      clientId: alphaId,
      summary: '5 questions: the AI answered 0, handed 3 to a person, +150 % on the period before.',
    });
    expect(parking.confidence).toBeCloseTo((0.4 + 0.2 * 4) / 5, 6);
    expect(parking.title).toBe(parking.suggestedQuestion);
    expect([parking.suggestedQuestion, ...parking.variants].sort()).toEqual([...PARKING].sort());
    expect(parking.examples).toEqual(parking.variants.slice(0, 3));

    const giftCards = topicOf(view, GIFT_CARDS);
    expect(giftCards).toMatchObject({ count: 4, trend: null, answered: 1, handedOff: 3, missingFromKnowledgeBase: true, clientId: alphaId });
    expect(giftCards.summary).toContain('none the period before');
    expect([giftCards.suggestedQuestion, ...giftCards.variants].sort()).toEqual([...GIFT_CARDS].sort());
  });

  it('flags a topic as missing from the knowledge base from three questions, and keeps one-offs in one group', async () => {
    const view = expectJson<SummaryView>(await admin.get(query(alphaId)), 200);
    const bikes = topicOf(view, BIKES);
    expect(bikes).toMatchObject({ count: 2, missingFromKnowledgeBase: false, clientId: alphaId });
    const rest = view.insights.find((t) => t.id === 'unmatched')!;
    expect(rest).toMatchObject({
      title: 'Other questions the knowledge base does not answer',
      count: 2,
      // "How do I cancel my order?" the day before joined no topic.
      trend: 1,
      missingFromKnowledgeBase: false,
      suggestedQuestion: null,
      variants: [],
      examples: [...ONE_OFFS].reverse(),
    });
    // Every unmatched question counts once: 13 in the topics of unmatched questions.
    expect(unmatchedTopics(view).reduce((sum, t) => sum + t.count, 0)).toBe(13);
    // The entry's topic is the client's.
    expect(view.insights.find((t) => t.id === 'faq:e-hours')).toMatchObject({ clientId: alphaId, suggestedQuestion: null, variants: [], missingFromKnowledgeBase: false });
  });

  it('never shows another client’s questions, and groups each client’s apart when the summary spans every client', async () => {
    const alpha = expectJson<SummaryView>(await admin.get(query(alphaId)), 200);
    expect(JSON.stringify(alpha)).not.toMatch(/van/iu);

    const own = expectJson<SummaryView>(await betaUser.get(query(alphaId)), 200);
    expect(own.clientId).toBe(betaId);
    expect(own.insights).toHaveLength(1);
    expect(own.insights[0]).toMatchObject({ count: 3, missingFromKnowledgeBase: true, clientId: betaId });
    expect([own.insights[0]!.suggestedQuestion, ...own.insights[0]!.variants].sort()).toEqual([...VANS].sort());
    expect(JSON.stringify(own)).not.toMatch(/gift|car park|bike/iu);

    const all = expectJson<SummaryView>(await admin.get(query()), 200);
    expect(all.clientId).toBeNull();
    expect(topicOf(all, PARKING)).toMatchObject({ count: 5, clientId: alphaId });
    expect(topicOf(all, VANS)).toMatchObject({ count: 3, clientId: betaId });
  });
});
