/**
 * Fits the small-knowledge-base path's constants (server/modules/agents/engines/embedded/faq-scorer.ts:
 * FAQ_WEIGHTS and FAQ_WEIGHTS_NO_VECTORS) on the FAQ-sized protocol's VALIDATION episodes only
 * (eval/faq.ts: BANKING77 paraphrases carved from train.csv, CLINC150 `val` and `oos_val`; never a
 * test split), and reports them on other validation episodes.
 *
 *   npx tsx eval/fit-faq-scorer.ts [--fit-episodes=25] [--extra-episodes=45] [--check-episodes=10]
 *     [--other-shape-episodes=0] [--write]
 *
 * Fit: validation seeds 101 … 100 + fit-episodes, both datasets, the protocol's shape (15 entries,
 * k = 1, 2, 4), and seeds 201 … 200 + extra-episodes of other shapes (8 / 15 / 30 entries × 1–5
 * questions, one shape per seed in turn). For every question the trained FAQ's per-entry features
 * (ENTRY_FEATURES) and the knowledge base's statistics are collected once; then
 *   1. the ranking weights: a conditional logit (softmax over the episode's entries of
 *      RANK · features), maximum likelihood with a small L2 penalty, on the paraphrases;
 *   2. the confidence weights: a logistic regression of "the top entry is right" on
 *      CONFIDENCE_FEATURES, on the paraphrases (right or wrong) and the unanswerable questions
 *      (wrong by construction), these weighted to UNANSWERABLE_SHARE of the paraphrases' total;
 *   3. the slope above the default threshold (SLOPES), on the paraphrases alone.
 * Every fit episode is trained twice, with titles (eval/faq.ts entryTitle) as its entries' answer
 * texts and without any answer text, so one set of constants serves knowledge bases with and
 * without them (TITLES=on / off fits on one kind only).
 * The same with the word-vector features zeroed gives FAQ_WEIGHTS_NO_VECTORS. Check: seeds 1 … check-episodes
 * (the seeds `npm run eval:agent -- --faq --validation` uses), printed per dataset and k; with
 * --other-shape-episodes=N also seeds 301 … 300 + N of the other shapes (never fitted on).
 * --write replaces the constants between `// fitted:begin` and `// fitted:end` in faq-scorer.ts.
 * Deterministic: the same data and code give the same constants.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expectedCalibrationError } from '../server/modules/agents/engines/embedded/calibration';
import {
  confidenceInputs,
  confidenceOfLogit,
  F,
  FAQ_WEIGHTS,
  type FaqScorerWeights,
  fitLogistic,
  fitRanking,
  G,
  type LogisticSample,
  newtonMinimise,
  PIVOT,
  rankEntries,
  type RankingSample,
  topTwo,
  VECTOR_FEATURES,
  VECTOR_STATS,
} from '../server/modules/agents/engines/embedded/faq-scorer';
import { trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { toEntries } from './datasets';
import { entryTitle, FAQ_INTENTS, FAQ_KS, FAQ_OTHER_INTENT, FAQ_OUT_OF_SCOPE, loadFaqPools, sampleEpisode } from './faq';

/** Total weight of the unanswerable questions in the confidence fit, as a share of the paraphrases'. */
const UNANSWERABLE_SHARE = Number(process.env.UNANSWERABLE_SHARE ?? 0.25);
/** Other shares to report on the check episodes (comma-separated), for choosing UNANSWERABLE_SHARE. */
const TRY_SHARES = (process.env.TRY_SHARES ?? '').split(',').filter(Boolean).map(Number);
/** Which of the confidence's slopes around the pivot are fitted (FaqScorerWeights.slopes): 'off', 'above' or 'both'. */
const SLOPES = process.env.SLOPES ?? 'above';
/** Which knowledge bases the constants are fitted on: with titles as answer texts, without, or 'both' (each fit episode twice). */
const TITLES = process.env.TITLES ?? 'both';
const RANK_L2 = 1;
const CONFIDENCE_L2 = 1;

interface Collected extends RankingSample {
  pool: string;
  k: number;
  /** Entries in the episode's knowledge base. */
  intents: number;
  seed: number;
  /** The episode's knowledge-base statistics (KNOWLEDGE_BASE_STATS). */
  knowledgeBase: readonly number[];
  /** Paraphrase (label ≥ 0) or unanswerable (label −1). */
}

function argOf(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
}

interface Shape {
  intents: number;
  k: number;
}

/** The protocol's episodes: 15 entries, k = 1, 2, 4. */
const PROTOCOL_SHAPES: readonly Shape[] = FAQ_KS.map((k) => ({ intents: FAQ_INTENTS, k }));
/**
 * Other knowledge-base shapes for the fit only, so the constants also hold for the sizes businesses
 * have (issue 12: ten to thirty entries, one to five questions each) and not only for the protocol's;
 * extra seed s gets one shape, in turn.
 */
const EXTRA_SHAPES: readonly Shape[] = [8, 15, 30].flatMap((intents) => [1, 2, 3, 4, 5].map((k) => ({ intents, k })));

function collect(seeds: readonly number[], shapesOf: (seed: number) => readonly Shape[], titles = true): Collected[] {
  const out: Collected[] = [];
  for (const pool of loadFaqPools(true)) {
    const started = performance.now();
    let episodes = 0;
    for (const seed of seeds) {
      for (const { intents, k } of shapesOf(seed)) {
        const episode = sampleEpisode(pool, seed, { intents, k, otherIntent: FAQ_OTHER_INTENT, outOfScope: FAQ_OUT_OF_SCOPE });
        // With titles (eval/faq.ts entryTitle) as the answer texts, or without any.
        const model = trainEmbeddedModel(toEntries(episode.faq, titles ? entryTitle : undefined));
        if (!model.smallKnowledgeBase) throw new Error('the FAQ episode did not take the small-knowledge-base path');
        const index = new Map(model.labels.map((label, i) => [label, i]));
        const knowledgeBase = model.knowledgeBaseStats!;
        const base = { pool: pool.id, k, intents, seed, knowledgeBase };
        for (const { text, label } of episode.paraphrases) out.push({ ...base, features: model.entryFeatures(text)!, label: index.get(label)! });
        for (const { text } of [...episode.otherIntent, ...episode.outOfScope]) out.push({ ...base, features: model.entryFeatures(text)!, label: -1 });
        episodes++;
      }
    }
    console.error(`  collected ${pool.id}, ${episodes} episodes${titles ? '' : ' without titles'} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  return out;
}

function withoutVectors(samples: readonly Collected[]): Collected[] {
  return samples.map((s) => {
    const features = Float64Array.from(s.features);
    for (let c = 0; c < features.length / F; c++) for (const j of VECTOR_FEATURES) features[c * F + j] = 0;
    const knowledgeBase = [...s.knowledgeBase];
    for (const j of VECTOR_STATS) knowledgeBase[j] = 0;
    return { ...s, features, knowledgeBase };
  });
}

/** The top entry's confidence inputs and whether it is right. */
function confidenceSample(s: Collected, rank: readonly number[]): { x: number[]; correct: boolean; top: number } {
  const C = s.features.length / F;
  const scores = new Float64Array(C);
  const p = new Float64Array(C);
  rankEntries(s.features, rank, scores, p);
  const [first, second] = topTwo(scores);
  return { x: confidenceInputs(s.features, scores, p, first, second, s.k, s.knowledgeBase), correct: s.label === first, top: first };
}

interface Weights {
  rank: number[];
  confidence: number[];
  slopes: [number, number];
}

function fit(samples: readonly Collected[], share = UNANSWERABLE_SHARE, given?: number[]): Weights {
  const rank = given ?? fitRanking(samples, RANK_L2);
  const paraphrases = samples.filter((s) => s.label >= 0).length;
  const unanswerable = samples.length - paraphrases;
  const uWeight = unanswerable ? (share * paraphrases) / unanswerable : 0;
  const logistic: LogisticSample[] = samples.map((s) => {
    const { x, correct } = confidenceSample(s, rank);
    return { x, correct, weight: s.label >= 0 ? 1 : uWeight };
  });
  const confidence = fitLogistic(logistic, CONFIDENCE_L2);
  // The slopes around the pivot, on the paraphrases alone (SLOPES: 'above' fits the one above it, 'both' both, 'off' neither).
  const logits = logistic.filter((_, i) => samples[i]!.label >= 0).map((s) => ({ t: s.x.reduce((a, v, j) => a + v * confidence[j]!, 0), correct: s.correct }));
  const slopes: [number, number] = [
    SLOPES === 'both' ? fitSlope(logits.filter((s) => s.t < PIVOT_LOGIT)) : 1,
    SLOPES === 'off' ? 1 : fitSlope(logits.filter((s) => s.t >= PIVOT_LOGIT)),
  ];
  return { rank, confidence, slopes };
}

const PIVOT_LOGIT = Math.log(PIVOT / (1 - PIVOT));

/** Maximum likelihood of s in P(right) = σ(logit(PIVOT) + s · (t − logit(PIVOT))) (Newton, one variable). */
function fitSlope(samples: readonly { t: number; correct: boolean }[]): number {
  const slope = newtonMinimise([1], ([s]) => {
    let value = 0;
    let gradient = 0;
    let hessian = 1e-9;
    for (const { t, correct } of samples) {
      const d = t - PIVOT_LOGIT;
      const z = PIVOT_LOGIT + s! * d;
      const m = correct ? -z : z;
      value += m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m));
      const p = 1 / (1 + Math.exp(-z));
      gradient += (p - (correct ? 1 : 0)) * d;
      hessian += p * (1 - p) * d * d;
    }
    return { value, gradient: [gradient], hessian: [[hessian]] };
  });
  return slope[0]!;
}

function report(samples: readonly Collected[], weights: FaqScorerWeights, title: string): void {
  console.log(`\n${title}`);
  console.log('| setting | top-1 | ECE | answered @0.8 | error @0.8 | handed off @0.8 | answered @0.7 | error @0.7 | handed off @0.7 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const keyOf = (s: Collected) => `${s.pool} ${s.k}${s.intents === FAQ_INTENTS ? '' : ` (${s.intents} entries)`}`;
  const keys = [...new Set(samples.map(keyOf))].sort();
  const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '–');
  for (const key of keys) {
    const group = samples.filter((s) => keyOf(s) === key);
    const seeds = [...new Set(group.map((s) => s.seed))];
    const perSeed = seeds.map((seed) => {
      const mine = group.filter((s) => s.seed === seed);
      const conf: number[] = [];
      const right: boolean[] = [];
      const unanswerable: number[] = [];
      for (const s of mine) {
        const { x, correct } = confidenceSample(s, weights.rank);
        let t = 0;
        for (let j = 0; j < G; j++) t += weights.confidence[j]! * x[j]!;
        const c = confidenceOfLogit(t, weights.slopes);
        if (s.label >= 0) {
          conf.push(c);
          right.push(correct);
        } else unanswerable.push(c);
      }
      const at = (th: number) => {
        const answered = conf.filter((c) => c >= th).length;
        const wrong = conf.filter((c, i) => c >= th && !right[i]).length;
        return { answered: answered / conf.length, answeredN: answered, wrong, handed: unanswerable.filter((c) => c < th).length / unanswerable.length };
      };
      return { top1: right.filter(Boolean).length / right.length, ece: expectedCalibrationError(conf, right, 15), a8: at(0.8), a7: at(0.7) };
    });
    const mean = (f: (x: (typeof perSeed)[number]) => number) => perSeed.reduce((a, x) => a + f(x), 0) / perSeed.length;
    const pooled = (f: (x: (typeof perSeed)[number]) => { answeredN: number; wrong: number }) => {
      const n = perSeed.reduce((a, x) => a + f(x).answeredN, 0);
      return n ? perSeed.reduce((a, x) => a + f(x).wrong, 0) / n : Number.NaN;
    };
    console.log(
      `| ${key} | ${pct(mean((x) => x.top1))} | ${pct(mean((x) => x.ece))} | ${pct(mean((x) => x.a8.answered))} | ${pct(pooled((x) => x.a8))} | ${pct(mean((x) => x.a8.handed))} | ${pct(mean((x) => x.a7.answered))} | ${pct(pooled((x) => x.a7))} | ${pct(mean((x) => x.a7.handed))} |`,
    );
  }
}

const round = (w: readonly number[]) => `[${w.map((v) => Number(v.toPrecision(5))).join(', ')}]`;

function main(): void {
  const fitEpisodes = argOf('fit-episodes', 25);
  const fitSeeds = Array.from({ length: fitEpisodes }, (_, i) => 101 + i);
  const checkEpisodes = argOf('check-episodes', 10);
  console.error(`Collecting features: fit seeds 101–${100 + fitEpisodes}, check seeds 1–${checkEpisodes} (validation episodes)…`);
  const extraEpisodes = argOf('extra-episodes', 45);
  const extraSeeds = Array.from({ length: extraEpisodes }, (_, i) => 201 + i);
  const extraShape = (seed: number) => [EXTRA_SHAPES[seed % EXTRA_SHAPES.length]!];
  // The same knowledge bases with the entries' titles as answer texts and without any answer text,
  // each trained as such (with answers, the softmax and the vocabulary learn from them too).
  const fitSetOf = (titles: boolean) => [...collect(fitSeeds, () => PROTOCOL_SHAPES, titles), ...collect(extraSeeds, extraShape, titles)];
  const fitSet = TITLES === 'off' ? [] : fitSetOf(true);
  const fitSetWithout = TITLES === 'on' ? [] : fitSetOf(false);
  const checkSeeds = Array.from({ length: checkEpisodes }, (_, i) => 1 + i);
  const checkSet = checkEpisodes > 0 ? collect(checkSeeds, () => PROTOCOL_SHAPES) : [];
  const checkSetWithout = checkEpisodes > 0 ? collect(checkSeeds, () => PROTOCOL_SHAPES, false) : [];
  // Other shapes on other seeds (never fitted on): does the confidence hold for them too?
  const otherShapes = argOf('other-shape-episodes', 0);
  const otherSet = otherShapes > 0 ? collect(Array.from({ length: otherShapes }, (_, i) => 301 + i), extraShape) : [];
  // Knowledge bases with and without answer texts, one set of constants for both.
  const bothSet = [...fitSet, ...fitSetWithout];
  const withVectors = fit(bothSet);
  const noVectors = fit(withoutVectors(bothSet));
  console.log(`rank (with vectors): ${round(withVectors.rank)}; confidence: ${round(withVectors.confidence)}; slopes: ${round(withVectors.slopes)}`);
  console.log(`rank (no vectors): ${round(noVectors.rank)}; confidence: ${round(noVectors.confidence)}; slopes: ${round(noVectors.slopes)}`);
  if (checkSet.length) {
    report(checkSet, FAQ_WEIGHTS, 'Check episodes with titles, the constants in the code now');
    report(checkSetWithout, FAQ_WEIGHTS, 'Check episodes without titles, the constants in the code now');
    report(checkSet, withVectors, `Check episodes with titles, the new fit (unanswerable share ${UNANSWERABLE_SHARE})`);
    report(checkSetWithout, withVectors, `Check episodes without titles, the new fit (unanswerable share ${UNANSWERABLE_SHARE})`);
    for (const share of TRY_SHARES) report(checkSet, fit(bothSet, share, withVectors.rank), `Check episodes with titles, unanswerable share ${share}`);
    report(withoutVectors(checkSet), noVectors, 'Check episodes with titles, the new fit without word vectors');
    report(withoutVectors(checkSetWithout), noVectors, 'Check episodes without titles, the new fit without word vectors');
  }
  if (otherSet.length) {
    report(otherSet, FAQ_WEIGHTS, 'Episodes of other shapes (seeds 301–), the constants in the code now');
    report(otherSet, withVectors, 'Episodes of other shapes (seeds 301–), the new fit');
  }
  if (process.argv.includes('--write')) {
    const file = path.resolve(import.meta.dirname, '../server/modules/agents/engines/embedded/faq-scorer.ts');
    const source = fs.readFileSync(file, 'utf8');
    const block = [
      '// fitted:begin',
      'export const FAQ_WEIGHTS: FaqScorerWeights = {',
      `  rank: ${round(withVectors.rank)},`,
      `  confidence: ${round(withVectors.confidence)},`,
      `  slopes: ${round(withVectors.slopes)},`,
      '};',
      '/** The same fit with the word-vector features zeroed (no vectors in this process). */',
      'export const FAQ_WEIGHTS_NO_VECTORS: FaqScorerWeights = {',
      `  rank: ${round(noVectors.rank)},`,
      `  confidence: ${round(noVectors.confidence)},`,
      `  slopes: ${round(noVectors.slopes)},`,
      '};',
      '// fitted:end',
    ].join('\n');
    const next = source.replace(/\/\/ fitted:begin[\s\S]*?\/\/ fitted:end/u, block);
    fs.writeFileSync(file, next);
    console.log(`\nWrote the constants to ${path.relative(process.cwd(), file)}.`);
  }
}

main();
