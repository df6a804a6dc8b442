import { describe, expect, it } from 'vitest';
import { SHOP_FAQ, SHOP_PARAPHRASES } from './faq-fixture';
import {
  ANSWER_FEATURES,
  confidenceInputs,
  confidenceOfLogit,
  F,
  FAQ_WEIGHTS,
  FAQ_WEIGHTS_NO_VECTORS,
  fitLogistic,
  fitRanking,
  G,
  KNOWLEDGE_BASE_STATS,
  type LogisticSample,
  PIVOT,
  type RankingSample,
  solve,
  topTwo,
  VECTOR_FEATURES,
  VECTOR_STATS,
} from './faq-scorer';
import { ANSWER_WORDS, answerEvidence, loadEmbeddedModel, resolveTrainOptions, trainEmbeddedModel, usesFaqScorer } from './model';
import { createRandom } from './random';
import { QuantizedWordVectors } from './word-vectors';
import { BIKE_SHOP_FAQ, BIKE_SHOP_PARAPHRASES } from '../../../../../test/fixtures/bike-shop-faq';

describe('faq-scorer fitting', () => {
  it('solves small linear systems', () => {
    const x = solve(
      [
        [2, 1, 0],
        [1, 3, 1],
        [0, 1, 4],
      ],
      [3, 5, 5],
    );
    expect(x.map((v) => Number(v.toFixed(9)))).toEqual([1, 1, 1]);
  });

  it('recovers the weights of a logistic model from its samples (seeded)', () => {
    const random = createRandom(3);
    const truth = [2, -1, 0.5];
    const samples: LogisticSample[] = [];
    for (let i = 0; i < 20_000; i++) {
      const x = [random() * 2 - 1, random() * 2 - 1, 1];
      const p = 1 / (1 + Math.exp(-(truth[0]! * x[0]! + truth[1]! * x[1]! + truth[2]! * x[2]!)));
      samples.push({ x, correct: random() < p, weight: 1 });
    }
    const w = fitLogistic(samples, 0);
    w.forEach((v, j) => expect(v).toBeCloseTo(truth[j]!, 0));
    expect(fitLogistic(samples, 0)).toEqual(w);
  });

  it('fits ranking weights that pick the informative feature (conditional logit, seeded)', () => {
    const random = createRandom(11);
    const samples: RankingSample[] = [];
    for (let i = 0; i < 500; i++) {
      const entries = 6;
      const features = new Float64Array(entries * F);
      const label = Math.floor(random() * entries);
      for (let c = 0; c < entries; c++) {
        for (let j = 0; j < F; j++) features[c * F + j] = random();
        // Feature 1 is higher for the right entry, the others are noise.
        if (c === label) features[c * F + 1]! += 0.5;
      }
      samples.push({ features, label });
    }
    const w = fitRanking(samples, 1);
    expect(w).toHaveLength(F);
    for (let j = 0; j < F; j++) if (j !== 1) expect(Math.abs(w[j]!)).toBeLessThan(w[1]! / 3);
    expect(w[1]).toBeGreaterThan(3);
  });

  it('finds the top two', () => {
    expect(topTwo(Float64Array.from([0.1, 0.7, 0.3, 0.5]))).toEqual([1, 3]);
    expect(topTwo(Float64Array.from([0.9, 0.2]))).toEqual([0, 1]);
    expect(topTwo(Float64Array.from([0.9]))).toEqual([0, -1]);
  });

  it('has constants of the right shape, fitted (see eval/fit-faq-scorer.ts)', () => {
    for (const w of [FAQ_WEIGHTS, FAQ_WEIGHTS_NO_VECTORS]) {
      expect(w.rank).toHaveLength(F);
      expect(w.confidence).toHaveLength(G);
      expect(w.slopes).toHaveLength(2);
      for (const slope of w.slopes) expect(slope).toBeGreaterThan(0);
    }
    for (const j of VECTOR_FEATURES) expect(FAQ_WEIGHTS_NO_VECTORS.rank[j]).toBe(0);
  });

  it('maps the logistic logit through the two slopes, meeting at the pivot (the default threshold)', () => {
    const pivot = Math.log(PIVOT / (1 - PIVOT));
    for (const t of [-3, -0.5, pivot, 2, 6]) expect(confidenceOfLogit(t, [1, 1])).toBeCloseTo(1 / (1 + Math.exp(-t)), 12);
    expect(confidenceOfLogit(pivot, [0.5, 2])).toBeCloseTo(PIVOT, 12);
    // Below the pivot a slope under 1 raises the confidence towards it, above it a slope over 1 raises it further; the order is kept.
    expect(confidenceOfLogit(pivot - 1, [0.5, 1])).toBeCloseTo(1 / (1 + Math.exp(-(pivot - 0.5))), 12);
    expect(confidenceOfLogit(pivot + 1, [1, 2])).toBeCloseTo(1 / (1 + Math.exp(-(pivot + 2))), 12);
    const ts = [-4, -1, 0, 1, pivot, 1.5, 3, 8];
    const cs = ts.map((t) => confidenceOfLogit(t, [0.7, 1.5]));
    for (let i = 1; i < cs.length; i++) expect(cs[i]).toBeGreaterThan(cs[i - 1]!);
    // A question on the pivot's either side stays there whatever the slopes: the default threshold's answers do not change.
    expect(confidenceOfLogit(pivot - 1e-6, [0.3, 3])).toBeLessThan(PIVOT);
    expect(confidenceOfLogit(pivot + 1e-6, [0.3, 3])).toBeGreaterThan(PIVOT);
  });

  it('builds the confidence inputs from the top entry, the runner-up and the knowledge base', () => {
    // Three entries; features of entry c are c + j / 100, so every input can be traced to its source.
    const features = new Float64Array(3 * F);
    for (let c = 0; c < 3; c++) for (let j = 0; j < F; j++) features[c * F + j] = c + j / 100;
    const scores = Float64Array.from([0, 2, 1]);
    const probabilities = Float64Array.from([0.1, 0.6, 0.3]);
    const kb = [0.5, 0.6, 0.7, 0.2, 0.3];
    const x = confidenceInputs(features, scores, probabilities, 1, 2, 4, kb);
    expect(x).toHaveLength(G);
    const logOdds = Math.log(0.6 / 0.4);
    expect(x[0]).toBeCloseTo(logOdds, 12);
    expect(x[1]).toBe(1);
    expect(x[2]).toBe(1.01);
    expect(x[4]).toBe(1.05);
    expect(x.slice(9, 14)).toEqual(kb);
    expect(x[14]).toBeCloseTo(logOdds * 0.7, 12);
    expect(x[15]).toBeCloseTo(-(0.1 * Math.log(0.1) + 0.6 * Math.log(0.6) + 0.3 * Math.log(0.3)), 12);
    expect(x.slice(16, 19)).toEqual([2.05, 2.03, 2.01]);
    expect(x[21]).toBeCloseTo(1.05 * Math.log(4), 12);
    // The top entry's answer-text features: TF-IDF cosine, soft coverage, words of its answer alone.
    expect(x.slice(22, 25)).toEqual([1.11, 1.13, 1.15]);
    expect(x[G - 1]).toBe(1);
    // One entry: no ranking information and no runner-up.
    const single = confidenceInputs(features.slice(0, F), Float64Array.from([0]), Float64Array.from([1]), 0, -1, 1, kb);
    expect(single[0]).toBe(0);
    expect(single[1]).toBe(0);
    expect(single.slice(16, 19)).toEqual([0, 0, 0]);
  });
});

describe('the small-knowledge-base path', () => {
  // Fake word vectors (seeded): synonyms near each other, so the soft matching has something to find.
  const D = 16;
  const random = createRandom(5);
  const groups = [
    ['open', 'opening', 'hours', 'close', 'closing', 'time'],
    ['refund', 'money', 'back', 'reimbursement', 'return'],
    ['price', 'prices', 'cost', 'expensive', 'fee', 'charge'],
    ['deliver', 'delivery', 'shipping', 'ship', 'parcel', 'dispatch'],
  ];
  const list: [string, number[]][] = [];
  for (const group of groups) {
    const centre = Array.from({ length: D }, () => random() * 2 - 1);
    for (const word of group) list.push([word, centre.map((c) => c + 0.15 * (random() * 2 - 1))]);
  }
  const vectors = QuantizedWordVectors.fromVectors('fake-vectors@1', D, list);
  const model = trainEmbeddedModel(SHOP_FAQ, {}, { wordVectors: vectors });
  const withoutVectors = trainEmbeddedModel(SHOP_FAQ, {}, { wordVectors: null });

  it('is taken for few questions per entry with classifier "auto" only', () => {
    const options = resolveTrainOptions();
    expect(usesFaqScorer(options, 8 * 5, 8)).toBe(true);
    expect(usesFaqScorer(options, 77 * 10, 77)).toBe(false);
    expect(usesFaqScorer(resolveTrainOptions({ classifier: 'softmax' }), 8 * 5, 8)).toBe(false);
    expect(usesFaqScorer(resolveTrainOptions({ faq: null }), 8 * 5, 8)).toBe(false);
    expect(model.smallKnowledgeBase).toBe(true);
    expect(trainEmbeddedModel(SHOP_FAQ, { faq: null }, { wordVectors: vectors }).smallKnowledgeBase).toBe(false);
  });

  it('picks the right entry for the paraphrases, with and without word vectors, and reports a runner-up no more confident than the answer', () => {
    for (const m of [model, withoutVectors]) {
      for (const { question, entryId } of SHOP_PARAPHRASES) {
        const p = m.predict(question)!;
        expect(p.entryId, question).toBe(entryId);
        expect(p.runnerUp).toBeTruthy();
        expect(p.runnerUp!.entryId).not.toBe(entryId);
        expect(p.runnerUp!.confidence).toBeLessThanOrEqual(p.confidence);
      }
    }
  });

  it('uses word vectors for words no example question has', () => {
    const features = model.entryFeatures('any reimbursement?')!;
    const without = withoutVectors.entryFeatures('any reimbursement?')!;
    const refunds = model.labels.indexOf('refunds');
    expect(features).toHaveLength(model.labels.length * F);
    // Soft coverage: "reimbursement" is near "refund" / "money" in the fake vectors; exact coverage is 0 for every entry.
    expect(features[refunds * F + 5]).toBeGreaterThan(0.3);
    for (let c = 0; c < model.labels.length; c++) {
      if (c !== refunds) expect(features[c * F + 5]).toBeLessThan(features[refunds * F + 5]!);
      expect(without[c * F + 3]).toBe(0);
      expect(without[c * F + 5]).toBe(0);
    }
    expect(model.predict('any reimbursement?')!.entryId).toBe('refunds');
  });

  it('scores words only one entry has (contrastive coverage, features 9 and 10)', () => {
    // "delivery" is a word of the shipping entry's questions only.
    const question = 'delivery?';
    const features = model.entryFeatures(question)!;
    const shipping = model.labels.indexOf('shipping');
    expect(features[shipping * F + 9]).toBeGreaterThan(0);
    expect(features[shipping * F + 10]).toBeGreaterThan(0);
    for (let c = 0; c < model.labels.length; c++) {
      if (c === shipping) continue;
      // Not the best cover of any word: nothing beyond the others, and no word of its own.
      expect(features[c * F + 9]).toBe(0);
      expect(features[c * F + 10]).toBe(0);
    }
    // A word both entries have counts for neither; a word one has counts for that one.
    const two = trainEmbeddedModel(
      [
        { id: 'arrival', questions: ['when will my card arrive', 'card arrival time'], answer: 'a', link: null },
        { id: 'activation', questions: ['how do I activate my card', 'card activation'], answer: 'b', link: null },
        { id: 'hours', questions: ['when do you open', 'opening hours'], answer: 'c', link: null },
      ],
      {},
      { wordVectors: vectors },
    );
    const f = two.entryFeatures('card arrive')!;
    const [arrival, activation] = ['arrival', 'activation'].map((id) => two.labels.indexOf(id));
    expect(f[activation! * F + 7]).toBeGreaterThan(0);
    expect(f[activation! * F + 10]).toBe(0);
    expect(f[activation! * F + 9]).toBe(0);
    expect(f[arrival! * F + 10]).toBeGreaterThan(0);
    expect(f[arrival! * F + 10]).toBeLessThan(f[arrival! * F + 7]!);
    // Without vectors the soft one is 0, the exact one is the same.
    const without = withoutVectors.entryFeatures(question)!;
    for (let c = 0; c < model.labels.length; c++) expect(without[c * F + 9]).toBe(0);
    expect(without[shipping * F + 10]).toBe(features[shipping * F + 10]);
  });

  it('measures how alike the entries of the knowledge base are (KNOWLEDGE_BASE_STATS)', () => {
    const stats = model.knowledgeBaseStats!;
    expect(stats).toHaveLength(KNOWLEDGE_BASE_STATS.length);
    for (const v of stats) expect(Number.isFinite(v)).toBe(true);
    for (const j of VECTOR_STATS) expect(withoutVectors.knowledgeBaseStats![j]).toBe(0);
    // Entries that share their words are closer to each other than entries that do not.
    const alike = [
      { id: 'a', questions: ['how do I activate my new card', 'activate the card please'], answer: 'a', link: null },
      { id: 'b', questions: ['how do I cancel my new card', 'cancel the card please'], answer: 'b', link: null },
      { id: 'c', questions: ['how do I freeze my new card', 'freeze the card please'], answer: 'c', link: null },
    ];
    const apart = [
      { id: 'a', questions: ['how do I activate my new card', 'activate the card please'], answer: 'a', link: null },
      { id: 'b', questions: ['when does the shop open on sundays', 'opening hours on the weekend'], answer: 'b', link: null },
      { id: 'c', questions: ['can I pay the invoice by bank transfer', 'transfer money for an invoice'], answer: 'c', link: null },
    ];
    const a = trainEmbeddedModel(alike, {}, { wordVectors: vectors }).knowledgeBaseStats!;
    const b = trainEmbeddedModel(apart, {}, { wordVectors: vectors }).knowledgeBaseStats!;
    expect(a[0]).toBeGreaterThan(b[0]! + 0.2);
    expect(a[2]).toBeGreaterThan(b[2]!);
    // Within-entry similarity: 0 with one question per entry.
    const single = trainEmbeddedModel(
      alike.map((e) => ({ ...e, questions: e.questions.slice(0, 1) })),
      {},
      { wordVectors: vectors },
    ).knowledgeBaseStats!;
    expect(single[3]).toBe(0);
    expect(single[4]).toBe(0);
    expect(a[3]).toBeGreaterThan(0);
  });

  it("reads the entries' answer texts as evidence (ANSWER_FEATURES) and as one more training question of the softmax (faq.answerRows)", () => {
    const blankEntries = SHOP_FAQ.map((e) => ({ ...e, answer: '' }));
    const blank = trainEmbeddedModel(blankEntries, {}, { wordVectors: vectors });
    expect(model.answers).toEqual(SHOP_FAQ.map((e) => answerEvidence(e.answer)));
    expect(blank.answers.every((a) => a === '')).toBe(true);
    // "mastercard" is a word of the payment entry's answer alone, in none of the example questions.
    const question = 'mastercard?';
    const withAnswers = model.entryFeatures(question)!;
    const without = blank.entryFeatures(question)!;
    const payment = model.labels.indexOf('payment');
    expect(withAnswers[payment * F + 11]).toBeGreaterThan(0);
    expect(withAnswers[payment * F + 15]).toBeGreaterThan(0);
    for (let c = 0; c < model.labels.length; c++) {
      if (c !== payment) expect(withAnswers[c * F + 15]).toBe(0);
      for (const j of ANSWER_FEATURES) expect(without[c * F + j]).toBe(0);
    }
    // The softmax learned the answer's word: the payment entry's log-probability rises, and it leads.
    expect(withAnswers[payment * F]).toBeGreaterThan(without[payment * F]! + 0.5);
    for (let c = 0; c < model.labels.length; c++) if (c !== payment) expect(withAnswers[payment * F]).toBeGreaterThan(withAnswers[c * F]!);
    // Without answer rows the answers change only ANSWER_FEATURES: every other feature is the blank knowledge base's.
    const noRows = trainEmbeddedModel(SHOP_FAQ, { faq: { answerRows: false } }, { wordVectors: vectors }).entryFeatures(question)!;
    const blankNoRows = trainEmbeddedModel(blankEntries, { faq: { answerRows: false } }, { wordVectors: vectors }).entryFeatures(question)!;
    for (let c = 0; c < model.labels.length; c++) {
      for (let j = 0; j < F; j++) if (!(ANSWER_FEATURES as readonly number[]).includes(j)) expect(noRows[c * F + j], `feature ${j}`).toBe(blankNoRows[c * F + j]);
    }
    // The answers are in the fingerprint (an edited answer is a different model).
    expect(model.fingerprint).not.toBe(blank.fingerprint);
  });

  it("answers more of a real FAQ's paraphrases at 0.8 with its answers than without, never wrongly (the bike shop, the packaged word vectors)", () => {
    const entries = BIKE_SHOP_FAQ.map((e, i) => ({ id: String(i), questions: e.questions, answer: e.answer, link: null }));
    const answered = (answers: boolean) => {
      const m = trainEmbeddedModel(answers ? entries : entries.map((e) => ({ ...e, answer: '' })));
      const sure = BIKE_SHOP_PARAPHRASES.map(({ entry, text }) => ({ entry, p: m.predict(text)! })).filter(({ p }) => p.confidence >= 0.8);
      expect(sure.filter(({ entry, p }) => p.entryId !== String(entry))).toEqual([]);
      return sure.length;
    };
    const withAnswers = answered(true);
    expect(withAnswers).toBeGreaterThan(answered(false));
    expect(withAnswers).toBeGreaterThanOrEqual(13);
  });

  it(`reads an answer's first ${ANSWER_WORDS} words only`, () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    expect(answerEvidence(long).split(' ')).toHaveLength(ANSWER_WORDS);
    expect(answerEvidence('  Nine to five.  ')).toBe('Nine to five.');
    expect(answerEvidence('')).toBe('');
    expect(answerEvidence(' … ')).toBe('');
  });

  it('stores format v6 with the scorer, its vectors and the answers, and round-trips to identical predictions', () => {
    const json = JSON.parse(JSON.stringify(model)) as { format: string; scorer: { kind: string; wordVectors: string | null }; linear: { kind: string }; answers?: string[] };
    expect(json.format).toBe('parley.embedded.v6');
    expect(json.answers).toEqual(model.answers);
    expect(json.scorer).toEqual({ kind: 'faq', wordVectors: 'fake-vectors@1' });
    expect(json.linear.kind).toBe('softmax');
    const loaded = loadEmbeddedModel(JSON.parse(JSON.stringify(json)), { wordVectors: vectors });
    for (const { question } of SHOP_PARAPHRASES) expect(loaded.predict(question)).toEqual(model.predict(question));
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(model));
    expect(() => loadEmbeddedModel(json, { wordVectors: null })).toThrow(/not available/);
    const plain = JSON.parse(JSON.stringify(withoutVectors)) as typeof json;
    expect(plain.scorer).toEqual({ kind: 'faq', wordVectors: null });
    expect(loadEmbeddedModel(plain, { wordVectors: null }).predict('when do you open')).toEqual(withoutVectors.predict('when do you open'));
  });

  it('loads v5 models (no answers stored) as a knowledge base without answer texts', () => {
    const blank = trainEmbeddedModel(
      SHOP_FAQ.map((e) => ({ ...e, answer: '' })),
      {},
      { wordVectors: vectors },
    );
    // A v5 model was trained on the questions alone (its softmax never saw an answer) and stores no answers.
    const v5 = JSON.parse(JSON.stringify(blank)) as Record<string, unknown> & { options: { faq: Record<string, unknown> } };
    v5.format = 'parley.embedded.v5';
    delete v5.answers;
    delete v5.options.faq.answerRows;
    const loaded = loadEmbeddedModel(v5, { wordVectors: vectors });
    expect(loaded.answers.every((a) => a === '')).toBe(true);
    for (const { question } of SHOP_PARAPHRASES) expect(loaded.predict(question)).toEqual(blank.predict(question));
  });

  it('has a small knowledge base with answers retrained when it was stored before answers were training questions', () => {
    const before = JSON.parse(JSON.stringify(model)) as Record<string, unknown> & { options: { faq: Record<string, unknown> } };
    delete before.options.faq.answerRows;
    expect(() => loadEmbeddedModel(before, { wordVectors: vectors })).toThrow(/retrained/);
    // Without answers there is nothing to learn from them: it loads.
    const blank = JSON.parse(JSON.stringify(trainEmbeddedModel(SHOP_FAQ.map((e) => ({ ...e, answer: '' })), {}, { wordVectors: vectors }))) as typeof before;
    delete blank.options.faq.answerRows;
    expect(loadEmbeddedModel(blank, { wordVectors: vectors }).predict('when do you open')).not.toBeNull();
  });

  it('has older softmax models retrained (they would miss the small-knowledge-base path)', () => {
    const v4 = JSON.parse(JSON.stringify(withoutVectors)) as Record<string, unknown> & { options: Record<string, unknown> };
    v4.format = 'parley.embedded.v4';
    delete v4.scorer;
    delete v4.options.faq;
    expect(() => loadEmbeddedModel(v4, { wordVectors: null })).toThrow(/retrained/);
  });

  it('is deterministic, and its held-out report is the cross-validated accuracy of the same path', () => {
    expect(JSON.stringify(trainEmbeddedModel(SHOP_FAQ, {}, { wordVectors: vectors }))).toBe(JSON.stringify(model));
    expect(model.heldOut.questions).toBeGreaterThanOrEqual(30);
    expect(model.heldOut.accuracy).toBeGreaterThan(0.5);
  });
});
