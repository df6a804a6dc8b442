/**
 * The embedded answer model: a knowledge base's FAQ entries (several example questions → one
 * answer) become a linear classifier over TF-IDF word and character n-grams — a multinomial
 * logistic regression when entries have few example questions, one-vs-rest linear SVMs when they
 * have many, the SVMs also over dense features from pre-trained word vectors (word-vectors.ts) —
 * plus a calibrator fitted on held-out predictions so that `confidence` is the
 * probability of being right. Trains in-process, no network, no native code; serialises to plain JSON (typed arrays as
 * little-endian base64) and loads back to identical predictions.
 */
import { z } from 'zod';
import type { KnowledgeEntry } from '../answer-engine';
import { type CalibrationSample, type Calibrator, confidenceOf, expectedCalibrationError, fitCalibrator, logOddsOf } from './calibration';
import { createRandom, type Random, shuffle } from './random';
import { accumulate, type LinearModel, linearScores, softmaxInPlace } from './linear';
import { trainSoftmax } from './softmax';
import { trainSvm } from './svm';
import { extractFeatures, type FeatureCounts, hashStrings, SpellingCorrector, type SpellingOptions, type TextFeatureOptions, tokenize } from './text';
import { packRows, type SparseVector, Vectorizer, type VectorizerOptions } from './vectorizer';
import { DenseFeaturizer, defaultWordVectors, type WordVectors } from './word-vectors';
import { FaqScorer } from './faq-scorer';

export type ClassifierKind = 'softmax' | 'svm';

export type FeatureOptions = Omit<VectorizerOptions, 'idfPower' | 'wordBoundaries'>;

export interface EmbeddedTrainOptions {
  seed: number;
  /**
   * Text features and their weighting; the idf's power is the classifier's (`idfPower`,
   * `svm.idfPower`), question-boundary word n-grams and spelling normalisation are the SVMs' only.
   */
  features: FeatureOptions;
  /**
   * The linear classifier: multinomial logistic regression ('softmax'), one-vs-rest squared-hinge
   * SVMs ('svm'), or 'auto': the SVMs when the entries have at least `svmFromQuestionsPerEntry`
   * example questions on average, else the softmax (better with few examples per entry).
   */
  classifier: 'auto' | ClassifierKind;
  svmFromQuestionsPerEntry: number;
  /** Softmax: SGD epochs, L2 strength per example, initial step. */
  epochs: number;
  lambda: number;
  learningRate: number;
  /** Softmax: warm start from the class centroids times this (0 = cold start). */
  centroidInit: number;
  /** Softmax: the vectorizer's idf power (see VectorizerOptions). */
  idfPower: number;
  svm: {
    /** C of each one-vs-rest SVM, per (class-balanced) example. */
    cost: number;
    /** Passes of dual coordinate descent. */
    epochs: number;
    /** The SVM scores times this go through a softmax for the calibrator's log-odds input. */
    scale: number;
    /** The vectorizer's idf power for the SVMs (a damped idf). */
    idfPower: number;
    /** Word n-grams also over start / end of question markers (see TextFeatureOptions). */
    wordBoundaries: boolean;
    /** Spelling normalisation of the word n-grams, learned from the knowledge base's questions (null = none); see SpellingCorrector. */
    spelling: SpellingOptions | null;
    /**
     * Dense features from pre-trained word vectors appended to the TF-IDF vector, with this norm
     * (see DenseFeaturizer); null = none. Used only when word vectors are available (word-vectors.ts).
     */
    wordVectors: { weight: number } | null;
  };
  /** Weight examples so every entry counts the same, however many questions it has. */
  classBalanced: boolean;
  /** Extra training copies of each question (3+ words) with one word dropped. */
  augmentCopies: number;
  calibration: {
    /** Cross-validation folds for knowledge bases up to `holdoutAbove` questions. */
    folds: number;
    /** Above this many questions one stratified hold-out split replaces cross-validation (time). */
    holdoutAbove: number;
    holdoutFraction: number;
    /** Prior for the calibrator's weights [log-odds, similarity, bias] and its strength in samples. */
    prior: [number, number, number];
    priorStrength: number;
    /**
     * Total weight of the out-of-scope samples (questions of entries left out of a fold), as a
     * share of the in-scope held-out questions, capped at `outOfScopeCap` samples: they teach a
     * small knowledge base's calibrator that far-from-everything questions are wrong, and wash
     * out where thousands of in-scope questions speak for themselves.
     */
    outOfScopeWeight: number;
    outOfScopeCap: number;
  };
  /**
   * The small-knowledge-base path (faq-scorer.ts, format v5): with `classifier: 'auto'` and fewer
   * than `belowQuestionsPerEntry` example questions per entry on average, entries are scored by
   * similarity (plus the softmax) and the confidence comes from a calibration model fitted offline
   * on validation data; `wordVectors`: use the pre-trained word vectors there; `answerRows`: each
   * entry's answer evidence is also one training question of its softmax and part of its vocabulary
   * (absent in models stored before it, which load without it). null = never.
   */
  faq: { belowQuestionsPerEntry: number; wordVectors: boolean; answerRows?: boolean } | null;
}

export const DEFAULT_TRAIN_OPTIONS: EmbeddedTrainOptions = {
  seed: 1,
  features: { wordNgrams: [1, 2], charNgrams: [2, 5], minDf: 1, charWeight: 1 },
  classifier: 'auto',
  svmFromQuestionsPerEntry: 20,
  epochs: 12,
  lambda: 1e-5,
  learningRate: 1,
  centroidInit: 0,
  idfPower: 1,
  svm: { cost: 2, epochs: 10, scale: 10, idfPower: 0.5, wordBoundaries: true, spelling: { rareAtMost: 1, commonAtLeast: 3, minLength: 4 }, wordVectors: { weight: 0.85 } },
  classBalanced: true,
  augmentCopies: 0,
  calibration: { folds: 5, holdoutAbove: 3000, holdoutFraction: 0.2, prior: [1.1, 1, 1.5], priorStrength: 2, outOfScopeWeight: 0.2, outOfScopeCap: 20 },
  faq: { belowQuestionsPerEntry: 6, wordVectors: true, answerRows: true },
};

export type EmbeddedTrainOverrides = Partial<Omit<EmbeddedTrainOptions, 'features' | 'svm' | 'calibration' | 'faq'>> & {
  features?: Partial<FeatureOptions>;
  svm?: Partial<EmbeddedTrainOptions['svm']>;
  calibration?: Partial<EmbeddedTrainOptions['calibration']>;
  faq?: Partial<NonNullable<EmbeddedTrainOptions['faq']>> | null;
};

export function resolveTrainOptions(overrides: EmbeddedTrainOverrides = {}): EmbeddedTrainOptions {
  return {
    ...DEFAULT_TRAIN_OPTIONS,
    ...overrides,
    features: { ...DEFAULT_TRAIN_OPTIONS.features, ...overrides.features },
    svm: { ...DEFAULT_TRAIN_OPTIONS.svm, ...overrides.svm },
    calibration: { ...DEFAULT_TRAIN_OPTIONS.calibration, ...overrides.calibration },
    faq: overrides.faq === null ? null : { ...DEFAULT_TRAIN_OPTIONS.faq!, ...overrides.faq },
  };
}

export interface EmbeddedPrediction {
  entryId: string;
  /** Calibrated probability that `entryId` is the right entry. */
  confidence: number;
  /** The classifier's own probability for it (softmax of its scores; for the SVMs, of the scores × `svm.scale`). */
  probability: number;
  /** Cosine to the nearest training question of that entry. */
  similarity: number;
  /** The runner-up entry and its confidence (at most the top one's); null with a single entry. */
  runnerUp?: { entryId: string; confidence: number } | null;
}

/** How the calibrator did on the held-out questions it was fitted on. */
export interface HeldOutReport {
  /** In-scope held-out questions (the accuracy and calibration error are over these). */
  questions: number;
  /** Questions of left-out entries, used as out-of-scope examples. */
  outOfScopeQuestions: number;
  accuracy: number;
  calibrationError: number;
}

interface Labelled {
  text: string;
  label: number;
}

/**
 * Training vectors keep only their NEAREST_FEATURES largest values for the nearest-question
 * signal: it is a calibration input, not the classifier, and this makes it about 2.5× cheaper
 * (the same truncation applies when the calibrator is fitted and when it is used).
 */
const NEAREST_FEATURES = 64;

function strongest(x: SparseVector): SparseVector {
  if (x.indices.length <= NEAREST_FEATURES) return x;
  const order = Array.from(x.values.keys()).sort((a, b) => x.values[b]! - x.values[a]! || x.indices[a]! - x.indices[b]!);
  const keep = order.slice(0, NEAREST_FEATURES);
  return { indices: Int32Array.from(keep, (k) => x.indices[k]!), values: Float32Array.from(keep, (k) => x.values[k]!) };
}

/** Vectorizer + linear model + the training vectors per class (for the nearest-question signal). */
class Classifier {
  private readonly scratch: Float32Array;
  private readonly logits: Float64Array;
  /** Training vectors of class c are rows classStart[c] … classStart[c+1]−1; row r is rowStart[r] … rowStart[r+1]−1 in the flat arrays. */
  private readonly classStart: Int32Array;
  private readonly rowStart: Int32Array;
  private readonly flatIndices: Int32Array;
  private readonly flatValues: Float32Array;
  /** The dense features' indices in the linear model: right after the vectorizer's. */
  private readonly denseIndices: Int32Array | null;

  constructor(
    readonly vectorizer: Vectorizer,
    readonly kind: ClassifierKind,
    readonly linear: LinearModel,
    /** Scores × this → softmax → probabilities. */
    private readonly scale: number,
    /** Sparse (TF-IDF) training vectors: the nearest-question signal uses only those. */
    examplesByClass: readonly (readonly SparseVector[])[],
    /** Dense features after the vectorizer's dimensions (the linear model's last `dense.dimension`), or none. */
    readonly dense: DenseFeaturizer | null = null,
    /** The id of the word vectors the dense features come from (null without them). */
    readonly wordVectors: string | null = null,
  ) {
    this.scratch = new Float32Array(vectorizer.dimension);
    this.logits = new Float64Array(linear.classes);
    this.denseIndices = dense ? Int32Array.from({ length: dense.dimension }, (_, d) => vectorizer.dimension + d) : null;
    ({ classStart: this.classStart, rowStart: this.rowStart, flatIndices: this.flatIndices, flatValues: this.flatValues } = packRows(
      examplesByClass.map((members) => members.map(strongest)),
    ));
  }

  classify(text: string, counts: FeatureCounts, withRunnerUp = false): { label: number; probability: number; similarity: number; runnerUp: { label: number; probability: number; similarity: number } | null } {
    const x = this.vectorizer.transformCounts(counts);
    const z = this.logits;
    linearScores(this.linear, x, z);
    if (this.dense) accumulate(this.linear.weights, this.linear.classes, this.denseIndices!, this.dense.transform(text), 1, z);
    softmaxInPlace(z, this.scale);
    let label = 0;
    let second = -1;
    for (let c = 1; c < z.length; c++) {
      if (z[c]! > z[label]!) {
        second = label;
        label = c;
      } else if (second < 0 || z[c]! > z[second]!) second = c;
    }
    const runnerUp = withRunnerUp && second >= 0 ? { label: second, probability: z[second]!, similarity: this.nearest(x, second) } : null;
    return { label, probability: z[label]!, similarity: this.nearest(x, label), runnerUp };
  }

  /** Largest dot product of x with a training vector of `label` (all vectors are at most unit length). */
  private nearest(x: SparseVector, label: number): number {
    const dense = this.scratch;
    for (let k = 0; k < x.indices.length; k++) dense[x.indices[k]!] = x.values[k]!;
    const idx = this.flatIndices;
    const val = this.flatValues;
    let best = 0;
    for (let r = this.classStart[label]!; r < this.classStart[label + 1]!; r++) {
      let sum = 0;
      const end = this.rowStart[r + 1]!;
      for (let k = this.rowStart[r]!; k < end; k++) sum += val[k]! * dense[idx[k]!]!;
      if (sum > best) best = sum;
    }
    for (let k = 0; k < x.indices.length; k++) dense[x.indices[k]!] = 0;
    return best;
  }
}

/** The sparse vector followed by the dense features. */
function withDense(x: SparseVector, dense: Float32Array, offset: number): SparseVector {
  const indices = new Int32Array(x.indices.length + dense.length);
  const values = new Float32Array(indices.length);
  indices.set(x.indices);
  values.set(x.values);
  for (let d = 0; d < dense.length; d++) indices[x.indices.length + d] = offset + d;
  values.set(dense, x.indices.length);
  return { indices, values };
}

/** The dense featurizer the options ask for, if the classifier is the SVMs and word vectors are available. */
function denseFeaturizerOf(kind: ClassifierKind, options: EmbeddedTrainOptions, vectors: WordVectors | null, texts: readonly string[]): DenseFeaturizer | null {
  if (kind !== 'svm' || !options.svm.wordVectors || !vectors) return null;
  return DenseFeaturizer.fit(vectors, texts, options.svm.wordVectors.weight);
}

/** A question's features, its words spelling-corrected if the model does that. */
class Featurizer {
  constructor(
    private readonly options: TextFeatureOptions,
    private readonly spelling: SpellingCorrector | null,
  ) {}
  get(text: string): FeatureCounts {
    return extractFeatures(text, this.options, this.spelling);
  }
}

class FeatureCache {
  private readonly cache = new Map<string, FeatureCounts>();
  constructor(private readonly featurizer: Featurizer) {}
  get(text: string): FeatureCounts {
    let counts = this.cache.get(text);
    if (!counts) this.cache.set(text, (counts = this.featurizer.get(text)));
    return counts;
  }
}

function augment(items: readonly Labelled[], copies: number, random: Random): Labelled[] {
  const out: Labelled[] = [];
  if (copies <= 0) return out;
  for (const item of items) {
    const tokens = tokenize(item.text);
    if (tokens.length < 3) continue;
    for (let c = 0; c < copies; c++) {
      const drop = Math.floor(random() * tokens.length);
      out.push({ text: tokens.filter((_, i) => i !== drop).join(' '), label: item.label });
    }
  }
  return out;
}

/** Whether the knowledge base takes the small-knowledge-base path (faq-scorer.ts): 'auto' with few questions per entry. */
export function usesFaqScorer(options: EmbeddedTrainOptions, questions: number, entries: number): boolean {
  // A single entry has nothing to rank against: the classifier path's nearest-question calibration handles it.
  return options.classifier === 'auto' && options.faq !== null && entries >= 2 && questions / entries < options.faq.belowQuestionsPerEntry;
}

/**
 * The part of an entry's answer the small-knowledge-base path reads as evidence: its first
 * ANSWER_WORDS words (an answer names its topic early; a 4,000-character answer would only add
 * cost and noise), '' for none.
 */
export const ANSWER_WORDS = 20;
export function answerEvidence(answer: string): string {
  const words = answer.trim().split(/\s+/u).slice(0, ANSWER_WORDS).join(' ');
  return tokenize(words).length ? words : '';
}

/**
 * The small-knowledge-base path's softmax also learns from each entry's answer evidence, as one more
 * training question of its entry and part of the vocabulary and idf (`options.faq.answerRows`): an
 * answer names its topic in the business's words, which its one or two phrasings may not use.
 */
function answerRowsOf(options: EmbeddedTrainOptions, answers: readonly string[]): Labelled[] {
  // `answers` is empty off the small-knowledge-base path (only that path keeps them).
  if (!options.faq?.answerRows) return [];
  return answers.flatMap((text, label) => (text ? [{ text, label }] : []));
}

/** The similarity scorer over a trained softmax classifier and its training questions (fitted on those alone), with the entries' answer texts as extra evidence. */
function faqScorerOf(classifier: Classifier, items: readonly Labelled[], classes: number, features: FeatureCache, vectors: WordVectors | null, answers: readonly string[]): FaqScorer {
  const examples: SparseVector[][] = Array.from({ length: classes }, () => []);
  const texts: string[][] = Array.from({ length: classes }, () => []);
  for (const item of items) {
    examples[item.label]!.push(classifier.vectorizer.transformCounts(features.get(item.text)));
    texts[item.label]!.push(item.text);
  }
  const dense = vectors ? DenseFeaturizer.fit(vectors, items.map((item) => item.text), 1) : null;
  const evidence = Array.from({ length: classes }, (_, c) => {
    const text = answerEvidence(answers[c] ?? '');
    return { text, vector: text ? classifier.vectorizer.transformCounts(features.get(text)) : null };
  });
  return new FaqScorer(classifier.vectorizer, classifier.linear, examples, texts, dense, dense ? vectors : null, evidence);
}

/** The classifier `options.classifier` asks for; 'auto' decides by the mean number of questions per entry. */
export function classifierKind(options: EmbeddedTrainOptions, questions: number, entries: number): ClassifierKind {
  if (options.classifier !== 'auto') return options.classifier;
  return entries > 0 && questions / entries >= options.svmFromQuestionsPerEntry ? 'svm' : 'softmax';
}

function fitClassifier(
  items: readonly Labelled[],
  classes: number,
  kind: ClassifierKind,
  options: EmbeddedTrainOptions,
  features: FeatureCache,
  seed: number,
  vectors: WordVectors | null,
  answerRows: readonly Labelled[] = [],
): Classifier {
  const random = createRandom(seed);
  const vectorizer = Vectorizer.fitCounts(
    [...items, ...answerRows].map((item) => features.get(item.text)),
    vectorizerOptions(kind, options),
  );
  const dense = denseFeaturizerOf(
    kind,
    options,
    vectors,
    items.map((item) => item.text),
  );
  const all = [...items, ...augment(items, options.augmentCopies, random), ...answerRows];
  const sparse = all.map((item) => vectorizer.transformCounts(features.get(item.text)));
  const xs = dense ? sparse.map((x, i) => withDense(x, dense.transform(all[i]!.text), vectorizer.dimension)) : sparse;
  const dimension = vectorizer.dimension + (dense ? dense.dimension : 0);
  const ys = Int32Array.from(all, (item) => item.label);
  const perClass = new Array<number>(classes).fill(0);
  for (const item of items) perClass[item.label]!++;
  const present = perClass.filter((n) => n > 0).length;
  const sampleWeights = Float32Array.from(all, (item) => (options.classBalanced ? items.length / (present * perClass[item.label]!) : 1));
  const linear =
    kind === 'svm'
      ? trainSvm(xs, ys, sampleWeights, classes, dimension, { cost: options.svm.cost, epochs: options.svm.epochs, seed: seed + 1 })
      : trainSoftmax(xs, ys, sampleWeights, classes, dimension, {
          epochs: options.epochs,
          lambda: options.lambda,
          learningRate: options.learningRate,
          centroidInit: options.centroidInit,
          seed: seed + 1,
        });
  const examplesByClass: SparseVector[][] = Array.from({ length: classes }, () => []);
  items.forEach((item, i) => examplesByClass[item.label]!.push(sparse[i]!));
  return new Classifier(vectorizer, kind, linear, scaleOf(kind, options), examplesByClass, dense, dense ? vectors!.id : null);
}

function vectorizerOptions(kind: ClassifierKind, options: EmbeddedTrainOptions): VectorizerOptions {
  return { ...textOptions(kind, options), minDf: options.features.minDf, charWeight: options.features.charWeight, idfPower: kind === 'svm' ? options.svm.idfPower : options.idfPower };
}

function textOptions(kind: ClassifierKind, options: EmbeddedTrainOptions): TextFeatureOptions {
  const { wordNgrams, charNgrams } = options.features;
  return { wordNgrams, charNgrams, wordBoundaries: kind === 'svm' && options.svm.wordBoundaries };
}

/** The classifier's featurizer; its spelling corrector is learned from the questions themselves, so a loaded model rebuilds the same one. */
function featurizerOf(kind: ClassifierKind, options: EmbeddedTrainOptions, items: readonly Labelled[]): Featurizer {
  const spelling = kind === 'svm' && options.svm.spelling && items.length ? SpellingCorrector.fit(items.map((item) => item.text), options.svm.spelling) : null;
  return new Featurizer(textOptions(kind, options), spelling);
}

function scaleOf(kind: ClassifierKind, options: EmbeddedTrainOptions): number {
  return kind === 'svm' ? options.svm.scale : 1;
}

/**
 * Which held-out fold each question is in (stratified by entry, seeded; -1 = never held out), and
 * which fold each entry is left out of entirely (-1 = none), to play an out-of-scope question.
 */
function assignFolds(items: readonly Labelled[], classes: number, options: EmbeddedTrainOptions, random: Random): { fold: Int32Array; entryFold: Int32Array; folds: number } {
  const fold = new Int32Array(items.length).fill(-1);
  const entryFold = new Int32Array(classes).fill(-1);
  const byClass: number[][] = Array.from({ length: classes }, () => []);
  items.forEach((item, i) => byClass[item.label]!.push(i));
  const { holdoutAbove, holdoutFraction, outOfScopeWeight } = options.calibration;
  const holdout = items.length > holdoutAbove;
  const folds = holdout ? 1 : options.calibration.folds;
  // Leaving entries out needs at least two entries left to choose between.
  if (outOfScopeWeight > 0 && classes >= 4) {
    const order = shuffle(Array.from({ length: classes }, (_, c) => c), random);
    const leftOut = holdout ? Math.round(classes * holdoutFraction) : classes;
    for (let j = 0; j < leftOut; j++) entryFold[order[j]!] = j % folds;
  }
  if (holdout) {
    for (const members of byClass) {
      shuffle(members, random);
      const n = Math.round(members.length * holdoutFraction);
      for (let j = 0; j < n; j++) fold[members[j]!] = 0;
    }
    return { fold, entryFold, folds };
  }
  // Deal each entry's questions round the folds, starting where the previous entry stopped, so
  // small entries do not all land in the first folds.
  let next = 0;
  for (const members of byClass) {
    shuffle(members, random);
    for (const i of members) {
      fold[i] = next;
      next = (next + 1) % folds;
    }
  }
  return { fold, entryFold, folds };
}

/**
 * Held-out predictions to fit the calibrator on: per fold, a model trained without that fold's
 * questions and without the entries left out in it; the fold's questions of the other entries
 * are in-scope samples (right or wrong), the left-out entries' questions out-of-scope samples
 * (wrong by construction), weighted as `outOfScopeWeight` / `outOfScopeCap` say.
 */
type HeldOutSample = CalibrationSample & {
  /** The small-knowledge-base path's confidence (its calibration is fixed, not fitted to these). */
  confidence?: number;
};

function heldOutSamples(
  items: readonly Labelled[],
  classes: number,
  kind: ClassifierKind,
  options: EmbeddedTrainOptions,
  features: FeatureCache,
  vectors: WordVectors | null,
  faq = false,
  answers: readonly string[] = [],
): HeldOutSample[] {
  if (items.length < 2 || classes < 1) return [];
  const random = createRandom(options.seed + 101);
  const { fold, entryFold, folds } = assignFolds(items, classes, options, random);
  const inScope: HeldOutSample[] = [];
  const outOfScope: HeldOutSample[] = [];
  for (let f = 0; f < folds; f++) {
    const train = items.filter((item, i) => fold[i] !== f && entryFold[item.label] !== f);
    if (!train.length) continue;
    // An entry left out of the fold plays an unknown topic: its answer is left out too.
    const foldAnswers = answers.map((a, c) => (entryFold[c] === f ? '' : a));
    const classifier = fitClassifier(train, classes, kind, options, features, options.seed + 1000 * (f + 1), vectors, answerRowsOf(options, foldAnswers));
    const scorer = faq ? faqScorerOf(classifier, train, classes, features, vectors, foldAnswers) : null;
    items.forEach((item, i) => {
      const left = entryFold[item.label] === f;
      if (fold[i] !== f && !left) return;
      const counts = features.get(item.text);
      if (scorer) {
        const p = scorer.score(item.text, counts);
        (left ? outOfScope : inScope).push({ logOdds: logOddsOf(p.probability), similarity: p.similarity, correct: !left && p.label === item.label, confidence: p.confidence });
        return;
      }
      const p = classifier.classify(item.text, counts);
      (left ? outOfScope : inScope).push({ logOdds: logOddsOf(p.probability), similarity: p.similarity, correct: !left && p.label === item.label });
    });
  }
  const { outOfScopeWeight, outOfScopeCap } = options.calibration;
  const weight = outOfScope.length ? Math.min(outOfScopeWeight * inScope.length, outOfScopeCap) / outOfScope.length : 0;
  for (const s of outOfScope) s.weight = weight;
  return [...inScope, ...outOfScope];
}

export class EmbeddedModel {
  constructor(
    readonly options: EmbeddedTrainOptions,
    readonly labels: readonly string[],
    readonly questions: readonly (readonly string[])[],
    /** Per entry, the answer text the small-knowledge-base path reads as evidence (answerEvidence; '' for none). */
    readonly answers: readonly string[],
    private readonly classifier: Classifier | null,
    private readonly featurizer: Featurizer,
    readonly calibrator: Calibrator,
    readonly heldOut: HeldOutReport,
    readonly fingerprint: string,
    /** The small-knowledge-base path (faq-scorer.ts), or null. */
    private readonly scorer: FaqScorer | null = null,
    /** The word vectors the scorer uses (their id, stored with the model), or null. */
    private readonly scorerVectors: string | null = null,
  ) {}

  /** Whether this model takes the small-knowledge-base path. */
  get smallKnowledgeBase(): boolean {
    return this.scorer !== null;
  }

  /** The small-knowledge-base path's per-entry features of a question (faq-scorer.ts ENTRY_FEATURES), for eval/fit-faq-scorer.ts; null on the classifier path. */
  entryFeatures(text: string): Float64Array | null {
    return this.scorer ? this.scorer.entryFeatures(text, this.featurizer.get(text)) : null;
  }

  /** The small-knowledge-base path's statistics of the knowledge base (faq-scorer.ts KNOWLEDGE_BASE_STATS), for eval/fit-faq-scorer.ts; null on the classifier path. */
  get knowledgeBaseStats(): readonly number[] | null {
    return this.scorer ? this.scorer.knowledgeBase : null;
  }

  /** The most likely entry for a question, with its calibrated confidence (and the runner-up's); null when the model has no entries. */
  predict(text: string): EmbeddedPrediction | null {
    if (!this.classifier) return null;
    const counts = this.featurizer.get(text);
    if (this.scorer) {
      const p = this.scorer.score(text, counts);
      return {
        entryId: this.labels[p.label]!,
        confidence: p.confidence,
        probability: p.probability,
        similarity: p.similarity,
        runnerUp: p.runnerUp ? { entryId: this.labels[p.runnerUp.label]!, confidence: p.runnerUp.confidence } : null,
      };
    }
    const p = this.classifier.classify(text, counts, true);
    const confidence = confidenceOf({ logOdds: logOddsOf(p.probability), similarity: p.similarity }, this.calibrator);
    const r = p.runnerUp;
    return {
      entryId: this.labels[p.label]!,
      confidence,
      probability: p.probability,
      similarity: p.similarity,
      runnerUp: r ? { entryId: this.labels[r.label]!, confidence: Math.min(confidence, confidenceOf({ logOdds: logOddsOf(r.probability), similarity: r.similarity }, this.calibrator)) } : null,
    };
  }

  toJSON(): EmbeddedModelJson {
    const c = this.classifier;
    return {
      format: MODEL_FORMAT,
      fingerprint: this.fingerprint,
      options: this.options,
      labels: [...this.labels],
      questions: this.questions.map((q) => [...q]),
      answers: this.answers.length ? [...this.answers] : undefined,
      vectorizer: c
        ? { wordKeys: toBase64(c.vectorizer.state.wordKeys), charKeys: toBase64(c.vectorizer.state.charKeys), idf: toBase64(c.vectorizer.state.idf) }
        : null,
      linear: c ? { kind: c.kind, weights: toBase64(c.linear.weights), bias: Array.from(c.linear.bias), wordVectors: c.wordVectors } : null,
      calibrator: [...this.calibrator.weights],
      heldOut: { ...this.heldOut },
      scorer: this.scorer ? { kind: 'faq' as const, wordVectors: this.scorerVectors } : null,
    };
  }
}

/** Content fingerprint of what a model is trained from: entry ids, questions and answers, and the options. */
export function trainingFingerprint(entries: readonly KnowledgeEntry[], options: EmbeddedTrainOptions): string {
  return hashStrings([JSON.stringify(options), ...entries.flatMap((e) => [`\u0000${e.id}`, ...e.questions, `\u0001${e.answer}`])]);
}

/** Where the word vectors come from: by default the process's packaged ones (`defaultWordVectors`), loaded when first needed. */
export interface EmbeddedModelContext {
  wordVectors?: WordVectors | null;
}

function wordVectorsOf(context: EmbeddedModelContext): () => WordVectors | null {
  return () => (context.wordVectors !== undefined ? context.wordVectors : defaultWordVectors());
}

export function trainEmbeddedModel(entries: readonly KnowledgeEntry[], overrides?: EmbeddedTrainOverrides, context: EmbeddedModelContext = {}): EmbeddedModel {
  const options = resolveTrainOptions(overrides);
  const usable = entries
    .map((e) => ({ id: e.id, questions: e.questions.filter((q) => tokenize(q).length > 0), answer: e.answer }))
    .filter((e) => e.questions.length > 0);
  const labels = usable.map((e) => e.id);
  const questions = usable.map((e) => e.questions);
  // Only the small-knowledge-base path reads the answers; the classifier path stores none.
  const answers = usable.map((e) => answerEvidence(e.answer ?? ''));
  return buildModel(options, labels, questions, answers, trainingFingerprint(entries, options), null, wordVectorsOf(context));
}

function buildModel(
  options: EmbeddedTrainOptions,
  labels: readonly string[],
  questions: readonly (readonly string[])[],
  answers: readonly string[],
  fingerprint: string,
  saved: { state: SavedState; calibrator: Calibrator; heldOut: HeldOutReport; scorer: SavedScorer | null } | null,
  wordVectors: () => WordVectors | null,
): EmbeddedModel {
  const items: Labelled[] = questions.flatMap((qs, label) => qs.map((text) => ({ text, label })));
  // Decided once for the whole knowledge base, so the calibration folds use the same classifier.
  const kind = saved ? saved.state.linear.kind : classifierKind(options, items.length, labels.length);
  const faq = saved ? saved.scorer !== null : kind === 'softmax' && usesFaqScorer(options, items.length, labels.length);
  // Only SVMs asking for them, and the small-knowledge-base path, load the word vectors (the first time in a process: see word-vectors.ts).
  const vectors =
    labels.length &&
    ((kind === 'svm' && options.svm.wordVectors && (!saved || saved.state.linear.wordVectors)) || (faq && options.faq?.wordVectors && (!saved || saved.scorer?.wordVectors)))
      ? wordVectors()
      : null;
  const featurizer = featurizerOf(kind, options, items);
  const features = new FeatureCache(featurizer);
  // The answers are evidence for the small-knowledge-base path only (and stored only with it).
  const evidence = faq ? labels.map((_, c) => answers[c] ?? '') : [];
  if (!labels.length) {
    return new EmbeddedModel(options, labels, questions, evidence, null, featurizer, { weights: [...options.calibration.prior] }, { questions: 0, outOfScopeQuestions: 0, accuracy: 0, calibrationError: 0 }, fingerprint);
  }
  if (saved) {
    const { weights, bias, wordVectors: vectorsId } = saved.state.linear;
    if (vectorsId !== null && vectors?.id !== vectorsId) throw new Error(`embedded model: word vectors ${vectorsId} not available`);
    const vectorizer = new Vectorizer({ options: vectorizerOptions(kind, options), ...saved.state.vectorizer });
    const dense = vectorsId === null ? null : denseFeaturizerOf(kind, options, vectors, items.map((item) => item.text));
    const dimension = vectorizer.dimension + (dense ? dense.dimension : 0);
    if (weights.length !== dimension * labels.length) throw new Error('embedded model: array sizes do not match');
    const linear: LinearModel = { classes: labels.length, dimension, weights, bias };
    const examplesByClass: SparseVector[][] = Array.from({ length: labels.length }, () => []);
    for (const item of items) examplesByClass[item.label]!.push(vectorizer.transformCounts(features.get(item.text)));
    const classifier = new Classifier(vectorizer, kind, linear, scaleOf(kind, options), examplesByClass, dense, vectorsId);
    const scorerVectors = saved.scorer?.wordVectors ?? null;
    if (scorerVectors !== null && vectors?.id !== scorerVectors) throw new Error(`embedded model: word vectors ${scorerVectors} not available`);
    const scorer = saved.scorer ? faqScorerOf(classifier, items, labels.length, features, scorerVectors === null ? null : vectors, evidence) : null;
    return new EmbeddedModel(options, labels, questions, evidence, classifier, featurizer, saved.calibrator, saved.heldOut, fingerprint, scorer, scorerVectors);
  }
  // The classifier's vectors: the small-knowledge-base path's softmax has none (its scorer has them).
  const classifierVectors = faq ? null : vectors;
  const samples = heldOutSamples(items, labels.length, kind, options, features, faq ? vectors : classifierVectors, faq, evidence);
  // The small-knowledge-base path's calibration is fixed (faq-scorer.ts); the held-out samples only report on it.
  const calibrator = faq ? { weights: [...options.calibration.prior] as [number, number, number] } : fitCalibrator(samples, { weights: [...options.calibration.prior] }, options.calibration.priorStrength);
  const inScope = samples.filter((s) => s.weight === undefined);
  const heldOut: HeldOutReport = {
    questions: inScope.length,
    outOfScopeQuestions: samples.length - inScope.length,
    accuracy: inScope.length ? inScope.filter((s) => s.correct).length / inScope.length : 0,
    calibrationError: expectedCalibrationError(
      inScope.map((s) => s.confidence ?? confidenceOf(s, calibrator)),
      inScope.map((s) => s.correct),
    ),
  };
  const classifier = fitClassifier(items, labels.length, kind, options, features, options.seed, classifierVectors, answerRowsOf(options, evidence));
  const scorer = faq ? faqScorerOf(classifier, items, labels.length, features, vectors, evidence) : null;
  return new EmbeddedModel(options, labels, questions, evidence, classifier, featurizer, calibrator, heldOut, fingerprint, scorer, scorer && vectors ? vectors.id : null);
}

/**
 * v2: the linear model may be softmax or SVMs (`linear.kind`). v3: spelling normalisation and
 * question-boundary word n-grams for the SVMs (`options.svm.spelling`, `options.svm.wordBoundaries`).
 * v4: dense features from word vectors for the SVMs (`options.svm.wordVectors`; `linear.wordVectors`
 * names the vectors the model was trained with, null if none, and its weights have their dimensions
 * after the vectorizer's). v5: the small-knowledge-base path (faq-scorer.ts; `scorer` names it and
 * the word vectors it uses, null for the classifier alone; `options.faq`). v3 and v4 models of the
 * SVMs still load (the same predictions); their softmax models, and models of earlier formats, are
 * retrained from their entries (a small knowledge base then takes the v5 path). v6: the
 * small-knowledge-base path also reads the entries' answer texts as evidence (`answers`, per label,
 * answerEvidence; absent for the classifier path). v5 models still load and answer as knowledge
 * bases without answer texts (the constants were fitted on both kinds), until they are retrained.
 */
const MODEL_FORMAT = 'parley.embedded.v6';
const LOADABLE_FORMATS = ['parley.embedded.v3', 'parley.embedded.v4', 'parley.embedded.v5', MODEL_FORMAT] as const;
/** Formats whose softmax models still load (earlier ones are retrained). */
const SOFTMAX_FORMATS: readonly string[] = ['parley.embedded.v5', MODEL_FORMAT];

interface SavedScorer {
  kind: 'faq';
  wordVectors: string | null;
}

interface SavedState {
  vectorizer: { wordKeys: Uint32Array; charKeys: Uint32Array; idf: Float32Array };
  linear: { kind: ClassifierKind; weights: Float32Array; bias: Float32Array; wordVectors: string | null };
}

const range = z.tuple([z.number().int().min(1), z.number().int().min(1)]);
const modelJson = z.object({
  format: z.enum(LOADABLE_FORMATS),
  fingerprint: z.string(),
  options: z.object({
    seed: z.number(),
    features: z.object({ wordNgrams: range, charNgrams: range, minDf: z.number().int().min(1), charWeight: z.number().min(0) }),
    classifier: z.enum(['auto', 'softmax', 'svm']),
    svmFromQuestionsPerEntry: z.number().min(0),
    epochs: z.number().int().min(0),
    lambda: z.number().min(0),
    learningRate: z.number().positive(),
    centroidInit: z.number().min(0),
    idfPower: z.number().min(0),
    svm: z.object({
      cost: z.number().positive(),
      epochs: z.number().int().min(1),
      scale: z.number().positive(),
      idfPower: z.number().min(0),
      wordBoundaries: z.boolean(),
      spelling: z.object({ rareAtMost: z.number().int().min(0), commonAtLeast: z.number().int().min(1), minLength: z.number().int().min(1) }).nullable(),
      // Absent in v3 models: none.
      wordVectors: z
        .object({ weight: z.number().min(0) })
        .nullable()
        .optional()
        .transform((v) => v ?? null),
    }),
    classBalanced: z.boolean(),
    augmentCopies: z.number().int().min(0),
    calibration: z.object({
      folds: z.number().int().min(1),
      holdoutAbove: z.number().int().min(0),
      holdoutFraction: z.number().min(0).max(1),
      prior: z.tuple([z.number(), z.number(), z.number()]),
      priorStrength: z.number().min(0),
      outOfScopeWeight: z.number().min(0),
      outOfScopeCap: z.number().min(0),
    }),
    // Absent before v5: none.
    faq: z
      .object({ belowQuestionsPerEntry: z.number().min(0), wordVectors: z.boolean(), answerRows: z.boolean().optional() })
      .nullable()
      .optional()
      .transform((v) => v ?? null),
  }),
  labels: z.array(z.string()),
  questions: z.array(z.array(z.string())),
  // Absent before v6, and for the classifier path: no answer texts.
  answers: z.array(z.string()).optional(),
  vectorizer: z.object({ wordKeys: z.string(), charKeys: z.string(), idf: z.string() }).nullable(),
  linear: z
    .object({
      kind: z.enum(['softmax', 'svm']),
      weights: z.string(),
      bias: z.array(z.number()),
      wordVectors: z
        .string()
        .nullable()
        .optional()
        .transform((v) => v ?? null),
    })
    .nullable(),
  calibrator: z.tuple([z.number(), z.number(), z.number()]),
  heldOut: z.object({ questions: z.number(), outOfScopeQuestions: z.number(), accuracy: z.number(), calibrationError: z.number() }),
  scorer: z
    .object({ kind: z.literal('faq'), wordVectors: z.string().nullable() })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});

export type EmbeddedModelJson = z.input<typeof modelJson>;

/**
 * Loads what `EmbeddedModel.toJSON()` produced (e.g. read back from a jsonb column); throws on
 * anything else, and when the model's word vectors are not available (the caller retrains).
 */
export function loadEmbeddedModel(json: unknown, context: EmbeddedModelContext = {}): EmbeddedModel {
  const m = modelJson.parse(json);
  if (m.questions.length !== m.labels.length) throw new Error('embedded model: labels and questions differ in length');
  if (m.answers && m.answers.length !== m.labels.length) throw new Error('embedded model: labels and answers differ in length');
  if (!SOFTMAX_FORMATS.includes(m.format) && m.linear?.kind === 'softmax') throw new Error(`embedded model: ${m.format} softmax models are retrained (format ${MODEL_FORMAT})`);
  // A small knowledge base with answer texts, stored before its softmax learned from them (faq.answerRows):
  // the fitted constants assume it does, so it is retrained rather than scored with a softmax they were not fitted for.
  if (m.scorer && m.options.faq && m.options.faq.answerRows === undefined && (m.answers ?? []).some(Boolean)) {
    throw new Error('embedded model: a small knowledge base with answers stored before faq.answerRows is retrained');
  }
  let saved: Parameters<typeof buildModel>[5] = null;
  if (m.labels.length) {
    if (!m.vectorizer || !m.linear) throw new Error('embedded model: trained state missing');
    const state: SavedState = {
      vectorizer: {
        wordKeys: fromBase64(m.vectorizer.wordKeys, Uint32Array),
        charKeys: fromBase64(m.vectorizer.charKeys, Uint32Array),
        idf: fromBase64(m.vectorizer.idf, Float32Array),
      },
      linear: { kind: m.linear.kind, weights: fromBase64(m.linear.weights, Float32Array), bias: Float32Array.from(m.linear.bias), wordVectors: m.linear.wordVectors },
    };
    const dimension = state.vectorizer.wordKeys.length + state.vectorizer.charKeys.length;
    // The weights' size is checked once the dense features' dimension is known (buildModel).
    if (state.vectorizer.idf.length !== dimension || state.linear.weights.length % m.labels.length !== 0 || state.linear.weights.length < dimension * m.labels.length || state.linear.bias.length !== m.labels.length) {
      throw new Error('embedded model: array sizes do not match');
    }
    saved = { state, calibrator: { weights: m.calibrator }, heldOut: m.heldOut, scorer: m.scorer };
  }
  return buildModel(m.options, m.labels, m.questions, m.answers ?? [], m.fingerprint, saved, wordVectorsOf(context));
}

function toBase64(array: Uint32Array | Float32Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

function fromBase64<T extends Uint32Array | Float32Array>(text: string, Type: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number }): T {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength % Type.BYTES_PER_ELEMENT !== 0) throw new Error('embedded model: truncated array');
  // Copy into a fresh, aligned buffer (Buffer's pool offsets are not).
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return new Type(copy);
}
