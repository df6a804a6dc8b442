/**
 * Text → hashed n-gram counts for the embedded classifier: light normalisation, a light English
 * stemmer, optional spelling normalisation learned from the training questions, word n-grams over
 * stems and word-boundary-aware character n-grams over the surface
 * words. Features are 32-bit FNV-1a hashes (no strings are built per n-gram), so the vocabulary
 * serialises as a Uint32Array.
 */

export interface TextFeatureOptions {
  /** Word n-gram sizes over stems, inclusive (e.g. [1, 2]). */
  wordNgrams: [number, number];
  /** Character n-gram sizes inside " word " (padded with spaces), inclusive (e.g. [2, 5]). */
  charNgrams: [number, number];
  /** Word n-grams (from bigrams on) also see a start and an end of question marker ("<s> why", "card </s>"). */
  wordBoundaries: boolean;
}

/** Words so common in questions that their unigrams only add noise; they still count in bigrams and character n-grams. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'i', 'my', 'me', 'is', 'it', 'to', 'of', 'do', 'be', 'and', 'or', 'for', 'on', 'in', 'at', 'this', 'that', 'am', 'are']);

/** Lower case, no diacritics, apostrophes joined ("don't" → "dont"), everything else that is not a letter or digit → space. */
export function normalizeText(text: string): string {
  // eslint-disable-next-line no-control-regex -- the ASCII fast path skips Unicode decomposition
  if (/^[\x00-\x7f]*$/u.test(text)) return text.toLowerCase().replace(/['`]/gu, '').replace(/[^a-z0-9]+/gu, ' ').trim();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized ? normalized.split(' ') : [];
}

const VOWEL = /[aeiouy]/u;

/**
 * A light suffix stripper (plural -s/-es/-ies, -ing, -ed, -ly, -ment), enough to join "refunds",
 * "refunded" and "refunding"; the character n-grams catch the rest of the morphology.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/u.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && VOWEL.test(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      // "topping" → "topp" → "top"; keep "ll", "ss", "zz" ("called" → "call").
      if (/([^aeiouylsz])\1$/u.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('ment') && w.length > 7) w = w.slice(0, -4);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

const FNV_PRIME = 0x01000193;
/** Distinct offsets keep word and character features apart in the one hash space. */
const WORD_SEED = 0x811c9dc5;
const CHAR_SEED = 0x050c5d1f;

function hashString(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Distinct feature hashes of one group in one text (ascending) and how often each occurs. */
export interface HashCounts {
  keys: Uint32Array;
  counts: Uint16Array;
}

/** Feature counts of one text, split into the two groups that are normalised separately. */
export interface FeatureCounts {
  words: HashCounts;
  chars: HashCounts;
}

/** Growable scratch buffers: one text's hashes are collected, sorted and run-length counted. */
let wordBuffer: Uint32Array = new Uint32Array(256);
let charBuffer: Uint32Array = new Uint32Array(1024);

function grow(buffer: Uint32Array, needed: number): Uint32Array {
  if (needed <= buffer.length) return buffer;
  const bigger = new Uint32Array(Math.max(needed, buffer.length * 2));
  bigger.set(buffer);
  return bigger;
}

function countRuns(buffer: Uint32Array, length: number): HashCounts {
  const sorted = buffer.subarray(0, length).sort();
  let distinct = 0;
  for (let i = 0; i < length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const keys = new Uint32Array(distinct);
  const counts = new Uint16Array(distinct);
  let j = -1;
  for (let i = 0; i < length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) keys[++j] = sorted[i]!;
    counts[j]!++;
  }
  return { keys, counts };
}

/** Stems are memoised: the same few thousand words come back in every question. */
const stemCache = new Map<string, string>();
function cachedStem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    if (stemCache.size > 100_000) stemCache.clear();
    stemCache.set(word, (s = stem(word)));
  }
  return s;
}

/** `spelling`, if given, corrects the words of the word n-grams; the character n-grams stay those of the text as written. */
export function extractFeatures(text: string, options: TextFeatureOptions, spelling?: SpellingCorrector | null): FeatureCounts {
  const tokens = tokenize(text);
  const [wMin, wMax] = options.wordNgrams;
  const stems = tokens.map((token) => cachedStem(spelling ? spelling.word(token) : token));
  // The markers are not words (no token is empty), and only n-grams from bigrams on contain them.
  if (options.wordBoundaries && stems.length) {
    stems.unshift('');
    stems.push('');
  }
  const stemHashes = stems.map((s, i) => hashString(WORD_SEED, s || (i ? '</s>' : '<s>')));
  wordBuffer = grow(wordBuffer, stems.length * wMax);
  let nw = 0;
  for (let i = 0; i < stems.length; i++) {
    let h = WORD_SEED;
    for (let n = 1; n <= wMax && i + n <= stems.length; n++) {
      // Chain the token hashes with a separator so "ab c" and "a bc" differ.
      h = Math.imul(h ^ stemHashes[i + n - 1]!, FNV_PRIME) >>> 0;
      h = Math.imul(h ^ 0x20, FNV_PRIME) >>> 0;
      if (n < wMin) continue;
      if (n === 1 && (STOP_WORDS.has(stems[i]!) || !stems[i])) continue;
      wordBuffer[nw++] = h;
    }
  }
  const [cMin, cMax] = options.charNgrams;
  let chars = 0;
  for (const token of tokens) chars += token.length + 2;
  charBuffer = grow(charBuffer, chars * cMax);
  let nc = 0;
  for (const token of tokens) {
    const padded = ` ${token} `;
    const len = padded.length;
    for (let i = 0; i < len; i++) {
      let h = CHAR_SEED;
      for (let n = 1; n <= cMax && i + n <= len; n++) {
        h = Math.imul(h ^ padded.charCodeAt(i + n - 1), FNV_PRIME) >>> 0;
        if (n >= cMin && !(n === 1 && i === 0)) charBuffer[nc++] = h;
      }
    }
  }
  return { words: countRuns(wordBuffer, nw), chars: countRuns(charBuffer, nc) };
}

/** A stable 32-bit hash of any strings, for fingerprints. */
export function hashStrings(parts: readonly string[]): string {
  let a = WORD_SEED;
  let b = CHAR_SEED;
  for (const part of parts) {
    a = hashString(a, part);
    a = Math.imul(a ^ 0x1f, FNV_PRIME) >>> 0;
    b = hashString(b, part);
    b = Math.imul(b ^ 0x1e, FNV_PRIME) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

export interface SpellingOptions {
  /** A word seen at most this many times in the training questions (0 = unseen) may be a misspelling… */
  rareAtMost: number;
  /** …of the most frequent word one edit away that is seen at least this many times. */
  commonAtLeast: number;
  /** Shorter words and words with digits are left alone. */
  minLength: number;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every string one Damerau edit (deletion, adjacent transposition, substitution, insertion of a–z) away. */
function editsOne(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    const head = w.slice(0, i);
    if (i < w.length) out.push(head + w.slice(i + 1));
    if (i < w.length - 1) out.push(head + w[i + 1]! + w[i]! + w.slice(i + 2));
    for (const ch of LETTERS) {
      if (i < w.length && ch !== w[i]) out.push(head + ch + w.slice(i + 1));
      out.push(head + ch + w.slice(i));
    }
  }
  return out;
}

/**
 * Spelling normalisation learned from the training questions only: a rare or unseen word
 * ("trasfer", "recieving") becomes the most frequent training word one edit away ("transfer",
 * "receiving"), if that word is common. Applied to the word n-grams of training and incoming
 * questions alike, so misspellings share the word features of the word they stand for (the
 * character n-grams already overlap).
 */
export class SpellingCorrector {
  private readonly memo = new Map<string, string>();

  private constructor(
    private readonly counts: ReadonlyMap<string, number>,
    private readonly options: SpellingOptions,
  ) {}

  static fit(texts: readonly string[], options: SpellingOptions): SpellingCorrector {
    const counts = new Map<string, number>();
    for (const text of texts) for (const word of tokenize(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    return new SpellingCorrector(counts, options);
  }

  /** A word as `tokenize` gives it, corrected (or as it is). */
  word(word: string): string {
    let fixed = this.memo.get(word);
    if (fixed !== undefined) return fixed;
    fixed = word;
    const { rareAtMost, commonAtLeast, minLength } = this.options;
    if (word.length >= minLength && (this.counts.get(word) ?? 0) <= rareAtMost && !/\d/u.test(word)) {
      let best = 0;
      for (const candidate of editsOne(word)) {
        const n = this.counts.get(candidate) ?? 0;
        if (n >= commonAtLeast && n > best) {
          best = n;
          fixed = candidate;
        }
      }
    }
    if (this.memo.size > 50_000) this.memo.clear();
    this.memo.set(word, fixed);
    return fixed;
  }
}
