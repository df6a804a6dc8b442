/**
 * TF-IDF over hashed word and character n-grams: sublinear tf (1 + ln tf), smoothed idf raised to
 * `idfPower` (a damped idf: rare n-grams count less against frequent ones), each group
 * L2-normalised on its own and weighted, then the whole vector scaled to unit length.
 *
 * Features never seen in training still count in the norms (with the largest idf), so a question
 * made mostly of unknown words ends up a short vector: the classifier's logits stay near the
 * biases and its confidence low, which is what out-of-scope questions should get.
 */
import { extractFeatures, type FeatureCounts, type HashCounts, type TextFeatureOptions } from './text';

export interface SparseVector {
  /** Feature indices (distinct, in no particular order). */
  indices: Int32Array;
  values: Float32Array;
}

export interface VectorizerOptions extends TextFeatureOptions {
  /** Keep features seen in at least this many training texts. */
  minDf: number;
  /** Weight of the character group relative to the word group (both unit length before weighting). */
  charWeight: number;
  /** idf = (ln((1 + n) / (1 + df)) + 1) ^ idfPower: 1 is the usual smoothed idf, 0 none. */
  idfPower: number;
}

export interface VectorizerState {
  options: VectorizerOptions;
  wordKeys: Uint32Array;
  charKeys: Uint32Array;
  /** idf per feature (with `idfPower` applied): word features first, then character features. */
  idf: Float32Array;
}

export class Vectorizer {
  readonly dimension: number;
  private readonly wordIndex: HashIndex;
  private readonly charIndex: HashIndex;
  private readonly unknownIdf: number;

  constructor(readonly state: VectorizerState) {
    this.wordIndex = new HashIndex(state.wordKeys, 0);
    const offset = state.wordKeys.length;
    this.charIndex = new HashIndex(state.charKeys, offset);
    this.dimension = offset + state.charKeys.length;
    let maxIdf = 1;
    for (const v of state.idf) if (v > maxIdf) maxIdf = v;
    this.unknownIdf = maxIdf;
  }

  static fit(texts: readonly string[], options: VectorizerOptions): Vectorizer {
    return Vectorizer.fitCounts(
      texts.map((text) => extractFeatures(text, options)),
      options,
    );
  }

  /** Fits on texts already run through `extractFeatures` with the same options. */
  static fitCounts(counts: readonly FeatureCounts[], options: VectorizerOptions): Vectorizer {
    const wordDf = new Map<number, number>();
    const charDf = new Map<number, number>();
    for (const { words, chars } of counts) {
      for (const key of words.keys) wordDf.set(key, (wordDf.get(key) ?? 0) + 1);
      for (const key of chars.keys) charDf.set(key, (charDf.get(key) ?? 0) + 1);
    }
    const keep = (df: Map<number, number>) =>
      Uint32Array.from([...df].filter(([, n]) => n >= options.minDf).map(([key]) => key)).sort();
    const wordKeys = keep(wordDf);
    const charKeys = keep(charDf);
    const n = counts.length;
    const idf = new Float32Array(wordKeys.length + charKeys.length);
    const idfOf = (df: number) => (Math.log((1 + n) / (1 + df)) + 1) ** options.idfPower;
    wordKeys.forEach((key, i) => (idf[i] = idfOf(wordDf.get(key)!)));
    charKeys.forEach((key, i) => (idf[wordKeys.length + i] = idfOf(charDf.get(key)!)));
    return new Vectorizer({ options: { ...options }, wordKeys, charKeys, idf });
  }

  transform(text: string): SparseVector {
    return this.transformCounts(extractFeatures(text, this.state.options));
  }

  transformCounts({ words, chars }: FeatureCounts): SparseVector {
    const capacity = words.keys.length + chars.keys.length;
    const indices = new Int32Array(capacity);
    const values = new Float32Array(capacity);
    let n = 0;
    const idf = this.state.idf;
    const unknownIdf = this.unknownIdf;
    const group = ({ keys, counts }: HashCounts, index: HashIndex, weight: number): boolean => {
      let norm2 = 0;
      const start = n;
      for (let k = 0; k < keys.length; k++) {
        const i = index.get(keys[k]!);
        const w = 1 + Math.log(counts[k]!);
        if (i < 0) {
          norm2 += (w * unknownIdf) ** 2;
        } else {
          const v = w * idf[i]!;
          norm2 += v * v;
          indices[n] = i;
          values[n++] = v;
        }
      }
      if (norm2 === 0) return false;
      const scale = weight / Math.sqrt(norm2);
      for (let k = start; k < n; k++) values[k]! *= scale;
      return true;
    };
    const cw = this.state.options.charWeight;
    const hasWords = group(words, this.wordIndex, 1);
    const hasChars = group(chars, this.charIndex, cw);
    const total = Math.sqrt((hasWords ? 1 : 0) + (hasChars ? cw * cw : 0));
    if (total > 0) for (let k = 0; k < n; k++) values[k]! /= total;
    return { indices: indices.slice(0, n), values: values.slice(0, n) };
  }
}

/** Feature hash → index: open addressing with linear probing (several times faster than a Map here). */
class HashIndex {
  private readonly keys: Uint32Array;
  private readonly values: Int32Array;
  private readonly mask: number;

  constructor(keys: Uint32Array, offset: number) {
    let capacity = 16;
    while (capacity < keys.length * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.values = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
    keys.forEach((key, i) => {
      let slot = this.slot(key);
      while (this.values[slot]! >= 0) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.values[slot] = offset + i;
    });
  }

  private slot(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 7) & this.mask;
  }

  /** The index of `key`, or -1. */
  get(key: number): number {
    let slot = this.slot(key);
    for (;;) {
      const value = this.values[slot]!;
      if (value < 0 || this.keys[slot] === key) return value;
      slot = (slot + 1) & this.mask;
    }
  }
}

/**
 * Training vectors packed for fast dot products: the rows of class c are classStart[c] …
 * classStart[c+1]−1, and row r's non-zeros are rowStart[r] … rowStart[r+1]−1 of the flat arrays.
 */
export interface PackedRows {
  classStart: Int32Array;
  rowStart: Int32Array;
  flatIndices: Int32Array;
  flatValues: Float32Array;
}

/** Packs `rowsByClass` (rows in class order) into flat typed arrays (PackedRows). */
export function packRows(rowsByClass: readonly (readonly SparseVector[])[]): PackedRows {
  const rows = rowsByClass.flat();
  const classStart = new Int32Array(rowsByClass.length + 1);
  rowsByClass.forEach((members, c) => (classStart[c + 1] = classStart[c]! + members.length));
  const rowStart = new Int32Array(rows.length + 1);
  rows.forEach((row, r) => (rowStart[r + 1] = rowStart[r]! + row.indices.length));
  const flatIndices = new Int32Array(rowStart[rows.length]!);
  const flatValues = new Float32Array(rowStart[rows.length]!);
  rows.forEach((row, r) => {
    flatIndices.set(row.indices, rowStart[r]);
    flatValues.set(row.values, rowStart[r]);
  });
  return { classStart, rowStart, flatIndices, flatValues };
}
