/**
 * What both trainers produce (the softmax regression in softmax.ts, the one-vs-rest SVMs in
 * svm.ts): a linear model over sparse vectors, one score per class.
 *
 * Weights are stored feature-major (`weights[f * classes + c]`) so scoring is, per non-zero
 * feature, one contiguous run over the classes.
 */
import type { SparseVector } from './vectorizer';

export interface LinearModel {
  classes: number;
  dimension: number;
  /** dimension × classes, feature-major. */
  weights: Float32Array;
  bias: Float32Array;
}

/** Scores (logits) of one vector into `out` (length = classes). */
export function linearScores(model: LinearModel, x: SparseVector, out: Float64Array): void {
  const C = model.classes;
  for (let c = 0; c < C; c++) out[c] = model.bias[c]!;
  accumulate(model.weights, C, x.indices, x.values, 1, out);
}

/** out[c] += scale · Σ_k val[k] · W[idx[k]·C + c], unrolled by four (about 1.7× faster in V8). */
export function accumulate(W: Float32Array, C: number, idx: Int32Array, val: Float32Array, scale: number, out: Float64Array): void {
  const C4 = C - (C % 4);
  for (let k = 0; k < idx.length; k++) {
    const v = val[k]! * scale;
    const base = idx[k]! * C;
    let c = 0;
    for (; c < C4; c += 4) {
      out[c]! += v * W[base + c]!;
      out[c + 1]! += v * W[base + c + 1]!;
      out[c + 2]! += v * W[base + c + 2]!;
      out[c + 3]! += v * W[base + c + 3]!;
    }
    for (; c < C; c++) out[c]! += v * W[base + c]!;
  }
}

/** In place: scores × scale → probabilities. */
export function softmaxInPlace(z: Float64Array, scale = 1): void {
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  let sum = 0;
  for (let c = 0; c < z.length; c++) {
    const e = Math.exp((z[c]! - max) * scale);
    z[c] = e;
    sum += e;
  }
  for (let c = 0; c < z.length; c++) z[c]! /= sum;
}
