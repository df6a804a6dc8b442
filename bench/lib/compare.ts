/**
 * Whether two sets of timings differ by more than noise: the difference of medians with a
 * bootstrap confidence interval, and the Mann–Whitney U test (rank-based, so a few slow outliers
 * from a busy machine do not decide it). Used by the sign-in group for "known vs unknown address".
 */
import { median, percentile } from './stats';

export interface Comparison {
  medianA: number;
  medianB: number;
  /** median(a) − median(b). */
  difference: number;
  /** 95 % bootstrap interval of the difference of medians. */
  ci: [number, number];
  /** Two-sided p-value of the Mann–Whitney U test (normal approximation, tie-corrected). */
  p: number;
  /** p ≥ 0.05 and the interval contains 0. */
  withinNoise: boolean;
}

/** A small seeded PRNG (mulberry32), so a run's interval can be reproduced from its samples. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Φ(x), the standard normal distribution function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Two-sided p-value of the Mann–Whitney U test of a against b. */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return Number.NaN;
  const all = [...a.map((value) => ({ value, fromA: true })), ...b.map((value) => ({ value, fromA: false }))].sort((x, y) => x.value - y.value);
  const n = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.value === all[i]!.value) j++;
    const rank = (i + j + 2) / 2; // ranks i+1 … j+1, averaged
    for (let k = i; k <= j; k++) if (all[k]!.fromA) rankSumA += rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sigma === 0) return 1;
  const z = (Math.abs(u - mean) - 0.5) / sigma; // continuity correction
  return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
}

/** 95 % bootstrap interval of median(a) − median(b). */
export function bootstrapMedianDifference(a: readonly number[], b: readonly number[], rounds = 4000, seed = 1): [number, number] {
  const random = seededRandom(seed);
  const resample = (xs: readonly number[]) => Array.from({ length: xs.length }, () => xs[Math.floor(random() * xs.length)]!);
  const differences = Array.from({ length: rounds }, () => median(resample(a)) - median(resample(b)));
  return [percentile(differences, 2.5), percentile(differences, 97.5)];
}

export function compareTimings(a: readonly number[], b: readonly number[]): Comparison {
  const ci = bootstrapMedianDifference(a, b);
  const p = mannWhitneyP(a, b);
  return {
    medianA: median(a),
    medianB: median(b),
    difference: median(a) - median(b),
    ci,
    p,
    withinNoise: p >= 0.05 && ci[0] <= 0 && ci[1] >= 0,
  };
}
