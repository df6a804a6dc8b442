/**
 * `npx tsx eval/topic-clusters.ts`: how well the AI Summary's clustering of unanswered questions
 * (server/modules/insights/topic-clusters.ts over the agents module's EmbeddedTextFeatures) puts
 * the questions of one intent together, on BANKING77 and CLINC150 (docs/insights.md, "Topics of
 * unanswered questions").
 *
 *   npx tsx eval/topic-clusters.ts               validation episodes: sweeps the word vectors' share and the threshold (for tuning)
 *   npx tsx eval/topic-clusters.ts --test        test episodes, once, with the tuned constants (TOPIC_SIMILARITY)
 *   npx tsx eval/topic-clusters.ts --timing      CPU time of the whole step (features, clustering, the period before) at the caps
 *   --episodes=N                                 episodes per dataset and size (default 10)
 *
 * An episode stands for one business's unanswered questions in a period: a few themes of skewed
 * sizes (intents drawn with the episode's seed, 2 to 20 questions each), plus one-off questions
 * (single questions of other intents and CLINC150 out-of-scope questions, each its own label), in
 * a shuffled order. Four sizes: tiny (5 themed questions + 2 one-offs), small (14 + 4), medium
 * (91 + 15) and large (232 + 50). Validation never touches a test split: BANKING77's questions are 20 per intent
 * carved from train.csv (seed 7, as the FAQ protocol's), CLINC150's come from `val`, the
 * out-of-scope ones from `oos_val`; test episodes use test.csv, `test` and `oos_test`.
 *
 * Metrics per episode, then the mean over episodes: adjusted Rand index (ARI) of the clusters
 * against the intents (one-offs are their own intents); purity — of the questions in clusters of
 * two or more (topics), the share whose cluster's most common intent is theirs; themes found — of
 * the themes of 3 or more questions, the share whose questions mostly (at least half) land in one
 * topic whose most common intent is that theme; and the share of one-offs left out of every topic.
 */
import { EmbeddedTextFeatures, TOPIC_SIMILARITY } from '../server/modules/agents/engines/embedded/text-embedding';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';
import { averageLinkage, similarityMatrix } from '../server/modules/insights/topic-clusters';
import { unmatchedTopics, type UnmatchedQuestion } from '../server/modules/insights/unmatched-topics';
import { carvePerLabel, type Example, loadBanking77, loadClinc150 } from './datasets';

const SIZES = {
  tiny: { themes: [3, 2], others: 1, outOfScope: 1 },
  small: { themes: [5, 4, 3, 2], others: 2, outOfScope: 2 },
  medium: { themes: [20, 16, 12, 10, 8, 6, 5, 4, 3, 3, 2, 2], others: 8, outOfScope: 7 },
  large: { themes: [20, 20, 18, 16, 15, 14, 12, 12, 10, 10, 9, 8, 8, 7, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2], others: 30, outOfScope: 20 },
} as const;
type Size = keyof typeof SIZES;
const BANKING_VALIDATION_PER_INTENT = 20;
const BANKING_VALIDATION_SEED = 7;
const SHARES = [0, 0.2, 0.25, 0.3, 0.35, 0.4];
const THRESHOLDS = Array.from({ length: 36 }, (_, i) => Math.round((0.06 + 0.01 * i) * 100) / 100);

interface Pool {
  name: string;
  labelled: readonly Example[];
  outOfScope: readonly Example[];
}

interface Item {
  text: string;
  label: string;
  /** A one-off question (not a theme). */
  single: boolean;
}

function byLabel(examples: readonly Example[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { text, label } of examples) {
    const list = map.get(label);
    if (list) list.push(text);
    else map.set(label, [text]);
  }
  return map;
}

function episode(pool: Pool, size: Size, seed: number): Item[] {
  const random = createRandom(seed);
  const spec = SIZES[size];
  const texts = byLabel(pool.labelled);
  const labels = shuffle([...texts.keys()].sort(), random);
  const items: Item[] = [];
  spec.themes.forEach((n, i) => {
    const label = labels[i]!;
    for (const text of shuffle([...texts.get(label)!], random).slice(0, n)) items.push({ text, label, single: false });
  });
  for (let i = 0; i < spec.others; i++) {
    const label = labels[spec.themes.length + i]!;
    items.push({ text: shuffle([...texts.get(label)!], random)[0]!, label, single: true });
  }
  shuffle([...pool.outOfScope], random)
    .slice(0, spec.outOfScope)
    .forEach((e, i) => items.push({ text: e.text, label: `out-of-scope ${i}`, single: true }));
  return shuffle(items, random);
}

function adjustedRandIndex(truth: readonly string[], predicted: ArrayLike<number>): number {
  const pairs = (x: number) => (x * (x - 1)) / 2;
  const cells = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<number, number>();
  for (let i = 0; i < truth.length; i++) {
    const key = `${truth[i]}\u0000${predicted[i]}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
    rows.set(truth[i]!, (rows.get(truth[i]!) ?? 0) + 1);
    columns.set(predicted[i]!, (columns.get(predicted[i]!) ?? 0) + 1);
  }
  let index = 0;
  for (const v of cells.values()) index += pairs(v);
  let a = 0;
  for (const v of rows.values()) a += pairs(v);
  let b = 0;
  for (const v of columns.values()) b += pairs(v);
  const expected = (a * b) / pairs(truth.length);
  const max = (a + b) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

interface Score {
  ari: number;
  purity: number;
  themesFound: number;
  singlesLeftOut: number;
  topics: number;
}

function score(items: readonly Item[], labels: ArrayLike<number>): Score {
  const clusters = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const list = clusters.get(labels[i]!);
    if (list) list.push(i);
    else clusters.set(labels[i]!, [i]);
  }
  const majority = new Map<number, string>();
  let inTopics = 0;
  let pure = 0;
  for (const [id, members] of clusters) {
    const counts = new Map<string, number>();
    for (const i of members) counts.set(items[i]!.label, (counts.get(items[i]!.label) ?? 0) + 1);
    const [label, count] = [...counts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]!;
    majority.set(id, label);
    if (members.length >= 2) {
      inTopics += members.length;
      pure += count;
    }
  }
  const themes = byLabel(items.filter((item) => !item.single).map(({ text, label }) => ({ text, label })));
  let big = 0;
  let found = 0;
  for (const [label] of themes) {
    const members = items.flatMap((item, i) => (item.label === label ? [i] : []));
    if (members.length < 3) continue;
    big++;
    const where = new Map<number, number>();
    for (const i of members) where.set(labels[i]!, (where.get(labels[i]!) ?? 0) + 1);
    const [cluster, count] = [...where].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]!;
    if (count * 2 >= members.length && clusters.get(cluster)!.length >= 2 && majority.get(cluster) === label) found++;
  }
  const singles = items.flatMap((item, i) => (item.single ? [i] : []));
  return {
    ari: adjustedRandIndex(
      items.map((item) => item.label),
      labels,
    ),
    purity: inTopics ? pure / inTopics : 1,
    themesFound: big ? found / big : 1,
    singlesLeftOut: singles.length ? singles.filter((i) => clusters.get(labels[i]!)!.length === 1).length / singles.length : 1,
    topics: [...clusters.values()].filter((m) => m.length >= 2).length,
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (x: number) => `${(x * 100).toFixed(1)}`;

function meanScore(scores: readonly Score[]): Score {
  return {
    ari: mean(scores.map((s) => s.ari)),
    purity: mean(scores.map((s) => s.purity)),
    themesFound: mean(scores.map((s) => s.themesFound)),
    singlesLeftOut: mean(scores.map((s) => s.singlesLeftOut)),
    topics: mean(scores.map((s) => s.topics)),
  };
}

function loadPools(test: boolean): Pool[] {
  const banking = loadBanking77();
  const clinc = loadClinc150();
  if (test) {
    return [
      { name: 'BANKING77 (test.csv)', labelled: banking.test, outOfScope: clinc.oosTest },
      { name: 'CLINC150 (test)', labelled: clinc.test, outOfScope: clinc.oosTest },
    ];
  }
  return [
    { name: 'BANKING77 (20 per intent carved from train.csv)', labelled: carvePerLabel(banking.train, BANKING_VALIDATION_PER_INTENT, BANKING_VALIDATION_SEED)[1], outOfScope: clinc.oosVal },
    { name: 'CLINC150 (val)', labelled: clinc.val, outOfScope: clinc.oosVal },
  ];
}

/** Every setting's clusters of every episode: features once per share, the similarity matrix once per episode. */
function sweep(pools: readonly Pool[], episodes: number): void {
  const results = new Map<string, Score[]>();
  const perCell = new Map<string, Score[]>();
  for (const share of SHARES) {
    const features = new EmbeddedTextFeatures({ vectorsShare: share });
    for (const pool of pools) {
      for (const size of Object.keys(SIZES) as Size[]) {
        for (let seed = 1; seed <= episodes; seed++) {
          const items = episode(pool, size, seed);
          const matrix = similarityMatrix(features.embed(items.map((i) => i.text)).vectors);
          for (const threshold of THRESHOLDS) {
            const s = score(items, averageLinkage(matrix.slice(), items.length, threshold));
            const key = `${share}|${threshold}`;
            results.set(key, [...(results.get(key) ?? []), s]);
            const cell = `${key}|${pool.name}|${size}`;
            perCell.set(cell, [...(perCell.get(cell) ?? []), s]);
          }
        }
      }
    }
  }
  console.log(`Validation sweep, ${episodes} episodes per dataset and size; mean ARI over all (best threshold per share in bold)`);
  console.log(`| word vectors' share | ${THRESHOLDS.join(' | ')} |`);
  console.log(`|---|${THRESHOLDS.map(() => '---').join('|')}|`);
  let best = { share: 0, threshold: 0, ari: -1 };
  for (const share of SHARES) {
    const aris = THRESHOLDS.map((t) => meanScore(results.get(`${share}|${t}`)!).ari);
    const top = Math.max(...aris);
    const bestHere = THRESHOLDS[aris.indexOf(top)]!;
    if (top > best.ari) best = { share, threshold: bestHere, ari: top };
    console.log(`| ${share} | ${aris.map((a) => (a === top ? `**${a.toFixed(3)}**` : a.toFixed(3))).join(' | ')} |`);
  }
  console.log(`\nBest: share ${best.share}, threshold ${best.threshold}, ARI ${best.ari.toFixed(3)}`);
  for (const share of SHARES) {
    const aris = THRESHOLDS.map((t) => meanScore(results.get(`${share}|${t}`)!).ari);
    const threshold = THRESHOLDS[aris.indexOf(Math.max(...aris))]!;
    console.log(`\nshare ${share}, threshold ${threshold}, per dataset and size:`);
    table(pools, (pool, size) => perCell.get(`${share}|${threshold}|${pool.name}|${size}`)!);
  }
}

function table(pools: readonly Pool[], scores: (pool: Pool, size: Size) => Score[]): void {
  console.log('| episodes | questions | ARI | purity (%) | themes found (%) | one-offs left out (%) | topics |');
  console.log('|---|---|---|---|---|---|---|');
  for (const pool of pools) {
    for (const size of Object.keys(SIZES) as Size[]) {
      const s = meanScore(scores(pool, size));
      const spec = SIZES[size];
      const n = spec.themes.reduce((a, b) => a + b, 0) + spec.others + spec.outOfScope;
      console.log(`| ${pool.name}, ${size} | ${n} | ${s.ari.toFixed(3)} | ${pct(s.purity)} | ${pct(s.themesFound)} | ${pct(s.singlesLeftOut)} | ${s.topics.toFixed(1)} |`);
    }
  }
}

function testRun(pools: readonly Pool[], episodes: number): void {
  for (const [name, features] of [
    [`with word vectors (share ${TOPIC_SIMILARITY.vectorsShare}, threshold ${TOPIC_SIMILARITY.sameTopic})`, new EmbeddedTextFeatures()],
    [`without word vectors (threshold ${TOPIC_SIMILARITY.sameTopicWithoutVectors})`, new EmbeddedTextFeatures({ wordVectors: () => null })],
  ] as const) {
    console.log(`\nTest episodes, ${episodes} per dataset and size, ${name}:`);
    table(pools, (pool, size) =>
      Array.from({ length: episodes }, (_, e) => {
        const items = episode(pool, size, e + 1);
        const { vectors, sameTopic } = features.embed(items.map((i) => i.text));
        return score(items, averageLinkage(similarityMatrix(vectors), items.length, sameTopic));
      }),
    );
  }
}

/** CPU time of unmatchedTopics for `perPeriod` questions in each period (BANKING77 training questions, one client). */
function timing(): void {
  const { train } = loadBanking77();
  const random = createRandom(3);
  const texts = shuffle(
    train.map((e) => e.text),
    random,
  );
  const features = new EmbeddedTextFeatures();
  const questionsOf = (perPeriod: number, offset: number): UnmatchedQuestion[] =>
    texts.slice(offset, offset + 2 * perPeriod).map((text, i) => ({ replyId: String(i), clientId: 'c', current: i < perPeriod, text, confidence: 0.2, decision: 'handoff' }));
  // Warm up the word vectors and the JIT.
  unmatchedTopics(questionsOf(500, 0), features);
  for (const perPeriod of [100, 250, 500, 1000, 2000]) {
    const runs = [0, 1, 2].map((run) => {
      const questions = questionsOf(perPeriod, (run * 1500) % (texts.length - 2 * perPeriod));
      const before = process.cpuUsage();
      const started = performance.now();
      const { topics } = unmatchedTopics(questions, features);
      const cpu = process.cpuUsage(before);
      return { cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - started, topics: topics.length };
    });
    const median = [...runs].sort((a, b) => a.cpu - b.cpu)[1]!;
    console.log(`${perPeriod} questions per period: median of 3 ${median.cpu.toFixed(0)} ms CPU (${median.wall.toFixed(0)} ms wall), ${median.topics} topics`);
  }
}

const args = process.argv.slice(2);
const episodes = Number(args.find((a) => a.startsWith('--episodes='))?.slice(11) ?? 10);
const started = performance.now();
if (args.includes('--timing')) timing();
else if (args.includes('--test')) testRun(loadPools(true), episodes);
else sweep(loadPools(false), episodes);
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
