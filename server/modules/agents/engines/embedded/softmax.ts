/**
 * Multinomial logistic regression on sparse vectors, trained by SGD with L2 regularisation, into
 * a feature-major linear model (linear.ts). The L2 shrink is applied lazily through a global
 * scale (Bottou's trick), per-class updates whose gradient is negligible are skipped, and between
 * full passes an example only scores the classes that were not negligible for it at the last one
 * (its candidates), which after the first epoch leaves most of the 77 or 150 classes untouched.
 */
import { accumulate, type LinearModel } from './linear';
import { createRandom, shuffle } from './random';
import type { SparseVector } from './vectorizer';

export interface SoftmaxOptions {
  epochs: number;
  /** L2 strength per example (the objective is mean weighted cross-entropy + λ/2·‖W‖²). */
  lambda: number;
  /** Initial step; decays linearly to 5 % of it over the run. */
  learningRate: number;
  /**
   * Start from the class centroids times this (0: from zero). A warm start: most classes' gradients
   * are already negligible in the first epoch, so fewer updates are made and fewer epochs needed.
   */
  centroidInit: number;
  seed: number;
}

const SKIP_GRADIENT = 1e-3;
/**
 * Classes below this probability for an example at its last full pass are neither scored nor
 * updated for it until the next full pass (every FULL_PASS_EVERY epochs); an example with more
 * than MAX_CANDIDATES such classes is always scored in full.
 */
const CANDIDATE_P = 1e-3;
const MAX_CANDIDATES = 32;
const FULL_PASS_EVERY = 2;

export function trainSoftmax(
  xs: readonly SparseVector[],
  ys: Int32Array,
  sampleWeights: Float32Array,
  classes: number,
  dimension: number,
  options: SoftmaxOptions,
): LinearModel {
  const C = classes;
  const W = new Float32Array(dimension * C);
  const b = new Float64Array(C);
  const z = new Float64Array(C);
  const active = new Int32Array(C);
  const activeStep = new Float64Array(C);
  if (options.centroidInit > 0) {
    const perClass = new Float64Array(C);
    for (let i = 0; i < xs.length; i++) perClass[ys[i]!]! += 1;
    for (let i = 0; i < xs.length; i++) {
      const { indices, values } = xs[i]!;
      const c = ys[i]!;
      const f = options.centroidInit / perClass[c]!;
      for (let k = 0; k < indices.length; k++) W[indices[k]! * C + c]! += f * values[k]!;
    }
  }
  const random = createRandom(options.seed);
  const order = Array.from(xs.keys());
  const totalSteps = Math.max(1, options.epochs * xs.length);
  // Candidate classes per example (those with p ≥ CANDIDATE_P at its last full pass, and its own
  // class); -1 count = all classes. Between full passes only the candidates are scored.
  const candidateCount = new Int32Array(xs.length).fill(-1);
  const candidates = new Int32Array(xs.length * MAX_CANDIDATES);
  const classList = Int32Array.from({ length: C }, (_, c) => c);
  let scale = 1;
  let step = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random);
    const full = epoch % FULL_PASS_EVERY === 0;
    for (const i of order) {
      const eta = options.learningRate * (1 - (0.95 * step) / totalSteps);
      step++;
      const x = xs[i]!;
      const idx = x.indices;
      const val = x.values;
      const nnz = idx.length;
      const y = ys[i]!;
      const sw = sampleWeights[i]!;
      const m = full || candidateCount[i]! < 0 ? C : candidateCount[i]!;
      const list = m === C ? classList : candidates.subarray(i * MAX_CANDIDATES, i * MAX_CANDIDATES + m);
      if (m === C) {
        for (let c = 0; c < C; c++) z[c] = b[c]!;
        accumulate(W, C, idx, val, scale, z);
      } else {
        for (let j = 0; j < m; j++) z[j] = b[list[j]!]!;
        for (let k = 0; k < nnz; k++) {
          const v = val[k]! * scale;
          const base = idx[k]! * C;
          for (let j = 0; j < m; j++) z[j]! += v * W[base + list[j]!]!;
        }
      }
      let max = -Infinity;
      for (let j = 0; j < m; j++) if (z[j]! > max) max = z[j]!;
      let sum = 0;
      for (let j = 0; j < m; j++) {
        const e = Math.exp(z[j]! - max);
        z[j] = e;
        sum += e;
      }
      if (full) {
        let n = 0;
        for (let c = 0; c < C && n >= 0; c++) {
          if (c !== y && z[c]! / sum < CANDIDATE_P) continue;
          if (n === MAX_CANDIDATES) n = -1;
          else candidates[i * MAX_CANDIDATES + n++] = c;
        }
        candidateCount[i] = n;
      }
      // z becomes the gradient of the loss with respect to the logits.
      for (let j = 0; j < m; j++) z[j] = (z[j]! / sum - (list[j] === y ? 1 : 0)) * sw;
      scale *= 1 - eta * options.lambda;
      const stepOverScale = eta / scale;
      let nActive = 0;
      for (let j = 0; j < m; j++) {
        const g = z[j]!;
        if (g < SKIP_GRADIENT && g > -SKIP_GRADIENT) continue;
        const c = list[j]!;
        b[c]! -= eta * g;
        active[nActive] = c;
        activeStep[nActive++] = g * stepOverScale;
      }
      for (let k = 0; k < nnz; k++) {
        const base = idx[k]! * C;
        const v = val[k]!;
        for (let a = 0; a < nActive; a++) W[base + active[a]!]! -= activeStep[a]! * v;
      }
      if (scale < 1e-4) {
        for (let j = 0; j < W.length; j++) W[j]! *= scale;
        scale = 1;
      }
    }
  }
  if (scale !== 1) for (let j = 0; j < W.length; j++) W[j]! *= scale;
  return { classes: C, dimension, weights: W, bias: Float32Array.from(b) };
}
