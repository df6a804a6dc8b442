/**
 * The embedded answer engine (issue 4): answers per second on one core with a 77-entry knowledge
 * base built from BANKING77, and the time to train (with calibration) on its 10,003 questions.
 */
import type { ConversationContext, KnowledgeBase } from '../server/modules/agents/engines/answer-engine';
import { EmbeddedEngine } from '../server/modules/agents/engines/embedded/embedded-engine';
import { trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { tokenize } from '../server/modules/agents/engines/embedded/text';
import { configureWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import type { BenchContext, BenchGroup } from './lib/context';
import type { GroupReporter } from './lib/report';
import { num } from './lib/stats';

const ANSWER_GOAL = { text: '≥ 2,000 /s', min: 2_000 };
const TRAIN_GOAL = { text: '≤ 15 s', max: 15 };
const ANSWER_SECONDS = 3;

interface Example {
  text: string;
  label: string;
}

/** The evaluation's loaders (eval/datasets.ts), loaded lazily so the bench still runs without ../shared/datasets. */
async function banking77(): Promise<{ train: Example[]; test: Example[]; toEntries: (examples: readonly Example[]) => KnowledgeBase['entries'] } | null> {
  const datasets = await import('../eval/datasets');
  try {
    const { train, test } = datasets.loadBanking77();
    return { train, test, toEntries: datasets.toEntries };
  } catch {
    return null;
  }
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `fn` over `questions` round-robin for about `seconds`; calls per wall second and per CPU second. */
async function rate(questions: readonly string[], seconds: number, fn: (q: string) => unknown): Promise<{ perSecond: number; perCpuSecond: number; calls: number }> {
  for (let i = 0; i < Math.min(200, questions.length); i++) await fn(questions[i]!);
  let calls = 0;
  const started = performance.now();
  const cpuStarted = cpuMs();
  while (performance.now() - started < seconds * 1000) {
    for (let i = 0; i < 100; i++) await fn(questions[calls++ % questions.length]!);
  }
  const wall = (performance.now() - started) / 1000;
  const cpu = (cpuMs() - cpuStarted) / 1000;
  return { perSecond: calls / wall, perCpuSecond: calls / cpu, calls };
}

function conversation(text: string): ConversationContext {
  return { conversationId: 'bench', turns: [{ role: 'customer', text, at: new Date(0) }], businessName: 'Bank', agentName: 'Ava', agentDescription: '' };
}

export const agentEngine: BenchGroup = {
  id: 'agent',
  title: 'Embedded answer engine',
  method: [
    'In the bench process (one core: Node runs the engine on its main thread). Knowledge base: BANKING77 (../shared/datasets/banking77) as 77 entries, one per intent, with all 10,003 training questions as their example questions — the largest knowledge base the engine is meant for.',
    `Training: \`trainEmbeddedModel\` on those entries with the default options, including the calibration hold-out model; wall time (CPU time in the notes). Baseline: only tokenising the same questions, the floor any trainer pays.`,
    `Answers per second: \`EmbeddedEngine.answer()\` with the trained model passed as stored JSON (loaded once, then cached) on BANKING77's test questions, round-robin for ${ANSWER_SECONDS} s after a warm-up. Baseline: a trivial string-match loop over the same questions (lower-case, look the text up among the training questions).`,
  ],
  async run(_ctx: BenchContext, report: GroupReporter) {
    const data = await banking77();
    if (!data) {
      report.row({ figure: 'Embedded engine', measured: 'BANKING77 not found in ../shared/datasets', verdict: 'skipped' });
      return;
    }
    const entries = data.toEntries(data.train);
    // The shipped default: with the packaged word vectors. (An app built in this process by an earlier
    // group may have switched them off: configureWordVectors is per process.)
    configureWordVectors({ enabled: true });
    report.progress(`training on ${data.train.length} questions, ${entries.length} entries…`);

    const tokenStarted = performance.now();
    let tokens = 0;
    for (const e of data.train) tokens += tokenize(e.text).length;
    const tokenSeconds = (performance.now() - tokenStarted) / 1000;

    const cpuStarted = cpuMs();
    const started = performance.now();
    const model = trainEmbeddedModel(entries);
    const trainSeconds = (performance.now() - started) / 1000;
    const trainCpuSeconds = (cpuMs() - cpuStarted) / 1000;
    report.row({
      figure: `Training on BANKING77 (${num(data.train.length)} questions, 77 entries, with calibration)`,
      measured: `${trainSeconds.toFixed(1)} s`,
      value: trainSeconds,
      goal: TRAIN_GOAL,
      baseline: `tokenising them: ${(tokenSeconds * 1000).toFixed(0)} ms (${num(tokens)} tokens)`,
    });
    const json = JSON.stringify(model);
    report.note(
      `Training used ${trainCpuSeconds.toFixed(1)} s of CPU; the stored model is ${(json.length / 2 ** 20).toFixed(1)} MiB of JSON; ` +
        `the calibration hold-out (${model.heldOut.questions} questions) measured ${(model.heldOut.accuracy * 100).toFixed(1)} % accuracy, ` +
        `${(model.heldOut.calibrationError * 100).toFixed(1)} % expected calibration error.`,
    );

    const kb: KnowledgeBase = { version: 1, entries, articles: [], model: JSON.parse(json) as unknown };
    const engine = new EmbeddedEngine();
    const questions = data.test.map((e) => e.text);
    const answers = await rate(questions, ANSWER_SECONDS, (q) => engine.answer(conversation(q), kb));
    const known = new Set(data.train.map((e) => e.text.toLowerCase()));
    let hits = 0;
    const baseline = await rate(questions, 1, (q) => {
      if (known.has(q.toLowerCase())) hits++;
    });
    report.row({
      figure: 'Answers per second, one core, 77-entry knowledge base',
      measured: `${num(answers.perSecond)} /s (${num(1e6 / answers.perSecond)} µs each)`,
      value: answers.perSecond,
      goal: ANSWER_GOAL,
      baseline: `string-match loop: ${num(baseline.perSecond)} /s`,
    });
    report.note(
      `Per CPU second (discounting time other work took the core): ${num(answers.perCpuSecond)} answers; ${num(answers.calls)} answers measured; ` +
        `the string-match baseline matched ${hits ? 'some' : 'none'} of the test questions exactly.`,
    );
  },
};
