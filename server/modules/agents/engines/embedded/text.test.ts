import { describe, expect, it } from 'vitest';
import { extractFeatures, SpellingCorrector } from './text';

const words = { wordNgrams: [1, 2] as [number, number], charNgrams: [3, 3] as [number, number] };

describe('SpellingCorrector', () => {
  const corrector = SpellingCorrector.fit(['my transfer failed', 'transfer money', 'cancel the transfer', 'where is my card'], {
    rareAtMost: 1,
    commonAtLeast: 3,
    minLength: 4,
  });

  it('maps a rare or unseen word to the common word one edit away', () => {
    expect(corrector.word('trasfer')).toBe('transfer');
    expect(corrector.word('tranfser')).toBe('transfer');
  });

  it('leaves common, short, distant and numeric words alone', () => {
    expect(corrector.word('transfer')).toBe('transfer');
    expect(corrector.word('cart')).toBe('cart'); // "card" is seen only once
    expect(corrector.word('refund')).toBe('refund');
    expect(corrector.word('transfer2')).toBe('transfer2');
  });

  it('corrects the word n-grams only; the character n-grams stay those of the text as written', () => {
    const plain = extractFeatures('transfer failed', { ...words, wordBoundaries: false });
    const fixed = extractFeatures('trasfer failed', { ...words, wordBoundaries: false }, corrector);
    const raw = extractFeatures('trasfer failed', { ...words, wordBoundaries: false });
    expect(fixed.words).toEqual(plain.words);
    expect(fixed.chars).toEqual(raw.chars);
  });
});

describe('word boundaries', () => {
  it('add n-grams over start and end markers, but no unigrams of them', () => {
    const without = extractFeatures('why verify', { ...words, wordBoundaries: false });
    const withMarkers = extractFeatures('why verify', { ...words, wordBoundaries: true });
    // 2 unigrams + 1 bigram, then + "<s> why" and "verify </s>".
    expect(without.words.keys.length).toBe(3);
    expect(withMarkers.words.keys.length).toBe(5);
    expect([...without.words.keys].every((k) => withMarkers.words.keys.includes(k))).toBe(true);
    expect(extractFeatures('', { ...words, wordBoundaries: true }).words.keys.length).toBe(0);
  });
});
