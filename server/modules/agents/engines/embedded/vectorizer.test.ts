import { describe, expect, it } from 'vitest';
import { Vectorizer, type VectorizerOptions } from './vectorizer';

const TEXTS = ['card arrived', 'card declined', 'card lost', 'refund please'];
const options = (idfPower: number): VectorizerOptions => ({ wordNgrams: [1, 1], charNgrams: [3, 3], wordBoundaries: false, minDf: 1, charWeight: 0, idfPower });

/** Value of each word feature of "card refund" (one common word, one rare), by feature index. */
function wordValues(idfPower: number): { common: number; rare: number } {
  const v = Vectorizer.fit(TEXTS, options(idfPower));
  const common = v.transform('card');
  const rare = v.transform('refund');
  const both = v.transform('card refund');
  const valueOf = (index: number) => both.values[Array.from(both.indices).indexOf(index)]!;
  return { common: valueOf(common.indices[0]!), rare: valueOf(rare.indices[0]!) };
}

describe('Vectorizer', () => {
  it('weights n-grams by idf raised to idfPower: 1 the smoothed idf, 0.5 its square root, 0 none', () => {
    const idf = (df: number) => Math.log((1 + TEXTS.length) / (1 + df)) + 1;
    const ratio = idf(1) / idf(3);
    for (const power of [1, 0.5, 0]) {
      const { common, rare } = wordValues(power);
      expect(rare / common).toBeCloseTo(ratio ** power, 5);
    }
  });

  it('makes vectors unit length, and counts unknown n-grams in the norm', () => {
    const v = Vectorizer.fit(TEXTS, options(1));
    const known = v.transform('card lost');
    expect(Math.hypot(...known.values)).toBeCloseTo(1, 5);
    const partly = v.transform('card zebra');
    // One known word; the character group is weighted 0 here.
    expect(Array.from(partly.values).filter((x) => x > 0)).toHaveLength(1);
    expect(Math.hypot(...partly.values)).toBeLessThan(0.8);
  });
});
