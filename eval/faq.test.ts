import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { carvePerLabel, DATASETS_DIR, type Example, toEntries } from './datasets';
import {
  BANKING_VALIDATION_PER_INTENT,
  entryTitle,
  type Episode,
  FAQ_BEGIN,
  FAQ_END,
  FAQ_INTENTS,
  FAQ_OTHER_INTENT,
  FAQ_OUT_OF_SCOPE,
  faqHybridLines,
  loadFaqPools,
  sampleEpisode,
  scoreEpisode,
  spliceFaqSection,
  stat,
  summarise,
} from './faq';

/** 30 intents, 10 FAQ candidates and 12 held-out questions each, 200 out-of-scope questions. */
function syntheticPool(outOfScope = 200) {
  const labels = Array.from({ length: 30 }, (_, i) => `intent${String(i).padStart(2, '0')}`);
  return {
    faq: labels.flatMap((label) => Array.from({ length: 10 }, (_, i) => ({ text: `faq ${label} ${i}`, label }))),
    heldOut: labels.flatMap((label) => Array.from({ length: 12 }, (_, i) => ({ text: `held ${label} ${i}`, label }))),
    outOfScope: Array.from({ length: outOfScope }, (_, i) => ({ text: `oos ${i}`, label: 'oos' })),
  };
}

const spec = (k: number) => ({ intents: FAQ_INTENTS, k, otherIntent: FAQ_OTHER_INTENT, outOfScope: FAQ_OUT_OF_SCOPE });
const texts = (examples: readonly Example[]) => examples.map((e) => e.text);

function countByLabel(examples: readonly Example[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of examples) counts.set(e.label, (counts.get(e.label) ?? 0) + 1);
  return counts;
}

function expectWellFormed(episode: Episode, k: number, pool: { faq: readonly Example[]; heldOut: readonly Example[]; outOfScope: readonly Example[] }) {
  const chosen = new Set(episode.intents);
  expect(chosen.size).toBe(FAQ_INTENTS);
  // k FAQ questions per chosen intent, all from the FAQ split.
  const faqCounts = countByLabel(episode.faq);
  expect([...faqCounts.keys()].sort()).toEqual(episode.intents);
  for (const n of faqCounts.values()) expect(n).toBe(k);
  expect(new Set(texts(episode.faq)).size).toBe(episode.faq.length);
  for (const e of episode.faq) expect(pool.faq).toContain(e);
  // Paraphrases: every held-out question of the chosen intents.
  expect(episode.paraphrases).toEqual(pool.heldOut.filter((e) => chosen.has(e.label)));
  // Unanswerable: other intents' held-out questions and out-of-scope ones.
  for (const e of episode.otherIntent) {
    expect(chosen.has(e.label)).toBe(false);
    expect(pool.heldOut).toContain(e);
  }
  for (const e of episode.outOfScope) expect(pool.outOfScope).toContain(e);
  // The four sets are disjoint (as objects and as texts).
  const parts = [episode.faq, episode.paraphrases, episode.otherIntent, episode.outOfScope];
  const all = parts.flat();
  expect(new Set(all).size).toBe(all.length);
  expect(new Set(texts(all)).size).toBe(all.length);
}

describe('FAQ-sized episodes', () => {
  const pool = syntheticPool();

  it('draws 15 intents, k FAQ questions each, every paraphrase of those intents and 150 + 150 unanswerable questions', () => {
    for (const k of [1, 2, 4]) {
      const episode = sampleEpisode(pool, 3, spec(k));
      expectWellFormed(episode, k, pool);
      expect(episode.faq).toHaveLength(15 * k);
      expect(episode.paraphrases).toHaveLength(15 * 12);
      expect(episode.otherIntent).toHaveLength(150);
      expect(episode.outOfScope).toHaveLength(150);
      expect(new Set(texts(episode.otherIntent)).size).toBe(150);
      expect(new Set(texts(episode.outOfScope)).size).toBe(150);
    }
  });

  it('is a function of the seed: the same seed gives the same episode, other seeds other ones', () => {
    expect(sampleEpisode(pool, 7, spec(2))).toEqual(sampleEpisode(pool, 7, spec(2)));
    const intents = new Set(Array.from({ length: 10 }, (_, i) => sampleEpisode(pool, i + 1, spec(2)).intents.join()));
    expect(intents.size).toBe(10);
    expect(texts(sampleEpisode(pool, 1, spec(2)).outOfScope)).not.toEqual(texts(sampleEpisode(pool, 2, spec(2)).outOfScope));
  });

  it('does not depend on the order of the pool', () => {
    const reversed = { faq: [...pool.faq].reverse(), heldOut: [...pool.heldOut].reverse(), outOfScope: pool.outOfScope };
    expect(sampleEpisode(reversed, 5, spec(4)).intents).toEqual(sampleEpisode(pool, 5, spec(4)).intents);
  });

  it('shares intents and unanswerable questions across k for one seed, with nested FAQs', () => {
    const [e1, e2, e4] = [1, 2, 4].map((k) => sampleEpisode(pool, 11, spec(k)));
    expect(e2!.intents).toEqual(e1!.intents);
    expect(e4!.intents).toEqual(e1!.intents);
    expect(e4!.otherIntent).toEqual(e1!.otherIntent);
    expect(e4!.outOfScope).toEqual(e1!.outOfScope);
    expect(e4!.paraphrases).toEqual(e1!.paraphrases);
    for (const e of e1!.faq) expect(e2!.faq).toContain(e);
    for (const e of e2!.faq) expect(e4!.faq).toContain(e);
  });

  it('takes every out-of-scope question when the pool has fewer than asked', () => {
    const small = syntheticPool(100);
    const episode = sampleEpisode(small, 1, spec(1));
    expect(episode.outOfScope).toHaveLength(100);
    expect(new Set(episode.outOfScope)).toEqual(new Set(small.outOfScope));
  });

  it('refuses an episode the pool cannot fill', () => {
    expect(() => sampleEpisode(pool, 1, spec(11))).toThrow(/fewer than k = 11/);
    expect(() => sampleEpisode(pool, 1, { ...spec(1), otherIntent: 1000 })).toThrow(/other-intent/);
    expect(() => sampleEpisode(pool, 1, { ...spec(1), intents: 30 })).toThrow(/more than 30 intents/);
  });
});

describe('FAQ-sized scoring', () => {
  const pool = syntheticPool();
  const episode = sampleEpisode(pool, 2, spec(1));
  // Right on the first 6 questions of every intent (confidence 0.95), wrong on the rest (0.75);
  // other intents' questions get 0.85, out-of-scope ones 0.5.
  const predict = (text: string) => {
    const [kind, label, i] = text.split(' ');
    if (kind === 'oos') return { entryId: episode.intents[0]!, confidence: 0.5 };
    if (!episode.intents.includes(label!)) return { entryId: episode.intents[0]!, confidence: 0.85 };
    return Number(i) < 6 ? { entryId: label!, confidence: 0.95 } : { entryId: 'wrong', confidence: 0.75 };
  };

  it('counts answered, errors and hand-offs per threshold', () => {
    const score = scoreEpisode(predict, episode);
    expect(score).toMatchObject({ paraphrases: 180, otherIntent: 150, outOfScope: 150, correct: 90 });
    expect(score.thresholds).toEqual([
      { threshold: 0.7, answered: 180, wrong: 90, otherHandedOff: 0, outOfScopeHandedOff: 150 },
      { threshold: 0.8, answered: 90, wrong: 0, otherHandedOff: 0, outOfScopeHandedOff: 150 },
      { threshold: 0.9, answered: 90, wrong: 0, otherHandedOff: 150, outOfScopeHandedOff: 150 },
    ]);
    // Half the questions at 0.95 all right (|1 − 0.95|), half at 0.75 all wrong (|0 − 0.75|).
    expect(score.calibrationError).toBeCloseTo((0.05 + 0.75) / 2, 10);
  });

  it('summarises episodes: mean and SD per episode, the error pooled, episodes answering nothing', () => {
    const good = scoreEpisode(predict, episode);
    const silent = scoreEpisode(() => ({ entryId: 'x', confidence: 0.1 }), episode);
    const s = summarise({ id: 'p', name: 'P' }, 1, [good, silent], [10, 20]);
    expect(s.accuracy.mean).toBeCloseTo(0.25, 10);
    const at = s.thresholds[0]!;
    expect(at.answered).toMatchObject({ mean: 0.5, min: 0, max: 1 });
    expect(at.answered.sd).toBeCloseTo(Math.SQRT1_2, 10);
    expect(at.error).toBeCloseTo(0.5, 10);
    expect(at.episodesAnsweringNothing).toBe(1);
    expect(at.errorPerEpisode).toMatchObject({ mean: 0.5, sd: 0 });
    expect(at.handedOff.mean).toBeCloseTo((0.5 + 1) / 2, 10);
    expect(s.trainMs.mean).toBe(15);
    // Hybrid: every question at or above the threshold is answered without the LLM — at 0.7 the good
    // episode's 180 paraphrases and 150 other-intent questions of 480, the silent one's none.
    expect(at.withoutLlm.mean).toBeCloseTo(330 / 480 / 2, 10);
    const run = { validation: false, titles: true, episodes: 2, pools: [], settings: [s], seconds: 0 };
    expect(faqHybridLines(run, 1)).toEqual([
      'Hybrid (embedded first), P, k = 1 @0.8: questions answered without calling the LLM — 25.0 ± 35.4 % of the paraphrases (error 0.0 %), 25.0 ± 35.4 % of all questions including the unanswerable ones',
    ]);
  });

  it('stat: mean, sample standard deviation, min and max', () => {
    expect(stat([1, 2, 3, 4])).toEqual({ mean: 2.5, sd: Math.sqrt(5 / 3), min: 1, max: 4 });
    expect(stat([0.3])).toEqual({ mean: 0.3, sd: 0, min: 0.3, max: 0.3 });
    expect(Number.isNaN(stat([]).mean)).toBe(true);
  });
});

describe('carvePerLabel', () => {
  it('moves a seeded n of every label to the second part', () => {
    const pool = syntheticPool();
    const [keep, held] = carvePerLabel(pool.faq, 3, 7);
    expect(keep).toHaveLength(30 * 7);
    expect(held).toHaveLength(30 * 3);
    for (const n of countByLabel(held).values()) expect(n).toBe(3);
    expect(new Set([...texts(keep), ...texts(held)]).size).toBe(pool.faq.length);
    expect(carvePerLabel(pool.faq, 3, 7)).toEqual([keep, held]);
  });
});

describe('entry titles', () => {
  it("humanise the intent's name, and are the entries' answers only when asked (no label in an answer by default)", () => {
    expect(entryTitle('card_arrival')).toBe('Card arrival');
    expect(entryTitle('Refund_not_showing_up')).toBe('Refund not showing up');
    expect(entryTitle('w2')).toBe('W2');
    const examples = [
      { text: 'where is my card', label: 'card_arrival' },
      { text: 'my card has not come', label: 'card_arrival' },
      { text: 'what is the rate', label: 'exchange_rate' },
    ];
    expect(toEntries(examples).map((e) => e.answer)).toEqual(['', '']);
    expect(toEntries(examples, entryTitle).map((e) => [e.id, e.answer, e.questions.length])).toEqual([
      ['card_arrival', 'Card arrival', 2],
      ['exchange_rate', 'Exchange rate', 1],
    ]);
  });
});

describe('spliceFaqSection', () => {
  it('replaces only the generated block', () => {
    const doc = `# t\n\n${FAQ_BEGIN}\nold\n${FAQ_END}\n\n## Method\n`;
    expect(spliceFaqSection(doc, 'new')).toBe(`# t\n\n${FAQ_BEGIN}\nnew\n${FAQ_END}\n\n## Method\n`);
    expect(() => spliceFaqSection('# t\n', 'new')).toThrow(/faq:begin/);
  });
});

const haveDatasets = fs.existsSync(path.join(DATASETS_DIR, 'banking77/train.csv')) && fs.existsSync(path.join(DATASETS_DIR, 'clinc150/data_full.json'));

describe.skipIf(!haveDatasets)('FAQ-sized episodes on the public datasets', () => {
  it('test episodes: 600 (BANKING77) / 450 (CLINC150) paraphrases, 150 other-intent and 150 oos_test questions', () => {
    const [banking, clinc] = loadFaqPools(false);
    for (const [pool, paraphrases] of [
      [banking!, 15 * 40],
      [clinc!, 15 * 30],
    ] as const) {
      for (const k of [1, 4]) {
        const episode = sampleEpisode(pool, 1, spec(k));
        expectWellFormed(episode, k, pool);
        expect(episode.paraphrases).toHaveLength(paraphrases);
        expect(episode.otherIntent).toHaveLength(150);
        expect(episode.outOfScope).toHaveLength(150);
      }
    }
  });

  it('validation episodes never use a test split: BANKING77 carved from train.csv, CLINC150 val and all of oos_val', () => {
    const [banking, clinc] = loadFaqPools(true);
    expect(banking!.heldOut).toHaveLength(77 * BANKING_VALIDATION_PER_INTENT);
    expect(banking!.faq.length + banking!.heldOut.length).toBe(10_003);
    for (const [pool, paraphrases] of [
      [banking!, 15 * BANKING_VALIDATION_PER_INTENT],
      [clinc!, 15 * 20],
    ] as const) {
      const episode = sampleEpisode(pool, 1, spec(4));
      expectWellFormed(episode, 4, pool);
      expect(episode.paraphrases).toHaveLength(paraphrases);
      expect(episode.otherIntent).toHaveLength(150);
      expect(episode.outOfScope).toHaveLength(100);
    }
  });
});
