import { describe, expect, it } from 'vitest';
import type { ConversationContext, ConversationTurn, KnowledgeBase } from '../answer-engine';
import { EmbeddedEngine } from './embedded-engine';
import { SHOP_FAQ } from './faq-fixture';
import { trainEmbeddedModel } from './model';

function conversation(...texts: [ConversationTurn['role'], string][]): ConversationContext {
  return {
    conversationId: 'c1',
    turns: texts.map(([role, text], i) => ({ role, text, at: new Date(Date.UTC(2025, 0, 1, 12, i)) })),
    businessName: 'Shop',
    agentName: 'Ava',
    agentDescription: 'Helps with orders',
  };
}

const kb = (model: unknown = null, version = 1): KnowledgeBase => ({ version, entries: SHOP_FAQ, articles: [], model });

describe('EmbeddedEngine', () => {
  const engine = new EmbeddedEngine();

  it('answers the last customer turn with the entry, its link on a new line, the source and zero usage', async () => {
    const answer = await engine.answer(
      conversation(['customer', 'hello, how much is shipping?'], ['ai', 'It is free above 50 €.'], ['customer', 'and what is your refund policy for broken items?']),
      kb(),
    );
    expect(answer).toMatchObject({
      reply: 'You can return any item within 30 days for a full refund; the money is back on your card within 5 working days.\nhttps://shop.example/returns',
      action: 'answer',
      engine: 'embedded',
      model: 'embedded',
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      sources: [{ kind: 'faq', id: 'refunds', title: 'How do I get a refund?', link: 'https://shop.example/returns' }],
    });
    expect(answer.confidence).toBeGreaterThan(0.5);
    expect(answer.confidence).toBeLessThanOrEqual(1);
  });

  it('replies with the answer alone when the entry has no link', async () => {
    const answer = await engine.answer(conversation(['customer', 'do you take credit cards or paypal?']), kb());
    expect(answer.reply).toBe('We accept Visa, Mastercard, PayPal and bank transfer.');
    expect(answer.sources[0]).toMatchObject({ id: 'payment', link: null });
  });

  it('leaves the threshold to the policy: nonsense is still an answer, with low confidence', async () => {
    const answer = await engine.answer(conversation(['customer', 'purple elephant quantum banana']), kb());
    expect(answer.action).toBe('answer');
    expect(answer.confidence).toBeLessThan(0.3);
  });

  it('escalates when the customer asks for a person, with nothing to say', async () => {
    const answer = await engine.answer(conversation(['customer', 'what is your refund policy'], ['ai', '…'], ['customer', 'can I talk to a human please']), kb());
    expect(answer).toMatchObject({ action: 'escalate', reply: '', confidence: 0, sources: [], engine: 'embedded' });
  });

  it('escalates when the knowledge base is empty or there is no customer question', async () => {
    const empty: KnowledgeBase = { version: 1, entries: [], articles: [], model: null };
    expect((await engine.answer(conversation(['customer', 'what are your opening hours']), empty)).action).toBe('escalate');
    expect((await engine.answer(conversation(['agent', 'Hello!']), kb())).action).toBe('escalate');
  });

  it('uses the stored model, and trains (once per version) when there is none', async () => {
    const stored: unknown = JSON.parse(JSON.stringify(trainEmbeddedModel(SHOP_FAQ, { seed: 42 })));
    const fresh = new EmbeddedEngine();
    const fromStored = fresh.modelFor(kb(stored), SHOP_FAQ);
    expect(fromStored.options.seed).toBe(42);
    expect(fresh.modelFor(kb(JSON.parse(JSON.stringify(stored))), SHOP_FAQ)).toBe(fromStored);

    const trained = fresh.modelFor(kb(null, 7), SHOP_FAQ);
    expect(trained.options.seed).toBe(1);
    expect(fresh.modelFor(kb(null, 7), SHOP_FAQ)).toBe(trained);
    expect(fresh.modelFor(kb(null, 8), SHOP_FAQ)).not.toBe(trained);
  });

  it('trains from the entries when the stored model is unreadable or does not cover them', async () => {
    const fresh = new EmbeddedEngine();
    expect(fresh.modelFor(kb({ format: 'old' }), SHOP_FAQ).labels).toEqual(SHOP_FAQ.map((e) => e.id));
    const other = JSON.parse(JSON.stringify(trainEmbeddedModel([{ id: 'gone', questions: ['a question'], answer: 'a', link: null }]))) as unknown;
    expect(fresh.modelFor(kb(other), SHOP_FAQ).labels).toEqual(SHOP_FAQ.map((e) => e.id));
    const answer = await fresh.answer(conversation(['customer', 'where is your store located']), kb(other));
    expect(answer.sources[0]?.id).toBe('location');
  });
});
