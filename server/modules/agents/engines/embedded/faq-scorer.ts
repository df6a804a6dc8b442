/**
 * The small-knowledge-base path (issue 12 §2, model format v5): with a few example questions per
 * entry a trained classifier has too little to learn from and its cross-validated calibration even
 * less (a 15-entry FAQ with one question each has 15 questions to calibrate on). So each entry is
 * scored by how similar the question is to the entry's example questions, and the confidence comes
 * from a small calibration model whose coefficients were fitted OFFLINE on public validation data,
 * not on the knowledge base itself.
 *
 * Per entry, ENTRY_FEATURES:
 *   - the log-probability of the entry under the softmax regression trained on the knowledge base
 *     (what discriminates between entries);
 *   - the largest and the mean cosine between the question's TF-IDF vector (word + character
 *     n-grams, the softmax's vectorizer) and the entry's example questions' vectors;
 *   - the largest and the mean cosine between pooled word vectors (DenseFeaturizer: idf-weighted
 *     mean, max, min and 3-word-window pooling of the pre-trained vectors, the mean of the four
 *     blocks' cosines), which matches related words the n-grams cannot ("till what time" ~ "hours");
 *   - soft word matching: the idf-weighted share of the question's words that have a match among
 *     the entry's words, a word counting 1 when its stem is one of the entry's and otherwise the
 *     largest cosine of its word vector to the entry's words' (a soft "word coverage"), and the other
 *     way round, the best-covered example question of the entry;
 *   - the same two with exact stems only (no vectors);
 *   - contrastive coverage: per question word, how much better this entry covers it than the best
 *     other entry does (soft, idf-weighted share), and the question's words that only this entry
 *     has (exact).
 *
 * The entries are ranked by RANK_WEIGHTS · features (a conditional logit: P(entry) = softmax of
 * those scores over the entries). The confidence of the top entry is a logistic regression on
 * CONFIDENCE_FEATURES (its ranking log-odds, margin, cosines and coverages, the runner-up's, the
 * ranking's entropy, ln(questions per entry) and products with it, and KNOWLEDGE_BASE_STATS: how
 * close the knowledge base's entries are to each other and how alike each entry's questions are,
 * computed once when the scorer is built), its logit then stretched above the default threshold
 * by a fitted slope (FaqScorerWeights.slopes, confidenceOfLogit).
 *
 * Both weight vectors are constants fitted by `npx tsx eval/fit-faq-scorer.ts` on the FAQ-sized
 * protocol's VALIDATION episodes only (eval/faq.ts: BANKING77 paraphrases carved from train.csv,
 * CLINC150 `val` / `oos_val`; never a test split); that script prints them and re-running it
 * reproduces them. The entries' answer texts are evidence too (ANSWER_FEATURES, model format v6).
 * A second set is fitted with the word-vector features zeroed, for processes
 * without the vectors (PARLEY_WORD_VECTORS=off, or the package missing).
 */
import { type LinearModel, linearScores } from './linear';
import { packRows, type SparseVector, type Vectorizer } from './vectorizer';
import { type FeatureCounts, stem, tokenize } from './text';
import type { DenseFeaturizer, WordVectors } from './word-vectors';

export const ENTRY_FEATURES = [
  'softmax log p',
  'TF-IDF max cosine',
  'TF-IDF mean cosine',
  'word-vector max cosine',
  'word-vector mean cosine',
  'soft coverage of the question by the entry',
  'soft coverage of the best-covered example question by the question',
  'exact coverage of the question by the entry',
  'exact coverage of the best-covered example question by the question',
  'soft coverage of the question by this entry beyond the best other entry',
  'exact coverage of the question by words of this entry alone',
  "answer text: TF-IDF cosine between the question and the entry's answer",
  "answer text: word-vector cosine between the question and the entry's answer",
  "answer text: soft coverage of the question by the answer's words",
  "answer text: soft coverage of the question by this entry's answer beyond the best other entry's answer",
  "answer text: exact coverage of the question by words of this entry's answer alone",
] as const;
/** The features that need word vectors (0 without them). */
export const VECTOR_FEATURES = [3, 4, 5, 6, 9, 12, 13, 14] as const;
/**
 * The features from the entries' answer texts (0 for an entry without one). The answers also reach
 * the other features through the softmax and its vocabulary and idf, which learn from each answer
 * as one more training question of its entry (model.ts `faq.answerRows`); the knowledge-base
 * statistics come from the example questions alone. The constants are fitted on knowledge bases
 * with answer texts and, trained again, without them: one set serves both.
 */
export const ANSWER_FEATURES = [11, 12, 13, 14, 15] as const;
export const CONFIDENCE_FEATURES = [
  'log-odds of the ranking probability',
  'score margin over the runner-up',
  'TF-IDF max cosine',
  'word-vector max cosine',
  'soft coverage of the question',
  'soft coverage of the best example question',
  'exact coverage of the question',
  'log-odds × ln questions per entry',
  'ln questions per entry',
  'knowledge base: TF-IDF max cosine of its questions to other entries',
  'knowledge base: word-vector max cosine of its questions to other entries',
  'knowledge base: soft coverage of its questions by other entries',
  'knowledge base: TF-IDF mean cosine between questions of the same entry',
  'knowledge base: word-vector mean cosine between questions of the same entry',
  'log-odds × knowledge base soft coverage by other entries',
  'entropy of the ranking probabilities',
  'runner-up soft coverage of the question',
  'runner-up word-vector max cosine',
  'runner-up TF-IDF max cosine',
  'TF-IDF max cosine × ln questions per entry',
  'word-vector max cosine × ln questions per entry',
  'soft coverage of the question × ln questions per entry',
  'answer text: TF-IDF cosine of the top entry',
  'answer text: soft coverage of the question by the top entry',
  'answer text: exact coverage by words of the top entry alone',
  'bias',
] as const;
/**
 * Statistics of the knowledge base itself (FaqScorer.knowledgeBase), the confidence's inputs 9–13:
 * how close its entries are to each other and how alike each entry's questions are, which tells how
 * hard the knowledge base is (a FAQ of fifteen card questions is harder than fifteen unrelated topics).
 */
export const KNOWLEDGE_BASE_STATS = [
  'mean over its questions of the largest TF-IDF max cosine to another entry',
  'the same with the word-vector max cosine',
  'the same with the soft coverage of the question by another entry',
  'mean TF-IDF cosine between two questions of the same entry (entries with two or more; 0 without)',
  'the same with the word vectors',
] as const;
/** The statistics that need word vectors (0 without them). */
export const VECTOR_STATS = [1, 2, 4] as const;
/** The default answer threshold, where the confidence's two slopes meet (FaqScorerWeights.slopes). */
export const PIVOT = 0.8;
export const F = ENTRY_FEATURES.length;
export const G = CONFIDENCE_FEATURES.length;

export interface FaqScorerWeights {
  rank: readonly number[];
  confidence: readonly number[];
  /**
   * The logistic's logit t is mapped to logit(PIVOT) + slope · (t − logit(PIVOT)), with slopes[0]
   * below the pivot and slopes[1] above it: which side of the default threshold a question falls on
   * is the logistic's (fitted with the unanswerable questions), how confident it is on either side is
   * refitted on the paraphrases alone. [1, 1] is the logistic unchanged.
   */
  slopes: readonly [number, number];
}

/**
 * Fitted by `npx tsx eval/fit-faq-scorer.ts --write` (validation episodes of BANKING77 and CLINC150: seeds 101–125 with 15
 * entries, k = 1, 2, 4, and seeds 201–245 of 8 / 15 / 30 entries with 1–5 questions, each with the entries' titles as
 * answer texts and again without; unanswerable share 0.25; see that script and docs/agent-evaluation.md). Do not edit by hand.
 */
// fitted:begin
export const FAQ_WEIGHTS: FaqScorerWeights = {
  rank: [2.7158, -2.3998, 2.7235, 5.5469, 2.4344, 2.827, 2.4679, -2.801, 1.3007, 24.813, -4.0102, 7.2164, 2.099, -0.55747, 8.2211, -9.5366],
  confidence: [1.5192, 0.1679, 0.26263, 0.63928, 0.88941, 0.25368, -0.76768, 0.026423, -2.5583, 1.8662, 2.9423, -3.9424, 0.11375, 0.40543, -1.5438, -0.72416, -0.75107, 0.7281, 1.285, -0.46421, 1.1663, 1.8609, 1.4093, -1.2327, 0.080117, 0.058531],
  slopes: [1, 1.451],
};
/** The same fit with the word-vector features zeroed (no vectors in this process). */
export const FAQ_WEIGHTS_NO_VECTORS: FaqScorerWeights = {
  rank: [2.893, -2.1286, 6.3381, 0, 0, 0, 0, -0.55476, 0.99322, 0, 3.4288, 8.1633, 0, 0, 0, -4.6024],
  confidence: [0.44162, 0.22898, -1.4691, 0, 0, 0, -0.59551, -0.042545, -0.60509, -1.1148, 0, 0, 1.0516, 0, 0, -0.57826, 0, 0, 2.8865, 1.5551, 0, 0, -1.2865, 0, -0.42812, 0.45698],
  slopes: [1, 1.3319],
};
// fitted:end

export interface FaqScore {
  label: number;
  confidence: number;
  /** Ranking probability of the top entry. */
  probability: number;
  /** TF-IDF max cosine of the top entry. */
  similarity: number;
  runnerUp: { label: number; confidence: number } | null;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function logit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.max(-20, Math.min(20, Math.log(q / (1 - q))));
}

/** Calibration inputs of one entry given the ranking scores and probabilities, and the knowledge base's statistics (KNOWLEDGE_BASE_STATS). */
export function confidenceInputs(
  features: Float64Array,
  scores: Float64Array,
  probabilities: Float64Array,
  entry: number,
  other: number,
  questionsPerEntry: number,
  knowledgeBase: readonly number[],
): number[] {
  // With a single entry its ranking probability is 1 whatever the question: no information.
  const logOdds = other >= 0 ? logit(probabilities[entry]!) : 0;
  const lnQuestions = Math.log(questionsPerEntry);
  let entropy = 0;
  for (const p of probabilities) if (p > 0) entropy -= p * Math.log(p);
  const at = (c: number, j: number) => (c >= 0 ? features[c * F + j]! : 0);
  return [
    logOdds,
    other >= 0 ? scores[entry]! - scores[other]! : 0,
    at(entry, 1),
    at(entry, 3),
    at(entry, 5),
    at(entry, 6),
    at(entry, 7),
    logOdds * lnQuestions,
    lnQuestions,
    knowledgeBase[0]!,
    knowledgeBase[1]!,
    knowledgeBase[2]!,
    knowledgeBase[3]!,
    knowledgeBase[4]!,
    logOdds * knowledgeBase[2]!,
    entropy,
    at(other, 5),
    at(other, 3),
    at(other, 1),
    at(entry, 1) * lnQuestions,
    at(entry, 3) * lnQuestions,
    at(entry, 5) * lnQuestions,
    at(entry, 11),
    at(entry, 13),
    at(entry, 15),
    1,
  ];
}

const PIVOT_LOGIT = Math.log(PIVOT / (1 - PIVOT));

/** The confidence from the logistic's logit t (FaqScorerWeights.slopes). */
export function confidenceOfLogit(t: number, slopes: readonly [number, number]): number {
  return sigmoid(PIVOT_LOGIT + (t < PIVOT_LOGIT ? slopes[0] : slopes[1]) * (t - PIVOT_LOGIT));
}

/** Ranking scores (RANK · features per entry) and their softmax, into `scores` / `probabilities`. */
export function rankEntries(features: Float64Array, rank: readonly number[], scores: Float64Array, probabilities: Float64Array): void {
  const C = scores.length;
  let max = -Infinity;
  for (let c = 0; c < C; c++) {
    let s = 0;
    for (let j = 0; j < F; j++) s += rank[j]! * features[c * F + j]!;
    scores[c] = s;
    if (s > max) max = s;
  }
  let sum = 0;
  for (let c = 0; c < C; c++) sum += probabilities[c] = Math.exp(scores[c]! - max);
  for (let c = 0; c < C; c++) probabilities[c]! /= sum;
}

/** The top two entries of `scores` (second = −1 with one entry). */
export function topTwo(scores: Float64Array): [number, number] {
  let first = 0;
  let second = -1;
  for (let c = 1; c < scores.length; c++) {
    if (scores[c]! > scores[first]!) {
      second = first;
      first = c;
    } else if (second < 0 || scores[c]! > scores[second]!) second = c;
  }
  return [first, second];
}

export class FaqScorer {
  private readonly classes: number;
  private readonly scratch: Float32Array;
  private readonly logits: Float64Array;
  private readonly scores: Float64Array;
  private readonly probabilities: Float64Array;
  private readonly classStart: Int32Array;
  private readonly rowStart: Int32Array;
  private readonly flatIndices: Int32Array;
  private readonly flatValues: Float32Array;
  /** Pooled word vectors of the example questions, row-major (dense.dimension each), or null. */
  private readonly denseRows: Float32Array | null;
  private readonly questionsPerEntry: number;
  /** The knowledge base's distinct words: stems, unit word vectors (row-major, zero rows for words without one), idf. */
  private readonly words: string[] = [];
  private readonly wordStems: string[] = [];
  private readonly wordUnits: Float32Array;
  private readonly hasUnit: Uint8Array;
  private readonly stemIdf = new Map<string, number>();
  /** Per entry, its distinct words (indices into `words`); per example question, the same, by entry. */
  private readonly entryWords: Int32Array[] = [];
  private readonly questionWords: Int32Array[][] = [];
  /** Per entry, the distinct words of its answer text (indices into `words`; empty without one). */
  private readonly answerWords: Int32Array[] = [];
  /** Per entry, its answer's TF-IDF vector and pooled word vectors (null without an answer text). */
  private readonly answerVectors: (SparseVector | null)[];
  private readonly answerDense: (Float32Array | null)[];
  private readonly hasAnswers: boolean;
  private readonly documents: number;
  private readonly wordMemo = new Map<string, Float32Array | null>();
  /** KNOWLEDGE_BASE_STATS, computed from the example questions when the scorer is built. */
  readonly knowledgeBase: readonly number[];
  constructor(
    private readonly vectorizer: Vectorizer,
    private readonly linear: LinearModel,
    /** Every example question's TF-IDF vector, by entry. */
    examplesByClass: readonly (readonly SparseVector[])[],
    /** Their texts (for the pooled word vectors). */
    textsByClass: readonly (readonly string[])[],
    private readonly dense: DenseFeaturizer | null,
    /** The word vectors behind `dense` (the same or both null). */
    private readonly vectors: WordVectors | null,
    /**
     * Per entry, its answer text and that text's TF-IDF vector (the same vectorizer), or '' / null:
     * extra evidence (ANSWER_FEATURES), never a phrasing of the entry (no idf, statistic or softmax
     * row comes from it).
     */
    answers: readonly { text: string; vector: SparseVector | null }[] = [],
    private readonly weights: FaqScorerWeights = dense ? FAQ_WEIGHTS : FAQ_WEIGHTS_NO_VECTORS,
  ) {
    this.classes = examplesByClass.length;
    this.scratch = new Float32Array(vectorizer.dimension);
    this.logits = new Float64Array(this.classes);
    this.scores = new Float64Array(this.classes);
    this.probabilities = new Float64Array(this.classes);
    ({ classStart: this.classStart, rowStart: this.rowStart, flatIndices: this.flatIndices, flatValues: this.flatValues } = packRows(examplesByClass));
    this.denseRows = null;
    if (dense) {
      const texts = textsByClass.flat();
      this.denseRows = new Float32Array(texts.length * dense.dimension);
      texts.forEach((text, r) => this.denseRows!.set(dense.transform(text), r * dense.dimension));
    }
    const questions = this.classStart[this.classes]!;
    this.questionsPerEntry = this.classes ? questions / this.classes : 1;
    this.documents = questions;
    const index = new Map<string, number>();
    const df = new Map<string, number>();
    for (const texts of textsByClass) {
      const entry = new Set<number>();
      const perQuestion: Int32Array[] = [];
      for (const text of texts) {
        const tokens = [...new Set(tokenize(text))];
        const ids = tokens.map((token) => {
          let i = index.get(token);
          if (i === undefined) {
            index.set(token, (i = this.words.length));
            this.words.push(token);
            this.wordStems.push(stem(token));
          }
          entry.add(i);
          return i;
        });
        for (const s of new Set(ids.map((i) => this.wordStems[i]!))) df.set(s, (df.get(s) ?? 0) + 1);
        perQuestion.push(Int32Array.from(ids));
      }
      this.entryWords.push(Int32Array.from(entry));
      this.questionWords.push(perQuestion);
    }
    for (const [s, n] of df) this.stemIdf.set(s, Math.log((1 + this.documents) / (1 + n)) + 1);
    // The answers' words join the word list (for the soft matching) but not the idf or the entries' words.
    this.answerVectors = [];
    this.answerDense = [];
    for (let c = 0; c < this.classes; c++) {
      const answer = answers[c];
      const tokens = answer && answer.vector ? [...new Set(tokenize(answer.text))] : [];
      const ids = tokens.map((token) => {
        let i = index.get(token);
        if (i === undefined) {
          index.set(token, (i = this.words.length));
          this.words.push(token);
          this.wordStems.push(stem(token));
        }
        return i;
      });
      this.answerWords.push(Int32Array.from(ids));
      this.answerVectors.push(tokens.length ? answer!.vector : null);
      this.answerDense.push(tokens.length && dense ? dense.transform(answer!.text) : null);
    }
    this.hasAnswers = this.answerVectors.some((v) => v !== null);
    const D = vectors ? vectors.dimension : 0;
    this.wordUnits = new Float32Array(this.words.length * D);
    this.hasUnit = new Uint8Array(this.words.length);
    this.words.forEach((word, i) => {
      const v = this.unitVector(word);
      if (!v) return;
      this.wordUnits.set(v, i * D);
      this.hasUnit[i] = 1;
    });
    this.knowledgeBase = this.statistics(examplesByClass, textsByClass);
  }

  /** KNOWLEDGE_BASE_STATS: every example question scored against the knowledge base like a customer's question. */
  private statistics(examplesByClass: readonly (readonly SparseVector[])[], textsByClass: readonly (readonly string[])[]): number[] {
    const between = [0, 0, 0];
    const within = [0, 0];
    let questions = 0;
    let withinQuestions = 0;
    textsByClass.forEach((texts, own) => {
      const n = texts.length;
      texts.forEach((text, i) => {
        const x = examplesByClass[own]![i]!;
        const f = this.features(text, x);
        const best = [0, 0, 0];
        for (let c = 0; c < this.classes; c++) {
          if (c === own) continue;
          best[0] = Math.max(best[0]!, f[c * F + 1]!);
          best[1] = Math.max(best[1]!, f[c * F + 3]!);
          best[2] = Math.max(best[2]!, f[c * F + 5]!);
        }
        for (let j = 0; j < 3; j++) between[j]! += best[j]!;
        questions++;
        if (n >= 2) {
          // The entry's mean cosines include the question's own (its cosine to itself): take it out.
          let self = 0;
          for (const v of x.values) self += v * v;
          const dense = this.dense ? this.dense.transform(text) : null;
          let selfDense = 0;
          if (dense) for (const v of dense) selfDense += v * v;
          within[0]! += (n * f[own * F + 2]! - self) / (n - 1);
          within[1]! += dense ? (n * f[own * F + 4]! - selfDense) / (n - 1) : 0;
          withinQuestions++;
        }
      });
    });
    return [...between.map((v) => (questions ? v / questions : 0)), ...within.map((v) => (withinQuestions ? v / withinQuestions : 0))];
  }

  private unitVector(word: string): Float32Array | null {
    if (!this.vectors) return null;
    let v = this.wordMemo.get(word);
    if (v !== undefined) return v;
    const sum = new Float64Array(this.vectors.dimension);
    v = null;
    if (this.vectors.addTo(word, sum, 1)) {
      let norm = 0;
      for (const x of sum) norm += x * x;
      if (norm > 0) v = Float32Array.from(sum, (x) => x / Math.sqrt(norm));
    }
    if (this.wordMemo.size > 20_000) this.wordMemo.clear();
    this.wordMemo.set(word, v);
    return v;
  }

  private readonly rowMemo = new Map<string, { match: Float32Array; exact: Uint8Array }>();

  /** One question word against every knowledge-base word: 1 for the same stem, else the word vectors' cosine (≥ 0); memoised per word. */
  private matchRow(token: string, stemmed: string, D: number): { match: Float32Array; exact: Uint8Array } {
    let row = this.rowMemo.get(token);
    if (row) return row;
    const V = this.words.length;
    row = { match: new Float32Array(V), exact: new Uint8Array(V) };
    const v = this.vectors ? this.unitVector(token) : null;
    const units = this.wordUnits;
    for (let w = 0; w < V; w++) {
      if (this.wordStems[w] === stemmed) {
        row.match[w] = 1;
        row.exact[w] = 1;
      } else if (v && this.hasUnit[w]) {
        let dot = 0;
        const base = w * D;
        for (let d = 0; d < D; d++) dot += v[d]! * units[base + d]!;
        if (dot > 0) row.match[w] = dot;
      }
    }
    if (this.rowMemo.size > 4_000) this.rowMemo.clear();
    this.rowMemo.set(token, row);
    return row;
  }

  private idfOf(stemmed: string): number {
    return this.stemIdf.get(stemmed) ?? Math.log(1 + this.documents) + 1;
  }

  /**
   * Word coverage, features 5–8: the question's words covered by the entry's (idf-weighted share;
   * a word counts 1 when its stem is among the entry's, else, soft, its largest word-vector cosine
   * to them), and the other way round, the best-covered example question of the entry by the
   * question's words; soft and exact-only.
   */
  private coverage(text: string, out: Float64Array): void {
    const tokens = [...new Set(tokenize(text))];
    if (!tokens.length) return;
    const stems = tokens.map(stem);
    const idf = stems.map((s) => this.idfOf(s));
    let total = 0;
    for (const w of idf) total += w;
    const V = this.words.length;
    const Q = tokens.length;
    const D = this.vectors ? this.vectors.dimension : 0;
    // match[q * V + w]: 1 for the same stem, else the cosine of the word vectors (≥ 0), or 0.
    const match = new Float32Array(Q * V);
    const exact = new Uint8Array(Q * V);
    for (let q = 0; q < Q; q++) {
      const row = this.matchRow(tokens[q]!, stems[q]!, D);
      match.set(row.match, q * V);
      exact.set(row.exact, q * V);
    }
    const C = this.classes;
    const { best, hits, first, second, hitCount } = bestMatches(this.entryWords, Q, V, match, exact);
    for (let c = 0; c < C; c++) {
      let soft = 0;
      let hard = 0;
      let beyond = 0;
      let alone = 0;
      for (let q = 0; q < Q; q++) {
        const b = best[c * Q + q]!;
        soft += idf[q]! * b;
        hard += idf[q]! * hits[c * Q + q]!;
        // How much better this entry covers the word than any other entry does (0 unless it is the best).
        if (b >= first[q]!) beyond += idf[q]! * (b - second[q]!);
        if (hits[c * Q + q] && hitCount[q] === 1) alone += idf[q]!;
      }
      out[c * F + 9] = this.vectors ? beyond / total : 0;
      out[c * F + 10] = alone / total;
      let reverseSoft = 0;
      let reverseHard = 0;
      for (const question of this.questionWords[c]!) {
        let sum = 0;
        let softSum = 0;
        let hardSum = 0;
        for (const w of question) {
          const weight = this.idfOf(this.wordStems[w]!);
          sum += weight;
          let top = 0;
          let hit = 0;
          for (let q = 0; q < Q; q++) {
            const m = match[q * V + w]!;
            if (m > top) top = m;
            if (exact[q * V + w]) hit = 1;
          }
          softSum += weight * top;
          hardSum += weight * hit;
        }
        if (sum > 0) {
          reverseSoft = Math.max(reverseSoft, softSum / sum);
          reverseHard = Math.max(reverseHard, hardSum / sum);
        }
      }
      out[c * F + 5] = this.vectors ? soft / total : 0;
      out[c * F + 6] = this.vectors ? reverseSoft : 0;
      out[c * F + 7] = hard / total;
      out[c * F + 8] = reverseHard;
    }
    if (this.hasAnswers) this.answerCoverage(Q, V, idf, total, match, exact, out);
  }

  /** ANSWER_FEATURES 13–15: the question's words covered by each entry's answer words, plain, beyond the best other answer (soft), and by words of that answer alone (exact). */
  private answerCoverage(Q: number, V: number, idf: readonly number[], total: number, match: Float32Array, exact: Uint8Array, out: Float64Array): void {
    const C = this.classes;
    const { best, hits, first, second, hitCount } = bestMatches(this.answerWords, Q, V, match, exact);
    for (let c = 0; c < C; c++) {
      if (!this.answerWords[c]!.length) continue;
      let soft = 0;
      let beyond = 0;
      let alone = 0;
      for (let q = 0; q < Q; q++) {
        const b = best[c * Q + q]!;
        soft += idf[q]! * b;
        if (b >= first[q]!) beyond += idf[q]! * (b - second[q]!);
        if (hits[c * Q + q] && hitCount[q] === 1) alone += idf[q]!;
      }
      out[c * F + 13] = this.vectors ? soft / total : 0;
      out[c * F + 14] = this.vectors ? beyond / total : 0;
      out[c * F + 15] = alone / total;
    }
  }

  /** ENTRY_FEATURES of every entry for one question, entry-major (entries × F). */
  entryFeatures(text: string, counts: FeatureCounts): Float64Array {
    return this.features(text, this.vectorizer.transformCounts(counts));
  }

  private features(text: string, x: SparseVector): Float64Array {
    const C = this.classes;
    const out = new Float64Array(C * F);
    const z = this.logits;
    linearScores(this.linear, x, z);
    let max = -Infinity;
    for (let c = 0; c < C; c++) if (z[c]! > max) max = z[c]!;
    let sum = 0;
    for (let c = 0; c < C; c++) sum += Math.exp(z[c]! - max);
    const logSum = max + Math.log(sum);
    const scratch = this.scratch;
    for (let k = 0; k < x.indices.length; k++) scratch[x.indices[k]!] = x.values[k]!;
    const q = this.dense ? this.dense.transform(text) : null;
    const D = this.dense ? this.dense.dimension : 0;
    const rows = this.denseRows;
    for (let c = 0; c < C; c++) {
      let best = 0;
      let total = 0;
      let bestDense = -1;
      let totalDense = 0;
      const start = this.classStart[c]!;
      const end = this.classStart[c + 1]!;
      for (let r = start; r < end; r++) {
        let dot = 0;
        const rowEnd = this.rowStart[r + 1]!;
        for (let k = this.rowStart[r]!; k < rowEnd; k++) dot += this.flatValues[k]! * scratch[this.flatIndices[k]!]!;
        if (dot > best) best = dot;
        total += dot;
        if (q && rows) {
          let d = 0;
          const base = r * D;
          for (let j = 0; j < D; j++) d += q[j]! * rows[base + j]!;
          if (d > bestDense) bestDense = d;
          totalDense += d;
        }
      }
      const n = Math.max(1, end - start);
      out[c * F] = z[c]! - logSum;
      out[c * F + 1] = best;
      out[c * F + 2] = total / n;
      out[c * F + 3] = q ? Math.max(0, bestDense) : 0;
      out[c * F + 4] = q ? totalDense / n : 0;
      const answer = this.answerVectors[c];
      if (answer) {
        let dot = 0;
        for (let k = 0; k < answer.indices.length; k++) dot += answer.values[k]! * scratch[answer.indices[k]!]!;
        out[c * F + 11] = dot;
        const answerDense = this.answerDense[c];
        if (q && answerDense) {
          let d = 0;
          for (let j = 0; j < D; j++) d += q[j]! * answerDense[j]!;
          out[c * F + 12] = Math.max(0, d);
        }
      }
    }
    for (let k = 0; k < x.indices.length; k++) scratch[x.indices[k]!] = 0;
    this.coverage(text, out);
    return out;
  }

  score(text: string, counts: FeatureCounts): FaqScore {
    const features = this.entryFeatures(text, counts);
    const { scores, probabilities } = this;
    rankEntries(features, this.weights.rank, scores, probabilities);
    const [first, second] = topTwo(scores);
    const confidence = (entry: number, other: number) => {
      const g = confidenceInputs(features, scores, probabilities, entry, other, this.questionsPerEntry, this.knowledgeBase);
      let t = 0;
      for (let j = 0; j < G; j++) t += this.weights.confidence[j]! * g[j]!;
      return confidenceOfLogit(t, this.weights.slopes);
    };
    return {
      label: first,
      confidence: confidence(first, second),
      probability: probabilities[first]!,
      similarity: features[first * F + 1]!,
      runnerUp: second >= 0 ? { label: second, confidence: Math.min(confidence(second, first), confidence(first, second)) } : null,
    };
  }
}

/**
 * Newton's method with step halving on a convex objective of a few weights: `evaluate` returns the
 * value, gradient and Hessian at w (an L2 penalty is the caller's).
 */
export function newtonMinimise(start: readonly number[], evaluate: (w: readonly number[]) => { value: number; gradient: number[]; hessian: number[][] }, iterations = 100): number[] {
  let w = [...start];
  let current = evaluate(w);
  for (let it = 0; it < iterations; it++) {
    const delta = solve(current.hessian, current.gradient);
    let step = 1;
    let moved = false;
    for (let tries = 0; tries < 40; tries++, step /= 2) {
      const candidate = w.map((v, j) => v - step * delta[j]!);
      const next = evaluate(candidate);
      if (next.value <= current.value) {
        const improvement = current.value - next.value;
        w = candidate;
        current = next;
        moved = improvement > 1e-10 * Math.max(1, Math.abs(next.value));
        break;
      }
    }
    if (!moved) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting (small systems). */
export function solve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const d = m[col]![col]!;
    if (Math.abs(d) < 1e-15) return new Array<number>(n).fill(0);
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / d;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** A question of a fitting set: its entries' features (entries × F) and the right entry (−1 = none is right). */
export interface RankingSample {
  features: Float64Array;
  label: number;
}

/** Conditional logit (softmax over the entries of RANK · features), L2 strength `l2`, on samples with a right entry. */
export function fitRanking(samples: readonly RankingSample[], l2: number, start: readonly number[] = new Array<number>(F).fill(0)): number[] {
  const usable = samples.filter((s) => s.label >= 0);
  return newtonMinimise(start, (w) => {
    let value = 0;
    const gradient = w.map((v) => l2 * v);
    const hessian = w.map((_, i) => w.map((__, j) => (i === j ? l2 : 0)));
    for (let j = 0; j < F; j++) value += 0.5 * l2 * w[j]! ** 2;
    for (const s of usable) {
      const C = s.features.length / F;
      const scores = new Float64Array(C);
      const p = new Float64Array(C);
      rankEntries(s.features, w, scores, p);
      value -= Math.log(Math.max(p[s.label]!, 1e-300));
      const mean = new Array<number>(F).fill(0);
      for (let c = 0; c < C; c++) for (let j = 0; j < F; j++) mean[j]! += p[c]! * s.features[c * F + j]!;
      for (let j = 0; j < F; j++) gradient[j]! += mean[j]! - s.features[s.label * F + j]!;
      for (let c = 0; c < C; c++) {
        for (let i = 0; i < F; i++) {
          const di = s.features[c * F + i]! - mean[i]!;
          for (let j = 0; j < F; j++) hessian[i]![j]! += p[c]! * di * (s.features[c * F + j]! - mean[j]!);
        }
      }
    }
    return { value, gradient, hessian };
  });
}

export interface LogisticSample {
  x: readonly number[];
  correct: boolean;
  weight: number;
}

/** Weighted logistic regression, L2 strength `l2` (the last input, the bias, unpenalised). */
export function fitLogistic(samples: readonly LogisticSample[], l2: number): number[] {
  const n = samples[0]?.x.length ?? G;
  return newtonMinimise(new Array<number>(n).fill(0), (w) => {
    let value = 0;
    const gradient = w.map((v, j) => (j < n - 1 ? l2 * v : 0));
    const hessian = w.map((_, i) => w.map((__, j) => (i === j ? (i < n - 1 ? l2 : 1e-9) : 0)));
    for (let j = 0; j < n - 1; j++) value += 0.5 * l2 * w[j]! ** 2;
    for (const s of samples) {
      let t = 0;
      for (let j = 0; j < n; j++) t += w[j]! * s.x[j]!;
      const m = s.correct ? -t : t;
      value += s.weight * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
      const p = sigmoid(t);
      const r = (p - (s.correct ? 1 : 0)) * s.weight;
      const h = Math.max(p * (1 - p), 1e-12) * s.weight;
      for (let i = 0; i < n; i++) {
        gradient[i]! += r * s.x[i]!;
        for (let j = 0; j < n; j++) hessian[i]![j]! += h * s.x[i]! * s.x[j]!;
      }
    }
    return { value, gradient, hessian };
  });
}

/**
 * For word lists `words[c]` (an entry's phrasings, or its answer) against a question's Q words:
 * best[c * Q + q], the largest match of question word q among entry c's words, and hits (exact)
 * likewise; per question word, the largest and second-largest match over the entries and how many
 * entries have it exactly.
 */
function bestMatches(words: readonly Int32Array[], Q: number, V: number, match: Float32Array, exact: Uint8Array) {
  const C = words.length;
  const best = new Float64Array(C * Q);
  const hits = new Uint8Array(C * Q);
  const first = new Float64Array(Q);
  const second = new Float64Array(Q);
  const hitCount = new Int32Array(Q);
  for (let c = 0; c < C; c++) {
    const own = words[c]!;
    for (let q = 0; q < Q; q++) {
      let b = 0;
      let hit = 0;
      for (const w of own) {
        const m = match[q * V + w]!;
        if (m > b) b = m;
        if (exact[q * V + w]) hit = 1;
      }
      best[c * Q + q] = b;
      hits[c * Q + q] = hit;
      if (b > first[q]!) {
        second[q] = first[q]!;
        first[q] = b;
      } else if (b > second[q]!) second[q] = b;
      hitCount[q]! += hit;
    }
  }
  return { best, hits, first, second, hitCount };
}
