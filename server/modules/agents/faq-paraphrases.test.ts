/**
 * A real small business's FAQ on the first day (issue 12 §5): a bike shop's 15 answers with 4
 * phrasings each, and customers who write in their own words — through the real WhatsApp path on
 * both database engines (a signed delivery to /webhooks/whatsapp, the webhook job, messaging's
 * inbound routine, the AI agent and its reply through a fake Graph API on loopback).
 *
 *  - Embedded engine (no key, no network): paraphrases written for the FAQ get the right answer at
 *    the default threshold 0.8 — never a wrong one — and questions it cannot answer go to a person.
 *  - Hybrid (an LLM configured, embedded first): the same paraphrases are answered locally without
 *    calling the LLM; only the questions the embedded engine is unsure of reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_TEXTS, type UpdateAgentInput } from '../../../common/api/agents';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { BIKE_SHOP_FAQ, BIKE_SHOP_PARAPHRASES, BIKE_SHOP_UNRELATED } from '../../../test/fixtures/bike-shop-faq';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeGraphApi, type FakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { startFakeLlm, type FakeLlm } from '../../../test/helpers/fake-openai';
import { createMetaChannel, postDelivery, whatsappDelivery, type MetaTestChannel } from '../../../test/helpers/meta-webhooks';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';

/** Of the 15 written paraphrases, how many must be answered at 0.8 (the k = 4 goal is 75 %). */
const MUST_ANSWER = 12;
/** Of the 5 unrelated questions, how many the embedded engine may still answer. */
const MAY_ANSWER_UNRELATED = 1;

interface Outcome {
  decision: string | undefined;
  confidence: number | null | undefined;
  engine: string | undefined;
  /** What the customer received on WhatsApp. */
  sent: string | undefined;
}

describe.each(ENGINES)('a 15-entry FAQ answers customers in their own words, through WhatsApp (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let llm: FakeLlm;
  let n = 0;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
    llm = await startFakeLlm();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url, LLM_TIMEOUT_MS: '1500', ...ALLOW_LOOPBACK_FAKES } });
  });
  afterAll(async () => {
    await app?.destroy();
    await graph?.close();
    await llm?.close();
  });

  async function bikeShop(config: UpdateAgentInput = {}): Promise<MetaTestChannel> {
    const client = await createTestClient(app);
    const channel = await createMetaChannel(app, 'whatsapp', `8${Date.now()}${n++}`, { clientId: client.id });
    await app.services.agents.importKnowledge(client.id, { format: 'json', content: JSON.stringify(BIKE_SHOP_FAQ), mode: 'replace' });
    await app.services.agents.updateAgent(client.id, { enabled: true, responseDelaySeconds: 0, ...config });
    await app.queue.waitForIdle();
    return channel;
  }

  /** One customer's WhatsApp text; resolves with the agent's decision and what was sent back. */
  async function customerWrites(channel: MetaTestChannel, text: string): Promise<Outcome> {
    n += 1;
    const from = `1555987${String(n).padStart(4, '0')}`;
    const delivery = whatsappDelivery(channel.externalId, {
      contacts: [{ profile: { name: `Customer ${n}` }, wa_id: from }],
      messages: [{ from, id: `wamid.faq-${engine}-${n}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
    });
    expect((await postDelivery(app, 'whatsapp', delivery, { appSecret: channel.appSecret })).statusCode).toBe(200);
    await app.queue.waitForIdle();
    const reply = await app.database.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversationId')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .select(['m.ai', 'm.content'])
      .where('c.channelId', '=', channel.id)
      .where('ct.externalId', '=', from)
      .where('m.senderType', '=', 'ai')
      .executeTakeFirst();
    const sent = graph
      .requestsTo('POST', `/v21.0/${channel.externalId}/messages`)
      .map((r) => r.body as { to: string; text?: { body: string } })
      .filter((b) => b.to === from)
      .map((b) => b.text?.body);
    expect(sent.length).toBeLessThanOrEqual(1);
    return { decision: reply?.ai?.decision, confidence: reply?.ai?.confidence, engine: reply?.ai?.engine, sent: sent[0] };
  }

  it('embedded engine: the written paraphrases get the right answer at 0.8, never a wrong one; unrelated questions go to a person', async () => {
    const channel = await bikeShop();
    const answered: string[] = [];
    for (const { entry, text } of BIKE_SHOP_PARAPHRASES) {
      const outcome = await customerWrites(channel, text);
      if (outcome.decision === 'answer') {
        // Answered means at or above the threshold, with the entry the paraphrase was written for.
        expect(outcome.confidence, text).toBeGreaterThanOrEqual(0.8);
        expect(outcome.sent, text).toBe(BIKE_SHOP_FAQ[entry]!.answer);
        answered.push(text);
      } else {
        expect(outcome, text).toMatchObject({ decision: 'handoff', sent: DEFAULT_AGENT_TEXTS.handoff });
      }
    }
    expect(answered.length, `answered: ${answered.join(' | ')}`).toBeGreaterThanOrEqual(MUST_ANSWER);
    // The issue's own example.
    expect(answered).toContain('till what time are you open on saturdays?');

    const kept: string[] = [];
    for (const text of BIKE_SHOP_UNRELATED) {
      const outcome = await customerWrites(channel, text);
      if (outcome.decision === 'handoff') {
        expect(outcome.sent, text).toBe(DEFAULT_AGENT_TEXTS.handoff);
        expect(outcome.confidence!, text).toBeLessThan(0.8);
      } else kept.push(text);
    }
    // At most one of the five is answered: the engine hands off 86–99 % of unanswerable questions
    // (docs/agent-evaluation.md). The known miss is "how do I file my tax return?", answered from the
    // returns entry through its distinctive word "return" (listed there as a limitation).
    expect(kept.length, `answered although unrelated: ${kept.join(' | ')}`).toBeLessThanOrEqual(MAY_ANSWER_UNRELATED);
  });

  it('hybrid: the paraphrases are answered locally without calling the LLM; the unrelated questions reach it', async () => {
    const channel = await bikeShop({ engine: 'openai', llmBaseUrl: llm.baseUrl, llmModel: 'gpt-4o-mini', llmApiKey: 'sk-test-faq-0123456789abcdef' });
    llm.reset();
    let local = 0;
    for (const { entry, text } of BIKE_SHOP_PARAPHRASES) {
      const before = llm.requests.length;
      // Should the LLM be asked, it hands off: only the embedded engine's answers are counted here.
      llm.script({ content: JSON.stringify({ answer: '', confidence: 0.2, handoff: true, sources: [] }) });
      const outcome = await customerWrites(channel, text);
      if (outcome.engine === 'embedded' && outcome.decision === 'answer') {
        expect(llm.requests.length, text).toBe(before);
        expect(outcome.sent, text).toBe(BIKE_SHOP_FAQ[entry]!.answer);
        local += 1;
      } else {
        expect(llm.requests.length, text).toBe(before + 1);
      }
      llm.reset();
    }
    expect(local).toBeGreaterThanOrEqual(MUST_ANSWER);

    let toLlm = 0;
    for (const text of BIKE_SHOP_UNRELATED) {
      llm.script({ content: JSON.stringify({ answer: '', confidence: 0.1, handoff: true, sources: [] }) });
      const outcome = await customerWrites(channel, text);
      if (llm.requests.length === 1) {
        expect(llm.requests[0]!.promptText, text).toContain(text);
        expect(outcome, text).toMatchObject({ engine: 'openai', decision: 'handoff', sent: DEFAULT_AGENT_TEXTS.handoff });
        toLlm += 1;
      } else expect(llm.requests, text).toHaveLength(0);
      llm.reset();
    }
    expect(toLlm).toBeGreaterThanOrEqual(BIKE_SHOP_UNRELATED.length - MAY_ANSWER_UNRELATED);
  });
});
