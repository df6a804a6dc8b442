import { describe, expect, it } from 'vitest';
import { compareTimings, mannWhitneyP, normalCdf, seededRandom } from './compare';

describe('timing comparison', () => {
  it('normalCdf matches known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });

  it('Mann–Whitney: a textbook example (U = 3 for 4 + 5 samples; exact two-sided p = 0.111, normal approximation ≈ 0.11)', () => {
    // Ranks of a: 1, 2, 4, 6 → U = 13 − 10 = 3.
    expect(mannWhitneyP([1, 2, 4, 6], [3, 5, 7, 8, 9])).toBeCloseTo(0.11, 1);
  });

  it('finds two draws of the same distribution within noise, and a 6 ms vs 78 ms split not', () => {
    const random = seededRandom(7);
    const noisy = (center: number) => Array.from({ length: 40 }, () => center + (random() - 0.5) * 20);
    const same = compareTimings(noisy(100), noisy(100));
    expect(same.withinNoise).toBe(true);
    const split = compareTimings(noisy(6), noisy(78));
    expect(split.withinNoise).toBe(false);
    expect(split.p).toBeLessThan(1e-6);
    expect(split.ci[1]).toBeLessThan(0);
  });
});
