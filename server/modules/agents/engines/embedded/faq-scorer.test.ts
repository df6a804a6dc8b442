import { describe, expect, it } from 'vitest';
import { SHOP_FAQ, SHOP_PARAPHRASES } from './faq-fixture';
import { F, FAQ_WEIGHTS, FAQ_WEIGHTS_NO_VECTORS, fitLogistic, fitRanking, G, type LogisticSample, type RankingSample, solve, topTwo } from './faq-scorer';
import { loadEmbeddedModel, resolveTrainOptions, trainEmbeddedModel, usesFaqScorer } from './model';
import { createRandom } from './random';
import { QuantizedWordVectors } from './word-vectors';

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
    }
    expect(FAQ_WEIGHTS_NO_VECTORS.rank[3]).toBe(0);
    expect(FAQ_WEIGHTS_NO_VECTORS.rank[5]).toBe(0);
    expect(FAQ_WEIGHTS_NO_VECTORS.rank[6]).toBe(0);
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

  it('stores format v5 with the scorer and its vectors, and round-trips to identical predictions', () => {
    const json = JSON.parse(JSON.stringify(model)) as { format: string; scorer: { kind: string; wordVectors: string | null }; linear: { kind: string } };
    expect(json.format).toBe('parley.embedded.v5');
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
