/**
 * A learned metric for the small-knowledge-base path's word vectors (issue 12 §2, model format v6,
 * scorer metric 1): within-class covariance normalisation (WCCN) of pooled question vectors.
 *
 * Static skip-gram vectors place "when will my card arrive" and "why was my card declined" close
 * together: most of a question's pooled vector says "a question about a card", little says which
 * question. Given many questions labelled with their intents, the directions in which questions of
 * the SAME intent differ (wording, politeness, filler) can be measured: their within-class
 * covariance S. Mapping every word vector by (S + α·mean eigenvalue·I)^(−1/2) shrinks those
 * directions and stretches the ones that tell intents apart, so cosines between pooled vectors
 * follow the intent rather than the topic. One 100 × 100 matrix, applied to each word vector before
 * any pooling or word cosine; the knowledge base itself is not needed, so it serves any business's
 * FAQ, including topics the matrix never saw.
 *
 * The matrix the engine ships (`word-metric.data.ts`) is fitted by `npx tsx eval/fit-word-metric.ts
 * --write` on the training splits of public intent datasets (BANKING77 train.csv, CLINC150 train
 * and val; never a test split). The evaluation never measures a dataset with a matrix that saw it:
 * its episodes use `fitWordMetric` on the other dataset alone (EmbeddedModelContext.faqWordMetric).
 */
import { tokenize } from './text';
import { SHIPPED_WORD_METRIC } from './word-metric.data';
import type { WordVectors } from './word-vectors';

export interface WordMetric {
  /** The word vectors it was fitted on (WordVectors.id); it applies to those only. */
  readonly vectors: string;
  readonly dimension: number;
  /** Row-major dimension × dimension, symmetric. */
  readonly matrix: Float64Array;
}

export interface WordMetricOptions {
  /** Ridge on the within-class covariance, as a multiple of its mean eigenvalue. */
  alpha: number;
}

/** Chosen on validation episodes (docs/agent-evaluation.md, "fifth round"). */
export const WORD_METRIC_OPTIONS: WordMetricOptions = { alpha: 0.3 };

/** Word vectors seen through a metric: every vector is `matrix · v` (linear, so pools and centring commute with it). */
export class MetricWordVectors implements WordVectors {
  readonly id: string;
  readonly dimension: number;
  private readonly scratch: Float64Array;

  constructor(
    private readonly base: WordVectors,
    private readonly metric: WordMetric,
  ) {
    if (metric.vectors !== base.id || metric.dimension !== base.dimension) throw new Error(`word metric: fitted on ${metric.vectors}, not ${base.id}`);
    this.id = base.id;
    this.dimension = base.dimension;
    this.scratch = new Float64Array(base.dimension);
  }

  addTo(word: string, out: Float64Array, scale: number): boolean {
    const v = this.scratch;
    v.fill(0);
    if (!this.base.addTo(word, v, 1)) return false;
    const D = this.dimension;
    const W = this.metric.matrix;
    for (let i = 0; i < D; i++) {
      let sum = 0;
      for (let j = 0, row = i * D; j < D; j++) sum += W[row + j]! * v[j]!;
      out[i]! += scale * sum;
    }
    return true;
  }
}

/** The idf-weighted mean of a question's word vectors, centred on `mean`, unit length (null without any known word). */
function pooledQuestion(vectors: WordVectors, text: string, idf: (word: string) => number, mean: Float64Array): Float64Array | null {
  const D = vectors.dimension;
  const out = new Float64Array(D);
  const v = new Float64Array(D);
  let found = false;
  for (const word of tokenize(text)) {
    v.fill(0);
    if (!vectors.addTo(word, v, 1)) continue;
    found = true;
    const w = idf(word);
    for (let d = 0; d < D; d++) out[d]! += w * (v[d]! - mean[d]!);
  }
  let norm = 0;
  for (const x of out) norm += x * x;
  if (!found || norm === 0) return null;
  norm = Math.sqrt(norm);
  for (let d = 0; d < D; d++) out[d]! /= norm;
  return out;
}

/**
 * WCCN from labelled questions: the within-class covariance S of their pooled vectors (idf-weighted
 * mean, centred on the corpus mean word vector, unit length; each question once, around its own
 * intent's mean), and (S + α·mean eigenvalue·I)^(−1/2), scaled to a mean eigenvalue of 1.
 * Deterministic: the same questions in any order give the same matrix (up to rounding).
 */
export function fitWordMetric(vectors: WordVectors, questions: readonly { text: string; label: string }[], options: WordMetricOptions = WORD_METRIC_OPTIONS): WordMetric {
  const D = vectors.dimension;
  const df = new Map<string, number>();
  const mean = new Float64Array(D);
  let found = 0;
  for (const { text } of questions) {
    const tokens = tokenize(text);
    for (const token of new Set(tokens)) df.set(token, (df.get(token) ?? 0) + 1);
    for (const token of tokens) if (vectors.addTo(token, mean, 1)) found++;
  }
  if (found) for (let d = 0; d < D; d++) mean[d]! /= found;
  const idf = (word: string) => Math.log((1 + questions.length) / (1 + (df.get(word) ?? 0))) + 1;
  const byLabel = new Map<string, Float64Array[]>();
  for (const { text, label } of questions) {
    const x = pooledQuestion(vectors, text, idf, mean);
    if (!x) continue;
    let list = byLabel.get(label);
    if (!list) byLabel.set(label, (list = []));
    list.push(x);
  }
  const S = new Float64Array(D * D);
  let n = 0;
  const a = new Float64Array(D);
  for (const list of byLabel.values()) {
    if (list.length < 2) continue;
    const centre = new Float64Array(D);
    for (const x of list) for (let d = 0; d < D; d++) centre[d]! += x[d]! / list.length;
    for (const x of list) {
      for (let d = 0; d < D; d++) a[d] = x[d]! - centre[d]!;
      for (let i = 0; i < D; i++) for (let j = i; j < D; j++) S[i * D + j]! += a[i]! * a[j]!;
      n++;
    }
  }
  if (n === 0) throw new Error('word metric: needs intents with two or more questions');
  for (let i = 0; i < D; i++)
    for (let j = i; j < D; j++) {
      S[i * D + j]! /= n;
      S[j * D + i] = S[i * D + j]!;
    }
  const { values, vectors: E } = symmetricEigen(S, D);
  const meanEigen = values.reduce((sum, v) => sum + v, 0) / D;
  const factors = values.map((v) => (Math.max(v, 0) + options.alpha * meanEigen) ** -0.5);
  const meanFactor = factors.reduce((sum, f) => sum + f, 0) / D;
  const matrix = new Float64Array(D * D);
  for (let k = 0; k < D; k++) {
    const f = factors[k]! / meanFactor;
    for (let i = 0; i < D; i++) {
      const eik = E[i * D + k]! * f;
      for (let j = 0; j < D; j++) matrix[i * D + j]! += eik * E[j * D + k]!;
    }
  }
  return { vectors: vectors.id, dimension: D, matrix };
}

/** Eigenvalues and eigenvectors (columns of `vectors`, row-major) of a symmetric matrix: cyclic Jacobi rotations. */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const A = Float64Array.from(matrix);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  let scale = 0;
  for (const x of A) scale += x * x;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q]! ** 2;
    if (off <= 1e-24 * scale) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q]!;
        if (apq === 0) continue;
        const theta = (A[q * n + q]! - A[p * n + p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p]!;
          const akq = A[k * n + q]!;
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k]!;
          const aqk = A[q * n + k]!;
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!;
          const vkq = V[k * n + q]!;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = A[i * n + i]!;
  return { values, vectors: V };
}

/** The stored form: JSON with the matrix as little-endian float32 base64. */
export interface WordMetricJson {
  format: 'parley.word-metric.v1';
  vectors: string;
  dimension: number;
  /** What it was fitted on and with which options (for people; not read). */
  fittedOn: string;
  options: WordMetricOptions;
  matrix: string;
}

export function wordMetricToJson(metric: WordMetric, fittedOn: string, options: WordMetricOptions): WordMetricJson {
  const f32 = Float32Array.from(metric.matrix);
  return { format: 'parley.word-metric.v1', vectors: metric.vectors, dimension: metric.dimension, fittedOn, options, matrix: Buffer.from(f32.buffer).toString('base64') };
}

export function wordMetricFromJson(json: WordMetricJson): WordMetric {
  if (json.format !== 'parley.word-metric.v1') throw new Error('word metric: unknown format');
  const bytes = Buffer.from(json.matrix, 'base64');
  if (bytes.length !== json.dimension * json.dimension * 4) throw new Error('word metric: matrix size does not match');
  const f32 = new Float32Array(json.dimension * json.dimension);
  new Uint8Array(f32.buffer).set(bytes);
  return { vectors: json.vectors, dimension: json.dimension, matrix: Float64Array.from(f32) };
}

let shipped: WordMetric | undefined;

/** The metric the engine ships (word-metric.data.ts), decoded once. */
export function shippedWordMetric(): WordMetric {
  shipped ??= wordMetricFromJson(SHIPPED_WORD_METRIC);
  return shipped;
}

/** `vectors` through `metric` when the metric was fitted on them, else the vectors unchanged. */
export function withWordMetric(vectors: WordVectors, metric: WordMetric | null): WordVectors {
  return metric && metric.vectors === vectors.id && metric.dimension === vectors.dimension ? new MetricWordVectors(vectors, metric) : vectors;
}
