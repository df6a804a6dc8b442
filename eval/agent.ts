/**
 * `npm run eval:agent`: trains the embedded answer engine's model on public intent datasets
 * (../shared/datasets: BANKING77, CLINC150), prints a table and writes docs/agent-evaluation.md.
 *
 *   npm run eval:agent                     test sets (the one evaluation per change); writes the doc
 *   npm run eval:agent -- --validation     validation splits carved from training data (for tuning); prints only
 *   npm run eval:agent -- --only=banking,banking10,clinc,faq
 *   npm run eval:agent -- --faq [--episodes=50] [--validation] [--titles=on|off|both]   only the FAQ-sized protocol (eval/faq.ts);
 *                                          --faq=banking or --faq=clinc for one dataset
 *   --episodes=N                           FAQ episodes per setting (default 50); the document is written
 *                                          only with the default number of episodes, or with --write
 *   npm run eval:agent -- --set='{"lambda":3e-6}'   training-option overrides (JSON), for tuning
 *
 * The datasets are read from ../shared/datasets beside the repository, or from $DATASETS_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_TRAIN_OPTIONS,
  type EmbeddedTrainOverrides,
  resolveTrainOptions,
  trainEmbeddedModel,
} from '../server/modules/agents/engines/embedded/model';
import { type Example, fewShot, loadBanking77, loadClinc150, stratifiedSplit, toEntries } from './datasets';
import { FAQ_BEGIN, FAQ_END, FAQ_EPISODES, type FaqRun, faqHybridLines, faqResultsTable, faqSection, faqTargets, faqTargetTable, loadFaqPools, runFaqProtocol, spliceFaqSection } from './faq';
import { DEFAULT_THRESHOLD, type Evaluation, evaluate, pct } from './metrics';

const repoRoot = path.resolve(import.meta.dirname, '..');
const DOC = path.join(repoRoot, 'docs/agent-evaluation.md');
const SPLIT_SEED = 7;
const FEW_SHOT_SEED = 1;
const VALIDATION_FRACTION = 0.1;

interface Args {
  validation: boolean;
  only: Set<string> | undefined;
  overrides: EmbeddedTrainOverrides;
  write: boolean;
  /** Write the document even with a non-default number of FAQ episodes. */
  forceWrite: boolean;
  episodes: number;
  /** FAQ-protocol datasets (banking, clinc); undefined = both. */
  faqPools: Set<string> | undefined;
  /** FAQ protocol: entries with titles as their answer texts ('on'), without ('off'), or both runs ('both', the document's). */
  titles: 'on' | 'off' | 'both';
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { validation: false, only: undefined, overrides: {}, write: true, forceWrite: false, episodes: FAQ_EPISODES, faqPools: undefined, titles: 'both' };
  for (const arg of argv) {
    if (arg === '--validation') args.validation = true;
    else if (arg === '--no-write') args.write = false;
    else if (arg === '--write') args.forceWrite = true;
    else if (arg === '--faq') args.only = new Set(['faq']);
    else if (arg.startsWith('--faq=')) {
      args.only = new Set(['faq']);
      args.faqPools = new Set(arg.slice(6).split(','));
    } else if (arg.startsWith('--episodes=')) {
      args.episodes = Number(arg.slice(11));
      if (!Number.isInteger(args.episodes) || args.episodes < 1) throw new Error(`--episodes needs a positive integer, got ${arg.slice(11)}`);
    }
    else if (arg.startsWith('--titles=')) {
      const v = arg.slice(9);
      if (v !== 'on' && v !== 'off' && v !== 'both') throw new Error(`--titles is on, off or both, got ${v}`);
      args.titles = v;
    } else if (arg.startsWith('--only=')) args.only = new Set(arg.slice(7).split(','));
    else if (arg.startsWith('--set=')) args.overrides = JSON.parse(arg.slice(6)) as EmbeddedTrainOverrides;
    else throw new Error(`Unknown argument ${arg}`);
  }
  return args;
}

interface Run {
  id: string;
  title: string;
  trainCount: number;
  trainSeconds: number;
  evaluation: Evaluation;
  heldOut: { questions: number; accuracy: number; calibrationError: number };
  outOfScope: boolean;
}

function run(id: string, title: string, train: readonly Example[], test: readonly Example[], oos: readonly Example[], overrides: EmbeddedTrainOverrides): Run {
  console.log(`\n== ${title}: training on ${train.length} questions…`);
  const started = performance.now();
  const model = trainEmbeddedModel(toEntries(train), overrides);
  const trainSeconds = (performance.now() - started) / 1000;
  const evaluation = evaluate(model, test, oos);
  const r: Run = { id, title, trainCount: train.length, trainSeconds, evaluation, heldOut: model.heldOut, outOfScope: oos.length > 0 };
  const at = evaluation.thresholds.map((t) => `@${t.threshold}: answered ${pct(t.answered)}, error ${pct(t.errorAmongAnswered)}${r.outOfScope ? `, oos recall ${pct(t.outOfScopeRecall)}` : ''}`);
  console.log(`  trained in ${trainSeconds.toFixed(1)} s; accuracy ${pct(evaluation.accuracy, 2)} on ${test.length}; ECE ${pct(evaluation.calibrationError, 2)}; ${evaluation.predictMicros.toFixed(0)} µs/question`);
  for (const line of at) console.log(`  ${line}`);
  console.log(`  calibration hold-out: ${model.heldOut.questions} questions, accuracy ${pct(model.heldOut.accuracy)}, ECE ${pct(model.heldOut.calibrationError, 2)}; calibrator [${model.calibrator.weights.map((w) => w.toFixed(3)).join(', ')}]`);
  return r;
}

interface Target {
  name: string;
  measured: number;
  goal: string;
  ok: boolean;
}

function targets(runs: readonly Run[]): Target[] {
  const out: Target[] = [];
  const get = (id: string) => runs.find((r) => r.id === id);
  const at = (r: Run) => r.evaluation.thresholds.find((t) => t.threshold === DEFAULT_THRESHOLD)!;
  const banking = get('banking');
  if (banking) {
    out.push({ name: 'BANKING77 top-1 accuracy (all training data)', measured: banking.evaluation.accuracy, goal: '≥ 92 %', ok: banking.evaluation.accuracy >= 0.92 });
    out.push({ name: 'BANKING77 error among answered @0.8', measured: at(banking).errorAmongAnswered, goal: '≤ 3 %', ok: at(banking).errorAmongAnswered <= 0.03 });
    out.push({ name: 'BANKING77 answered @0.8', measured: at(banking).answered, goal: '≥ 80 %', ok: at(banking).answered >= 0.8 });
    out.push({ name: 'BANKING77 expected calibration error (15 bins)', measured: banking.evaluation.calibrationError, goal: '≤ 5 %', ok: banking.evaluation.calibrationError <= 0.05 });
  }
  const few = get('banking10');
  if (few) out.push({ name: 'BANKING77 top-1 accuracy, 10 examples per intent', measured: few.evaluation.accuracy, goal: '≥ 75 %', ok: few.evaluation.accuracy >= 0.75 });
  const clinc = get('clinc');
  if (clinc) {
    out.push({ name: 'CLINC150 in-scope accuracy (top-1)', measured: clinc.evaluation.accuracy, goal: '≥ 93 %', ok: clinc.evaluation.accuracy >= 0.93 });
    out.push({ name: 'CLINC150 out-of-scope recall @0.8', measured: at(clinc).outOfScopeRecall, goal: '≥ 60 %', ok: at(clinc).outOfScopeRecall >= 0.6 });
  }
  if (banking) out.push({ name: 'Training time, BANKING77 (10,003 questions, with calibration)', measured: banking.trainSeconds, goal: '≤ 15 s', ok: banking.trainSeconds <= 15 });
  return out;
}

function resultsTable(runs: readonly Run[]): string[] {
  const lines = [
    '| run | trained on | accuracy | ECE (15 bins) | answered / error @0.7 | answered / error @0.8 | answered / error @0.9 | out-of-scope recall @0.7 / 0.8 / 0.9 | training |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs) {
    const e = r.evaluation;
    const cells = e.thresholds.map((t) => `${pct(t.answered)} / ${pct(t.errorAmongAnswered)}`);
    const oos = r.outOfScope ? e.thresholds.map((t) => pct(t.outOfScopeRecall)).join(' / ') : '–';
    lines.push(`| ${r.title} | ${r.trainCount.toLocaleString('en-US')} | ${pct(e.accuracy, 2)} | ${pct(e.calibrationError, 2)} | ${cells.join(' | ')} | ${oos} | ${r.trainSeconds.toFixed(1)} s |`);
  }
  return lines;
}

function targetTable(list: readonly Target[]): string[] {
  return [
    '| target | measured | goal | verdict |',
    '|---|---|---|---|',
    ...list.map((t) => `| ${t.name} | ${t.name.startsWith('Training time') ? `${t.measured.toFixed(1)} s` : pct(t.measured)} | ${t.goal} | ${t.ok ? 'met' : '**MISSED**'} |`),
  ];
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const want = (id: string) => !args.only || args.only.has(id);
  const options = resolveTrainOptions(args.overrides);
  console.log(`Training options: ${JSON.stringify(options)}`);
  const runs: Run[] = [];
  const largeSets = want('banking') || want('banking10') || want('clinc');
  if (largeSets) {
    const banking = loadBanking77();
    const [bankingTrain, bankingTest] = args.validation ? stratifiedSplit(banking.train, VALIDATION_FRACTION, SPLIT_SEED) : [banking.train, banking.test];
    const suffix = args.validation ? ' (validation)' : '';
    if (want('banking')) runs.push(run('banking', `BANKING77, all training data${suffix}`, bankingTrain, bankingTest, [], args.overrides));
    if (want('banking10')) runs.push(run('banking10', `BANKING77, 10 per intent${suffix}`, fewShot(bankingTrain, 10, FEW_SHOT_SEED), bankingTest, [], args.overrides));
    if (want('clinc')) {
      const clinc = loadClinc150();
      const [test, oos] = args.validation ? [clinc.val, clinc.oosVal] : [clinc.test, clinc.oosTest];
      runs.push(run('clinc', `CLINC150 (${args.validation ? 'val + oos_val' : 'test + oos_test'})`, clinc.train, test, oos, args.overrides));
    }
  }
  let faq: FaqRun | undefined;
  let faqWithoutTitles: FaqRun | undefined;
  if (want('faq')) {
    const pools = loadFaqPools(args.validation, args.faqPools);
    const kind = args.validation ? 'validation' : 'test';
    if (args.titles !== 'off') {
      console.log(`\n== FAQ-sized protocol (${kind} episodes, entries with titles), ${args.episodes} episodes per setting…`);
      faq = runFaqProtocol(pools, args.episodes, args.validation, args.overrides, console.log, true);
      console.log(`  ${faq.seconds.toFixed(1)} s in all`);
    }
    if (args.titles !== 'on') {
      console.log(`\n== FAQ-sized protocol (${kind} episodes, entries without titles), ${args.episodes} episodes per setting…`);
      faqWithoutTitles = runFaqProtocol(pools, args.episodes, args.validation, args.overrides, console.log, false);
      console.log(`  ${faqWithoutTitles.seconds.toFixed(1)} s in all`);
    }
    if (!faq) [faq, faqWithoutTitles] = [faqWithoutTitles, undefined];
  }

  const list = targets(runs);
  if (runs.length) console.log(`\n${resultsTable(runs).join('\n')}\n\n${targetTable(list).join('\n')}`);
  if (faq) console.log(`\n${faqResultsTable(faq).join('\n')}\n\n${faqHybridLines(faq).join('\n')}\n\n${faqTargetTable(faqTargets(faq)).join('\n')}`);
  if (faqWithoutTitles) console.log(`\nWithout titles:\n${faqResultsTable(faqWithoutTitles).join('\n')}\n\n${faqTargetTable(faqTargets(faqWithoutTitles)).join('\n')}`);
  const customised = JSON.stringify(options) !== JSON.stringify(DEFAULT_TRAIN_OPTIONS);
  const faqOnly = args.only?.size === 1 && args.only.has('faq') && !args.faqPools;
  const episodesOk = args.episodes === FAQ_EPISODES || args.forceWrite;
  const reasons = [
    args.validation && 'validation',
    args.only && !faqOnly && 'subset',
    customised && 'non-default options',
    !args.write && '--no-write',
    !episodesOk && `${args.episodes} FAQ episodes without --write`,
    want('faq') && args.titles !== 'both' && `--titles=${args.titles}`,
  ].filter(Boolean);
  if (reasons.length) {
    console.log(`\ndocs/agent-evaluation.md not updated (${reasons.join(', ')}).`);
    return;
  }
  const date = new Date().toISOString().slice(0, 10);
  if (faqOnly) fs.writeFileSync(DOC, spliceFaqSection(fs.readFileSync(DOC, 'utf8'), faqSection(faq!, date, faqWithoutTitles)));
  else fs.writeFileSync(DOC, document(runs, list, faq!, date, faqWithoutTitles));
  console.log(`\nWrote ${path.relative(process.cwd(), DOC)}${faqOnly ? ' (the FAQ-sized section only)' : ''}.`);
}

/** Why a target can be missed, printed in the document under the targets when it is. */
const MISS_REASONS: Record<string, string> = {
  'BANKING77 top-1 accuracy (all training data)':
    'BANKING77 separates 77 close banking intents ("card not working" / "card swallowed" / "contactless not working", "pending" vs "declined" transfers) by wording that a bag of n-grams only partly captures. On the 10 % validation split the one-vs-rest SVMs reach 92.6–92.8 %; 5-fold cross-validation over the training set puts every variant we tried (SVMs with other idf powers, costs and class weights, Crammer–Singer, NB-SVM and supervised term weighting, sums with the softmax or with other SVMs, other feature views) within 90.2–91.2 %; the consistent gains, spelling normalisation and question-boundary word n-grams (version 3) and pre-trained word vectors as dense features (version 4), are about 0.1 and 0.2 points (see Tuning). The test set\'s 3,080 questions carry about ±0.5 points of sampling error of their own. The dataset papers reach 93 % and more with pretrained sentence encoders or fine-tuned transformers, far larger than the 100-dimensional word vectors this offline engine ships with.',
  'BANKING77 top-1 accuracy, 10 examples per intent':
    'With 10 questions per intent most test wordings share few n-grams with any training question; the softmax used below 20 questions per entry does not use the pre-trained word vectors (the SVMs only, version 4), so it cannot bridge synonyms it has never seen together.',
  'CLINC150 in-scope accuracy (top-1)':
    'CLINC150 has 150 intents over 10 domains with near-duplicates across domains (balances, payments, transfers in several of them). On its validation split the one-vs-rest SVMs reach 93.8 % (see Tuning); the test set\'s 4,500 questions carry about ±0.4 points of sampling error. Its paper reports bag-of-words and linear baselines near 91 % and 93 %+ only with pretrained encoders (BERT, Universal Sentence Encoder), far larger than the 100-dimensional word vectors this offline engine ships with.',
  'BANKING77 error among answered @0.8':
    'The answered error follows from accuracy and calibration: with this accuracy, the questions answered at 0.8 carry this share of errors.',
  'BANKING77 answered @0.8': 'Fewer questions reach 0.8 when accuracy is lower; the confidence is calibrated, so this is the honest share.',
  'BANKING77 expected calibration error (15 bins)': 'Calibration is fitted on cross-validated training questions, whose difficulty can differ from the test set\'s.',
  'CLINC150 out-of-scope recall @0.8': 'Some out-of-scope questions share many n-grams with an in-scope intent.',
  'Training time, BANKING77 (10,003 questions, with calibration)':
    'Training is two fits of the one-vs-rest SVMs (the calibration hold-out model and the final one), ~160 sparse and 400 dense (word-vector) non-zero features × 77 classes per question in every full pass, in plain JavaScript; the figure is wall-clock on a shared 2-core machine where other work (tests, builds, other engineers) often holds most of the CPU. `npm run bench` (group `agent`), which waits for a quiet moment, reports the same training with its CPU time.',
};

function missesSection(list: readonly Target[]): string {
  const missed = list.filter((t) => !t.ok);
  if (!missed.length) return 'Every target is met.';
  return ['### Missed targets', '', ...missed.map((t) => `- **${t.name}** (${t.goal}): ${MISS_REASONS[t.name] ?? 'see the method below.'}`)].join('\n');
}

function document(runs: readonly Run[], list: readonly Target[], faq: FaqRun, date: string, faqWithoutTitles?: FaqRun): string {
  const template = fs.readFileSync(path.join(import.meta.dirname, 'agent-evaluation.template.md'), 'utf8');
  return template
    .replace('{{results}}', resultsTable(runs).join('\n'))
    .replace('{{targets}}', targetTable(list).join('\n'))
    .replace('{{misses}}', missesSection(list))
    .replace('{{options}}', `\`\`\`json\n${JSON.stringify(DEFAULT_TRAIN_OPTIONS, null, 2)}\n\`\`\``)
    .replace('{{faq}}', () => `${FAQ_BEGIN}\n${faqSection(faq, date, faqWithoutTitles)}\n${FAQ_END}`)
    .replace('{{date}}', date);
}

main();
