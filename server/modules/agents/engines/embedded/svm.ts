/**
 * One-vs-rest linear SVMs with the squared hinge loss (L2-loss, L2-regularised), trained by dual
 * coordinate descent (Hsieh et al. 2008, as in LIBLINEAR), all classes in one pass over the data.
 *
 * For class c the problem is min ½‖w_c‖² + Σᵢ costᵢ · max(0, 1 − yᵢc · (w_c · xᵢ + b_c))², yᵢc = ±1;
 * the bias is a constant feature of value 1 (so it is regularised like the weights). Each visit to
 * an example solves the one-variable sub-problem of its dual variable α_ic in closed form for every
 * class at once: one scoring of the example over the classes, one update of their weights.
 *
 * As in the softmax trainer, between full passes an example only visits its candidate classes —
 * those whose constraint was active or nearly so at its last full pass (α_ic > 0 or margin below
 * 1 + CANDIDATE_SLACK) — which after the first pass are a handful of the 77 or 150 classes. The
 * last epoch is always a full pass, so every constraint is checked against the final weights.
 */
import { accumulate, type LinearModel } from './linear';
import { createRandom, shuffle } from './random';
import type { SparseVector } from './vectorizer';

export interface SvmOptions {
  /** C: the weight of the loss against ½‖w‖², per example (times its sample weight). */
  cost: number;
  /** Passes over the data; every FULL_PASS_EVERY-th and the last score all classes. */
  epochs: number;
  seed: number;
}

const FULL_PASS_EVERY = 3;
const CANDIDATE_SLACK = 0.1;
const MAX_CANDIDATES = 32;
/** Projected gradients smaller than this leave α as it is. */
const TOLERANCE = 1e-3;

export function trainSvm(
  xs: readonly SparseVector[],
  ys: Int32Array,
  sampleWeights: Float32Array,
  classes: number,
  dimension: number,
  options: SvmOptions,
): LinearModel {
  const C = classes;
  const n = xs.length;
  const W = new Float32Array(dimension * C);
  const bias = new Float64Array(C);
  // Dual variables, example-major; every α starts at 0 (w = 0).
  const alpha = new Float32Array(n * C);
  // ‖xᵢ‖² + 1 (the bias feature): the diagonal of the dual's Gram matrix.
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 1;
    for (const v of xs[i]!.values) s += v * v;
    norms[i] = s;
  }
  const z = new Float64Array(C);
  const updatedClass = new Int32Array(C);
  const updatedBy = new Float64Array(C);
  const candidateCount = new Int32Array(n).fill(-1);
  const candidates = new Int32Array(n * MAX_CANDIDATES);
  const classList = Int32Array.from({ length: C }, (_, c) => c);
  const random = createRandom(options.seed);
  const order = Array.from(xs.keys());
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random);
    const full = epoch % FULL_PASS_EVERY === 0 || epoch === options.epochs - 1;
    for (const i of order) {
      const x = xs[i]!;
      const idx = x.indices;
      const val = x.values;
      const nnz = idx.length;
      const y = ys[i]!;
      const m = full || candidateCount[i]! < 0 ? C : candidateCount[i]!;
      const list = m === C ? classList : candidates.subarray(i * MAX_CANDIDATES, i * MAX_CANDIDATES + m);
      if (m === C) {
        for (let c = 0; c < C; c++) z[c] = bias[c]!;
        accumulate(W, C, idx, val, 1, z);
      } else {
        for (let j = 0; j < m; j++) z[j] = bias[list[j]!]!;
        for (let k = 0; k < nnz; k++) {
          const v = val[k]!;
          const base = idx[k]! * C;
          for (let j = 0; j < m; j++) z[j]! += v * W[base + list[j]!]!;
        }
      }
      // The squared hinge's dual: D_ii = 1 / (2·cost), no upper bound on α.
      const diagonal = 0.5 / (options.cost * sampleWeights[i]!);
      const q = norms[i]! + diagonal;
      let updated = 0;
      let kept = 0;
      for (let j = 0; j < m; j++) {
        const c = list[j]!;
        const sign = c === y ? 1 : -1;
        const a = alpha[i * C + c]!;
        const gradient = sign * z[j]! - 1 + diagonal * a;
        if (full && kept >= 0 && (c === y || a > 0 || gradient < CANDIDATE_SLACK)) {
          if (kept === MAX_CANDIDATES) kept = -1;
          else candidates[i * MAX_CANDIDATES + kept++] = c;
        }
        const projected = a === 0 ? Math.min(gradient, 0) : gradient;
        if (projected > -TOLERANCE && projected < TOLERANCE) continue;
        const next = Math.max(a - gradient / q, 0);
        alpha[i * C + c] = next;
        const delta = (next - a) * sign;
        bias[c]! += delta;
        updatedClass[updated] = c;
        updatedBy[updated++] = delta;
      }
      if (full) candidateCount[i] = kept;
      for (let k = 0; k < nnz; k++) {
        const base = idx[k]! * C;
        const v = val[k]!;
        for (let u = 0; u < updated; u++) W[base + updatedClass[u]!]! += updatedBy[u]! * v;
      }
    }
  }
  return { classes: C, dimension, weights: W, bias: Float32Array.from(bias) };
}
