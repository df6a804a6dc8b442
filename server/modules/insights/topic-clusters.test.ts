/**
 * The clustering of unanswered questions on its own (docs/insights.md, "Topics of unanswered
 * questions"): the similarity matrix, average linkage with its stopping threshold and weights, the
 * period before's questions joining a topic, and the topics per client — with hand-made vectors,
 * and with the AI agent's real text features on questions written for it.
 */
import { describe, expect, it } from 'vitest';
import { EmbeddedTextFeatures } from '../agents';
import { averageLinkage, clusterVectors, nearestClusters, similarityMatrix, type TextFeatures, type TextVector } from './topic-clusters';
import { MISSING_MIN_QUESTIONS, MIN_TOPIC_QUESTIONS, type UnmatchedQuestion, UnmatchedTopicFinder, unmatchedTopics } from './unmatched-topics';

/** A vector with sparse weights `{ index: weight }` and a dense part. */
function vector(sparse: Record<number, number>, dense: number[] = []): TextVector {
  const entries = Object.entries(sparse);
  return {
    indices: Int32Array.from(entries.map(([i]) => Number(i))),
    values: Float32Array.from(entries.map(([, w]) => w)),
    dense: Float32Array.from(dense),
  };
}

/** A symmetric similarity matrix from its upper triangle, row by row. */
function matrixOf(n: number, upper: number[][]): Float32Array {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    m[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) m[i * n + j] = m[j * n + i] = upper[i]![j - i - 1]!;
  }
  return m;
}

/** Groups as sorted lists of members, from averageLinkage's labels. */
function groupsOf(labels: Int32Array): number[][] {
  const groups = new Map<number, number[]>();
  labels.forEach((label, i) => groups.set(label, [...(groups.get(label) ?? []), i]));
  return [...groups.values()].sort((a, b) => a[0]! - b[0]!);
}

/**
 * Features for the unit tests: a text's topic is the first of `TOPICS` it names (a one-hot vector),
 * any other text a direction of its own; one call's vectors compare as the real ones do.
 */
const TOPICS = ['park', 'gift', 'bike'];
function keywordFeatures(calls: string[][] = []): TextFeatures {
  return {
    embed(texts) {
      calls.push([...texts]);
      const vectors = texts.map((text, i) => {
        const topic = TOPICS.findIndex((t) => text.toLowerCase().includes(t));
        return vector({ [topic >= 0 ? topic : TOPICS.length + i]: 1 });
      });
      return { vectors, sameTopic: 0.5 };
    },
  };
}

describe('similarityMatrix', () => {
  it('is the dot product of every two vectors, sparse and dense parts together', () => {
    const vectors = [vector({ 0: 0.6, 3: 0.8 }, [1, 0]), vector({ 3: 0.5, 1: 0.5 }, [0.5, 0.5]), vector({ 2: 1 }, [0, 1]), vector({}, [])];
    const m = similarityMatrix(vectors);
    const n = vectors.length;
    const dot = (a: TextVector, b: TextVector) => {
      let s = 0;
      a.indices.forEach((i, k) => b.indices.forEach((j, l) => (s += i === j ? a.values[k]! * b.values[l]! : 0)));
      for (let d = 0; d < Math.min(a.dense.length, b.dense.length); d++) s += a.dense[d]! * b.dense[d]!;
      return s;
    };
    for (let i = 0; i < n; i++) {
      expect(m[i * n + i]).toBe(1);
      for (let j = 0; j < n; j++) if (i !== j) expect(m[i * n + j]).toBeCloseTo(dot(vectors[i]!, vectors[j]!), 6);
    }
    expect(m[0 * n + 1]).toBeCloseTo(0.8 * 0.5 + 0.5, 6);
  });
});

describe('averageLinkage', () => {
  // 0, 1, 2 are alike; 3 and 4 a pair; 5 is close to 0 alone.
  const upper = [
    [0.9, 0.8, 0.1, 0.1, 0.7],
    [0.85, 0.1, 0.1, 0.1],
    [0.1, 0.1, 0.1],
    [0.7, 0.1],
    [0.1],
  ];

  it('merges groups while their members are alike on average, and stops at the threshold', () => {
    // 5 is like 0 (0.7) but not like 1 and 2 (0.1): its mean similarity to {0, 1, 2} is 0.3.
    expect(groupsOf(averageLinkage(matrixOf(6, upper), 6, 0.5))).toEqual([[0, 1, 2], [3, 4], [5]]);
    expect(groupsOf(averageLinkage(matrixOf(6, upper), 6, 0.75))).toEqual([[0, 1, 2], [3], [4], [5]]);
    expect(groupsOf(averageLinkage(matrixOf(6, upper), 6, 0.95))).toEqual([[0], [1], [2], [3], [4], [5]]);
    expect(groupsOf(averageLinkage(matrixOf(6, upper), 6, 0.05))).toEqual([[0, 1, 2, 3, 4, 5]]);
  });

  it('weighs each item by how many times it was asked', () => {
    // 2 is like 0 (0.9) and not like 1 (0.2); 0 and 1 are fairly alike (0.6). {0, 2} forms first;
    // 1's mean similarity to it is (0.6 + 0.2) / 2 = 0.4 — or (10 × 0.6 + 0.2) / 11 = 0.56 when 0 was asked ten times.
    const pairs = [[0.6, 0.9], [0.2]];
    expect(groupsOf(averageLinkage(matrixOf(3, pairs), 3, 0.5))).toEqual([[0, 2], [1]]);
    expect(groupsOf(averageLinkage(matrixOf(3, pairs), 3, 0.5, [10, 1, 1]))).toEqual([[0, 1, 2]]);
  });

  it('keeps the original similarities in the lower triangle', () => {
    const m = matrixOf(6, upper);
    averageLinkage(m, 6, 0.5);
    expect(m[5 * 6 + 0]).toBeCloseTo(0.7, 6);
    expect(m[2 * 6 + 1]).toBeCloseTo(0.85, 6);
  });
});

describe('clusterVectors and nearestClusters', () => {
  it('finds the same groups whatever the order, heaviest first, most representative member first', () => {
    const vectors = [vector({ 0: 1 }), vector({ 1: 1 }), vector({ 0: 0.8, 2: 0.6 }), vector({ 0: 0.6, 2: 0.8 }), vector({ 1: 1 }), vector({ 5: 1 })];
    const clusters = clusterVectors(vectors, 0.5);
    // 2 is the most like the others of its group (0.8 + 0.96), then 3 (0.6 + 0.96), then 0 (0.8 + 0.6).
    expect(clusters.map((c) => c.members)).toEqual([[2, 3, 0], [1, 4], [5]]);
    expect(clusters.map((c) => c.weight)).toEqual([3, 2, 1]);
    const reversed = clusterVectors([...vectors].reverse(), 0.5);
    expect(reversed.map((c) => c.members.map((m) => 5 - m).sort())).toEqual([
      [0, 2, 3],
      [1, 4],
      [5],
    ]);
  });

  it('lets a text join the cluster it is most like on average, from the threshold', () => {
    const vectors = [vector({ 0: 1 }), vector({ 0: 0.6, 2: 0.8 }), vector({ 1: 1 })];
    const candidates = [vector({ 0: 1 }), vector({ 2: 1 }), vector({ 1: 0.8, 0: 0.6 }), vector({ 3: 1 })];
    // Mean similarities to {0, 1}: 0.8, 0.4, 0.48; to {2}: 0, 0, 0.8; the last one is like nothing.
    expect(nearestClusters(vectors, [[0, 1], [2]], candidates, 0.5)).toEqual([0, -1, 1, -1]);
  });
});

describe('unmatchedTopics', () => {
  const q = (clientId: string, current: boolean, text: string, decision = 'handoff', confidence: number | null = 0.2): UnmatchedQuestion => ({
    replyId: `${clientId}-${current ? 'now' : 'before'}-${text}-${Math.random()}`,
    clientId,
    current,
    text,
    confidence,
    decision,
  });

  it('makes a topic of each group of at least two questions, per client, with the period before counted where it would have joined', () => {
    const questions = [
      q('a', true, 'Parking?'),
      q('a', true, 'parking ', 'fallback', 0.1),
      q('a', true, 'Where do I park?', 'answer', 0.45),
      q('a', true, 'Gift cards?'),
      q('a', true, 'Do you sell gift vouchers'),
      q('a', true, 'Bike rental?'),
      q('a', true, 'What is the wifi password?'),
      q('b', true, 'Park for vans?'),
      q('a', false, 'Is there a car park'),
      q('a', false, 'parking?'),
      q('a', false, 'Bikes for hire?'),
      q('a', false, 'How do I cancel?'),
    ];
    const { topics, leftover } = unmatchedTopics(questions, keywordFeatures());
    expect(topics.map((t) => ({ client: t.clientId, count: t.count, previous: t.previous, texts: t.texts }))).toEqual([
      // "Parking?" and "parking " are one wording, asked twice.
      { client: 'a', count: 3, previous: 2, texts: ['Parking?', 'Where do I park?'] },
      { client: 'a', count: 2, previous: 0, texts: ['Gift cards?', 'Do you sell gift vouchers'] },
    ]);
    expect(topics[0]).toMatchObject({ answered: 1, handedOff: 1, confidenceCount: 3 });
    expect(topics[0]!.confidenceSum).toBeCloseTo(0.75, 6);
    // A single question is no topic, whoever asked it; the other client's never joins this client's.
    expect(leftover).toEqual(['Bike rental?', 'What is the wifi password?', 'Park for vans?']);
    expect(MIN_TOPIC_QUESTIONS).toBe(2);
    expect(MISSING_MIN_QUESTIONS).toBe(3);
  });

  it('keeps each client’s topics for the same questions, and recomputes when they change', () => {
    const calls: string[][] = [];
    const finder = new UnmatchedTopicFinder(keywordFeatures(calls));
    const questions = [q('a', true, 'Parking?'), q('a', true, 'Where do I park?'), q('b', true, 'Gift cards?'), q('b', true, 'gift vouchers')];
    const first = finder.find(questions);
    expect(finder.find([...questions])).toEqual(first);
    expect(calls).toHaveLength(2);
    finder.find([...questions, q('b', true, 'More gift cards')]);
    // Client a's questions did not change: only b's are grouped again.
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual(['Gift cards?', 'gift vouchers', 'More gift cards']);
  });

  it('groups differently worded questions by the AI agent’s text features', () => {
    const parking = ['Where can I park my car?', 'Is there parking for cars near the shop?', 'Do you have a car park?', 'Can I park my car outside the shop?', 'Where do customers park their cars?'];
    const giftCards = ['Do you sell gift cards?', 'Can I buy a gift card online?', 'I would like to buy a gift card for a friend', 'Do gift cards expire?'];
    const others = ['What is the wifi password?', 'How late are you open on Sundays?'];
    const texts = [...parking, ...giftCards, ...others];
    for (const features of [new EmbeddedTextFeatures(), new EmbeddedTextFeatures({ wordVectors: () => null })]) {
      const { vectors, sameTopic } = features.embed(texts);
      const clusters = clusterVectors(vectors, sameTopic).map((c) => c.members.map((m) => texts[m]!).sort());
      expect(clusters).toEqual([[...parking].sort(), [...giftCards].sort(), [others[0]], [others[1]]]);
    }
  });
});
