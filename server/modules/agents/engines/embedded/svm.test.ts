import { describe, expect, it } from 'vitest';
import { linearScores } from './linear';
import { createRandom } from './random';
import { trainSvm } from './svm';
import type { SparseVector } from './vectorizer';

/** Unit-length sparse vectors: class c owns feature 2c (always) and 2c+1 (half the time), plus one of four shared noise features. */
function dataset(classes: number, perClass: number, seed: number): { xs: SparseVector[]; ys: Int32Array; dimension: number } {
  const random = createRandom(seed);
  const shared = 2 * classes;
  const xs: SparseVector[] = [];
  const ys: number[] = [];
  for (let c = 0; c < classes; c++) {
    for (let k = 0; k < perClass; k++) {
      const indices = [2 * c, shared + Math.floor(random() * 4)];
      const values = [1, 0.8 * random()];
      if (random() < 0.5) {
        indices.push(2 * c + 1);
        values.push(0.5);
      }
      const norm = Math.hypot(...values);
      xs.push({ indices: Int32Array.from(indices), values: Float32Array.from(values, (v) => v / norm) });
      ys.push(c);
    }
  }
  return { xs, ys: Int32Array.from(ys), dimension: shared + 4 };
}

function scores(model: ReturnType<typeof trainSvm>, x: SparseVector): Float64Array {
  const out = new Float64Array(model.classes);
  linearScores(model, x, out);
  return out;
}

describe('trainSvm (one-vs-rest squared hinge, dual coordinate descent)', () => {
  const classes = 40; // more than the 32 candidates an example may keep between full passes
  const { xs, ys, dimension } = dataset(classes, 6, 3);
  const weights = new Float32Array(xs.length).fill(1);
  const model = trainSvm(xs, ys, weights, classes, dimension, { cost: 10, epochs: 10, seed: 1 });

  it('separates separable classes with a margin: own class scores above 0.5, every other below −0.5', () => {
    xs.forEach((x, i) => {
      const z = scores(model, x);
      for (let c = 0; c < classes; c++) {
        if (c === ys[i]) expect(z[c]!).toBeGreaterThan(0.5);
        else expect(z[c]!).toBeLessThan(-0.5);
      }
    });
  });

  it('classifies unseen vectors of the same classes', () => {
    const fresh = dataset(classes, 3, 99);
    fresh.xs.forEach((x, i) => {
      const z = scores(model, x);
      expect(z.indexOf(Math.max(...z))).toBe(fresh.ys[i]);
    });
  });

  it('regularises: a smaller cost gives smaller weights', () => {
    const soft = trainSvm(xs, ys, weights, classes, dimension, { cost: 0.05, epochs: 10, seed: 1 });
    const norm = (w: Float32Array) => Math.sqrt(w.reduce((s, v) => s + v * v, 0));
    expect(norm(soft.weights)).toBeLessThan(0.7 * norm(model.weights));
  });

  it('is deterministic for a given seed', () => {
    const again = trainSvm(xs, ys, weights, classes, dimension, { cost: 10, epochs: 10, seed: 1 });
    expect(Array.from(again.weights)).toEqual(Array.from(model.weights));
    expect(Array.from(again.bias)).toEqual(Array.from(model.bias));
  });
});
