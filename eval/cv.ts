/**
 * Stratified k-fold cross-validation of the embedded engine's one-vs-rest SVMs over a training set
 * (BANKING77's train.csv, or CLINC150's `train`), for tuning without touching any test set. Every
 * training question is predicted once by a model trained on the other folds. Bare classifiers:
 * no calibration (it changes no prediction), so several times faster than the whole pipeline.
 *
 *   npx tsx eval/cv.ts                                  the default options
 *   npx tsx eval/cv.ts '{"svm":{"spelling":null}}' …   one line per set of training-option overrides (JSON)
 *   npx tsx eval/cv.ts '{"svm":{"wordVectors":null}}'   without the word-vector features (version 3)
 *   DATASET=clinc FOLDS=5 FOLD_SEED=7 npx tsx eval/cv.ts …
 *
 * Prints accuracy and balanced accuracy (the mean of the per-entry accuracies: BANKING77's training
 * set has 35–187 questions per intent, its test set 40 each).
 */
import { type EmbeddedTrainOverrides, resolveTrainOptions } from '../server/modules/agents/engines/embedded/model';
import { linearScores } from '../server/modules/agents/engines/embedded/linear';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';
import { trainSvm } from '../server/modules/agents/engines/embedded/svm';
import { extractFeatures, SpellingCorrector } from '../server/modules/agents/engines/embedded/text';
import { type SparseVector, Vectorizer } from '../server/modules/agents/engines/embedded/vectorizer';
import { DenseFeaturizer, defaultWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { loadBanking77, loadClinc150, toEntries } from './datasets';

const FOLDS = Number(process.env.FOLDS ?? 5);
const FOLD_SEED = Number(process.env.FOLD_SEED ?? 7);
const train = process.env.DATASET === 'clinc' ? loadClinc150().train : loadBanking77().train;
const entries = toEntries(train);
const items = entries.flatMap((e, label) => e.questions.map((text) => ({ text, label })));
const classes = entries.length;

// Each entry's questions dealt round the folds in a seeded order, continuing where the previous entry stopped.
const fold = new Int32Array(items.length);
{
  const random = createRandom(FOLD_SEED);
  const byClass: number[][] = Array.from({ length: classes }, () => []);
  items.forEach((item, i) => byClass[item.label]!.push(i));
  let next = 0;
  for (const members of byClass) {
    for (const i of shuffle(members, random)) {
      fold[i] = next;
      next = (next + 1) % FOLDS;
    }
  }
}

function crossValidate(overrides: EmbeddedTrainOverrides): { accuracy: number; balanced: number; seconds: number } {
  const options = resolveTrainOptions(overrides);
  const { wordNgrams, charNgrams, minDf, charWeight } = options.features;
  const { wordBoundaries, spelling, idfPower, cost, epochs, wordVectors } = options.svm;
  const vectors = wordVectors ? defaultWordVectors() : null;
  if (wordVectors && !vectors) throw new Error('word vectors not available');
  const vectorizerOptions = { wordNgrams, charNgrams, wordBoundaries, minDf, charWeight, idfPower };
  const started = performance.now();
  const hits = new Float64Array(classes);
  const sizes = new Float64Array(classes);
  for (const item of items) sizes[item.label]!++;
  for (let f = 0; f < FOLDS; f++) {
    const trainIdx = items.flatMap((_, i) => (fold[i] !== f ? [i] : []));
    // As in the engine: the spelling corrector is learned from the training questions only.
    const corrector = spelling ? SpellingCorrector.fit(trainIdx.map((i) => items[i]!.text), spelling) : null;
    const features = items.map((item) => extractFeatures(item.text, vectorizerOptions, corrector));
    const vectorizer = Vectorizer.fitCounts(
      trainIdx.map((i) => features[i]!),
      vectorizerOptions,
    );
    // As in the engine: the dense features' idf and mean word vector come from the training questions only.
    const dense = vectors && wordVectors ? DenseFeaturizer.fit(vectors, trainIdx.map((i) => items[i]!.text), wordVectors.weight) : null;
    const vector = (i: number): SparseVector => {
      const x = vectorizer.transformCounts(features[i]!);
      if (!dense) return x;
      const d = dense.transform(items[i]!.text);
      const indices = new Int32Array(x.indices.length + d.length);
      const values = new Float32Array(indices.length);
      indices.set(x.indices);
      values.set(x.values);
      for (let k = 0; k < d.length; k++) {
        indices[x.indices.length + k] = vectorizer.dimension + k;
        values[x.indices.length + k] = d[k]!;
      }
      return { indices, values };
    };
    const xs = trainIdx.map(vector);
    const ys = Int32Array.from(trainIdx, (i) => items[i]!.label);
    const perClass = new Float64Array(classes);
    for (const y of ys) perClass[y]!++;
    const weights = Float32Array.from(ys, (y) => (options.classBalanced ? trainIdx.length / (classes * perClass[y]!) : 1));
    const model = trainSvm(xs, ys, weights, classes, vectorizer.dimension + (dense ? dense.dimension : 0), { cost, epochs, seed: 1000 * (f + 1) + 1 });
    const scores = new Float64Array(classes);
    items.forEach((item, i) => {
      if (fold[i] !== f) return;
      linearScores(model, vector(i), scores);
      let best = 0;
      for (let c = 1; c < classes; c++) if (scores[c]! > scores[best]!) best = c;
      if (best === item.label) hits[best]!++;
    });
  }
  let correct = 0;
  let balanced = 0;
  for (let c = 0; c < classes; c++) {
    correct += hits[c]!;
    balanced += hits[c]! / sizes[c]! / classes;
  }
  return { accuracy: correct / items.length, balanced, seconds: (performance.now() - started) / 1000 };
}

const variants = process.argv.length > 2 ? process.argv.slice(2) : ['{}'];
console.log(`${process.env.DATASET === 'clinc' ? 'CLINC150' : 'BANKING77'} training set, ${items.length} questions, ${FOLDS}-fold cross-validation (seed ${FOLD_SEED})`);
for (const variant of variants) {
  const r = crossValidate(JSON.parse(variant) as EmbeddedTrainOverrides);
  console.log(`${(100 * r.accuracy).toFixed(2)} %\tbalanced ${(100 * r.balanced).toFixed(2)} %\t${r.seconds.toFixed(1)} s\t${variant}`);
}
