/**
 * Grouping texts by topic (issue 16 §3, docs/insights.md "Topics of unanswered questions"): the
 * customers' questions no knowledge-base entry matched become topics by average-linkage
 * agglomerative clustering of their feature vectors — the AI agent's own text features, which
 * the insights module does not own: `app.ts` passes them in as a `TextFeatures` (the agents
 * module's `EmbeddedTextFeatures`).
 *
 * Everything here is pure and deterministic: the same texts in the same order give the same clusters.
 */

/** One text as the features see it: sparse weights and a dense part; the dot product of two is their similarity. */
export interface TextVector {
  indices: Int32Array;
  values: Float32Array;
  dense: Float32Array;
}

/**
 * The port: texts → vectors comparable with each other (one call fits its weights on its texts),
 * and the average similarity from which texts are one topic (tuned with the features).
 */
export interface TextFeatures {
  embed(texts: readonly string[]): { vectors: TextVector[]; sameTopic: number };
}

/** Index of the largest sparse index + 1. */
function vocabularySize(vectors: readonly TextVector[]): number {
  let size = 0;
  for (const { indices } of vectors) for (const i of indices) if (i >= size) size = i + 1;
  return size;
}

function denseDot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s0 = 0;
  let s1 = 0;
  let d = 0;
  for (; d + 1 < n; d += 2) {
    s0 += a[d]! * b[d]!;
    s1 += a[d + 1]! * b[d + 1]!;
  }
  if (d < n) s0 += a[d]! * b[d]!;
  return s0 + s1;
}

/**
 * The similarities of every pair, as an n × n matrix (row-major, symmetric, 1 on the diagonal).
 * The sparse parts go through an inverted index (each feature's texts in order: row i adds its
 * weight times theirs to every later text sharing the feature, so a pair costs only the features
 * it shares), the dense parts are one flat array.
 */
export function similarityMatrix(vectors: readonly TextVector[]): Float32Array {
  const n = vectors.length;
  const matrix = new Float32Array(n * n);
  const features = vocabularySize(vectors);
  const end = new Int32Array(features + 1);
  for (const { indices } of vectors) for (const f of indices) end[f + 1]!++;
  for (let f = 0; f < features; f++) end[f + 1]! += end[f]!;
  const texts = new Int32Array(end[features]!);
  const weights = new Float32Array(end[features]!);
  const fill = end.slice(0, features);
  vectors.forEach(({ indices, values }, i) => {
    for (let k = 0; k < indices.length; k++) {
      const at = fill[indices[k]!]!++;
      texts[at] = i;
      weights[at] = values[k]!;
    }
  });
  const dimension = vectors.reduce((max, v) => Math.max(max, v.dense.length), 0);
  const dense = new Float32Array(n * dimension);
  vectors.forEach((v, i) => dense.set(v.dense, i * dimension));
  // The first posting of each feature not yet passed: row i's own (the lists are in text order).
  const next = end.slice(0, features);
  const row = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const { indices, values } = vectors[i]!;
    for (let k = 0; k < indices.length; k++) {
      const f = indices[k]!;
      const w = values[k]!;
      const to = end[f + 1]!;
      for (let p = ++next[f]!; p < to; p++) row[texts[p]!]! += w * weights[p]!;
    }
    const a = i * dimension;
    for (let j = i + 1; j < n; j++) {
      const b = j * dimension;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let d = 0;
      for (; d + 3 < dimension; d += 4) {
        s0 += dense[a + d]! * dense[b + d]!;
        s1 += dense[a + d + 1]! * dense[b + d + 1]!;
        s2 += dense[a + d + 2]! * dense[b + d + 2]!;
        s3 += dense[a + d + 3]! * dense[b + d + 3]!;
      }
      for (; d < dimension; d++) s0 += dense[a + d]! * dense[b + d]!;
      const s = row[j]! + s0 + s1 + s2 + s3;
      row[j] = 0;
      matrix[i * n + j] = s;
      matrix[j * n + i] = s;
    }
    matrix[i * n + i] = 1;
  }
  return matrix;
}

/**
 * Average-linkage agglomerative clustering that stops at `threshold`: two groups merge while the
 * mean similarity between their members (weighted by `weights`, e.g. how many times a text was
 * asked) is at least `threshold`. Nearest-neighbour chain (O(n²) time): the same clusters as
 * merging the most similar pair first, ties to the lower index.
 *
 * `matrix` (from similarityMatrix) is used as working space: its upper triangle is overwritten,
 * the lower triangle (i > j) keeps the original similarities. Returns each item's cluster as the
 * lowest index of its members.
 */
export function averageLinkage(matrix: Float32Array, n: number, threshold: number, weights?: readonly number[]): Int32Array {
  const size = Float64Array.from({ length: n }, (_, i) => weights?.[i] ?? 1);
  const open = new Uint8Array(n).fill(1);
  const root = Int32Array.from({ length: n }, (_, i) => i);
  const get = (a: number, b: number) => (a < b ? matrix[a * n + b]! : matrix[b * n + a]!);
  const chain: number[] = [];
  let start = 0;
  for (;;) {
    if (chain.length === 0) {
      while (start < n && !open[start]) start++;
      if (start >= n) break;
      chain.push(start);
    }
    const a = chain[chain.length - 1]!;
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1;
    // The nearest open cluster; on a tie the one before it in the chain (so the chain ends), else the lowest index.
    let best = previous >= 0 ? get(a, previous) : -Infinity;
    let b = previous;
    for (let c = 0; c < n; c++) {
      if (!open[c] || c === a || c === previous) continue;
      const s = get(a, c);
      if (s > best) {
        best = s;
        b = c;
      }
    }
    if (b < 0 || best < threshold) {
      // Nothing is close enough, and merges elsewhere cannot bring anything closer (an average
      // never exceeds its largest part): `a` is final.
      open[a] = 0;
      chain.pop();
      continue;
    }
    if (b !== previous) {
      chain.push(b);
      continue;
    }
    chain.length -= 2;
    const keep = Math.min(a, b);
    const drop = Math.max(a, b);
    const total = size[a]! + size[b]!;
    for (let c = 0; c < n; c++) {
      if (!open[c] || c === a || c === b) continue;
      const merged = (size[keep]! * get(keep, c) + size[drop]! * get(drop, c)) / total;
      if (keep < c) matrix[keep * n + c] = merged;
      else matrix[c * n + keep] = merged;
    }
    size[keep] = total;
    open[drop] = 0;
    root[drop] = keep;
  }
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i]!)));
  return Int32Array.from({ length: n }, (_, i) => find(i));
}

/** The original similarity of i and j in a matrix averageLinkage has worked in (its lower triangle). */
export function originalSimilarity(matrix: Float32Array, n: number, i: number, j: number): number {
  if (i === j) return 1;
  return i > j ? matrix[i * n + j]! : matrix[j * n + i]!;
}

export interface Cluster {
  /** Item indices, most representative first (the medoid: the largest weighted similarity to the other members). */
  members: number[];
  /** Sum of the members' weights. */
  weight: number;
}

/**
 * Clusters texts' vectors at `threshold`: the clusters, heaviest first (ties: the one with the
 * lowest index first), each with its members most representative first.
 */
export function clusterVectors(vectors: readonly TextVector[], threshold: number, weights?: readonly number[]): Cluster[] {
  const n = vectors.length;
  const matrix = similarityMatrix(vectors);
  const labels = averageLinkage(matrix, n, threshold, weights);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const label = labels[i]!;
    const group = groups.get(label);
    if (group) group.push(i);
    else groups.set(label, [i]);
  }
  const weightOf = (i: number) => weights?.[i] ?? 1;
  const clusters = [...groups.values()].map((members): Cluster => {
    // A text asked w times is w members that are alike: its own copies count (w − 1) × 1.
    const score = new Map(members.map((i) => [i, members.reduce((sum, j) => sum + (i === j ? weightOf(i) - 1 : weightOf(j) * originalSimilarity(matrix, n, i, j)), 0)]));
    const ordered = [...members].sort((x, y) => score.get(y)! - score.get(x)! || weightOf(y) - weightOf(x) || x - y);
    return { members: ordered, weight: members.reduce((sum, i) => sum + weightOf(i), 0) };
  });
  return clusters.sort((x, y) => y.weight - x.weight || Math.min(...x.members) - Math.min(...y.members));
}

/**
 * For each of `candidates`, the cluster (index into `clusters`) whose members it is most similar
 * to on average (weighted), if that average reaches `threshold` — the criterion by which average
 * linkage would have let it join — else -1. The clusters' members index `vectors`.
 */
export function nearestClusters(
  vectors: readonly TextVector[],
  clusters: readonly (readonly number[])[],
  candidates: readonly TextVector[],
  threshold: number,
  weights?: readonly number[],
): number[] {
  const best = candidates.map(() => ({ cluster: -1, similarity: threshold }));
  const scratch = new Float64Array(Math.max(vocabularySize(vectors), vocabularySize(candidates)));
  const dimension = vectors[0]?.dense.length ?? 0;
  const centroid = new Float32Array(dimension);
  clusters.forEach((members, c) => {
    // The weighted mean of the members: its dot product with a text is the text's mean similarity to them.
    let total = 0;
    centroid.fill(0);
    for (const i of members) {
      const w = weights?.[i] ?? 1;
      const v = vectors[i]!;
      total += w;
      for (let k = 0; k < v.indices.length; k++) scratch[v.indices[k]!]! += w * v.values[k]!;
      for (let d = 0; d < dimension; d++) centroid[d]! += w * v.dense[d]!;
    }
    for (let d = 0; d < dimension; d++) centroid[d]! /= total;
    candidates.forEach((candidate, j) => {
      let s = 0;
      for (let k = 0; k < candidate.indices.length; k++) s += scratch[candidate.indices[k]!]! * candidate.values[k]!;
      s = s / total + denseDot(centroid, candidate.dense);
      if (s >= best[j]!.similarity && (best[j]!.cluster < 0 || s > best[j]!.similarity)) best[j] = { cluster: c, similarity: s };
    });
    for (const i of members) for (const index of vectors[i]!.indices) scratch[index] = 0;
  });
  return best.map((b) => b.cluster);
}
