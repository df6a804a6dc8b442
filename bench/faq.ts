/**
 * The embedded engine on small knowledge bases (issue 12 §6): training a 30-entry FAQ, answers per
 * second with it, and the hybrid engine's share of questions answered without calling the LLM on
 * the FAQ-sized protocol's k = 4 episodes at the default threshold 0.8.
 */
import type { AgentAnswer, AnswerEngine, ConversationContext, KnowledgeBase } from '../server/modules/agents/engines/answer-engine';
import { EmbeddedEngine } from '../server/modules/agents/engines/embedded/embedded-engine';
import { type EmbeddedTrainOverrides, trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';
import { configureWordVectors, defaultWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { HybridEngine } from '../server/modules/agents/engines/hybrid-engine';
import type * as datasetsModule from '../eval/datasets';
import type * as faqModule from '../eval/faq';
import type { BenchContext, BenchGroup } from './lib/context';
import type { GroupReporter } from './lib/report';
import { num } from './lib/stats';

const TRAIN_GOAL = { text: '≤ 1 s', max: 1 };
const ANSWER_GOAL = { text: '≥ 2,000 /s', min: 2_000 };
const ENTRIES = 30;
const QUESTIONS_PER_ENTRY = 4;
const TRAIN_RUNS = 7;
const ANSWER_SECONDS = 3;
const HYBRID_EPISODES = 20;
const HYBRID_K = 4;
const THRESHOLD = 0.8;
/** The version-4 path, as before issue 12: the softmax with its own cross-validated calibration. */
const WITHOUT_SMALL_KB_PATH: EmbeddedTrainOverrides = { faq: null };

type Faq = typeof faqModule;
type Datasets = typeof datasetsModule;

/** The evaluation's loaders, loaded lazily so the bench still runs without ../shared/datasets. */
async function load(): Promise<{ faq: Faq; datasets: Datasets; clinc: ReturnType<Datasets['loadClinc150']> } | null> {
  const datasets = await import('../eval/datasets');
  const faq = await import('../eval/faq');
  try {
    return { faq, datasets, clinc: datasets.loadClinc150() };
  } catch {
    return null;
  }
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function conversation(text: string): ConversationContext {
  return { conversationId: 'bench', turns: [{ role: 'customer', text, at: new Date(0) }], businessName: 'Shop', agentName: 'Ava', agentDescription: '' };
}

/** Runs `fn` over `questions` round-robin for about `seconds` after a warm-up; calls per wall and per CPU second. */
async function rate(questions: readonly string[], seconds: number, fn: (q: string) => unknown): Promise<{ perSecond: number; perCpuSecond: number }> {
  for (let i = 0; i < Math.min(300, questions.length); i++) await fn(questions[i]!);
  let calls = 0;
  const started = performance.now();
  const cpuStarted = cpuMs();
  while (performance.now() - started < seconds * 1000) {
    for (let i = 0; i < 100; i++) await fn(questions[calls++ % questions.length]!);
  }
  return { perSecond: calls / ((performance.now() - started) / 1000), perCpuSecond: calls / ((cpuMs() - cpuStarted) / 1000) };
}

/** Stands in for the LLM (an outside service): counts the questions the hybrid engine hands it. */
class CountingLlm implements AnswerEngine {
  readonly kind = 'openai' as const;
  calls = 0;
  answer(): Promise<AgentAnswer> {
    this.calls += 1;
    return Promise.resolve({ reply: '', confidence: 0, sources: [], action: 'escalate', engine: 'openai', model: 'counter', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } });
  }
}

/** Every question of the k = 4 test episodes through HybridEngine; shares of all questions and of the paraphrases answered locally. */
async function hybridShare(
  faq: Faq,
  datasets: Datasets,
  pools: ReturnType<Faq['loadFaqPools']>,
  overrides: EmbeddedTrainOverrides,
): Promise<{ all: number; paraphrasesRight: number; paraphrasesWrong: number; unanswerableLocal: number; questions: number }> {
  let all = 0;
  let local = 0;
  let paraphrases = 0;
  let right = 0;
  let wrong = 0;
  let unanswerable = 0;
  let unanswerableLocal = 0;
  for (const pool of pools) {
    for (let seed = 1; seed <= HYBRID_EPISODES; seed++) {
      const episode = faq.sampleEpisode(pool, seed, { intents: faq.FAQ_INTENTS, k: HYBRID_K, otherIntent: faq.FAQ_OTHER_INTENT, outOfScope: faq.FAQ_OUT_OF_SCOPE });
      const entries = datasets.toEntries(episode.faq);
      const kb: KnowledgeBase = { version: 1, entries, articles: [], model: JSON.parse(JSON.stringify(trainEmbeddedModel(entries, overrides))) as unknown };
      const llm = new CountingLlm();
      const hybrid = new HybridEngine({ local: new EmbeddedEngine({ cacheSize: 1 }), llm, threshold: THRESHOLD });
      const ask = async (text: string) => {
        const before = llm.calls;
        const answer = await hybrid.answer(conversation(text), kb);
        return { local: llm.calls === before, answer };
      };
      for (const { text, label } of episode.paraphrases) {
        const { local: isLocal, answer } = await ask(text);
        paraphrases += 1;
        if (isLocal) {
          local += 1;
          if (answer.action === 'answer') {
            if (answer.sources[0]?.id === label) right += 1;
            else wrong += 1;
          }
        }
      }
      for (const { text } of [...episode.otherIntent, ...episode.outOfScope]) {
        unanswerable += 1;
        if ((await ask(text)).local) {
          local += 1;
          unanswerableLocal += 1;
        }
      }
      all += episode.paraphrases.length + episode.otherIntent.length + episode.outOfScope.length;
    }
  }
  return { all: local / all, paraphrasesRight: right / paraphrases, paraphrasesWrong: wrong / paraphrases, unanswerableLocal: unanswerableLocal / unanswerable, questions: all };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

export const faqBench: BenchGroup = {
  id: 'faq',
  title: 'Small knowledge bases (FAQ-sized)',
  method: [
    `In the bench process (one core). FAQ: ${ENTRIES} CLINC150 intents (seeded draw) with ${QUESTIONS_PER_ENTRY} of their \`train\` questions each as the entries' example questions — a business's FAQ of ${ENTRIES} answers; the word vectors are loaded before timing (once per process; their load time is a note).`,
    `Training: \`trainEmbeddedModel\` on that FAQ, median of ${TRAIN_RUNS} runs after a warm-up. Baseline: the same FAQ on the version-4 path (softmax with its own cross-validated calibration, \`faq: null\`), which the small-knowledge-base path replaced.`,
    `Answers per second: \`EmbeddedEngine.answer()\` with the trained model as stored JSON, on CLINC150 \`test\` questions round-robin for ${ANSWER_SECONDS} s after a warm-up. Baseline: the version-4 model of the same FAQ.`,
    `Hybrid: \`HybridEngine\` (embedded first, threshold ${THRESHOLD}) on the FAQ-sized protocol's k = ${HYBRID_K} test episodes (eval/faq.ts, seeds 1–${HYBRID_EPISODES}, BANKING77 and CLINC150: 15 intents, every paraphrase of them, 150 other-intent and 150 out-of-scope questions each); the LLM is a counter standing in for the provider, so the figure is the share of questions that never reach it. Baseline: the same with the version-4 model.`,
  ],
  async run(_ctx: BenchContext, report: GroupReporter) {
    const data = await load();
    if (!data) {
      report.row({ figure: 'Small knowledge bases', measured: 'CLINC150 not found in ../shared/datasets', verdict: 'skipped' });
      return;
    }
    const { faq, datasets, clinc } = data;
    // The shipped default: with the packaged word vectors. (An app built in this process by an earlier
    // group may have switched them off: configureWordVectors is per process.)
    configureWordVectors({ enabled: true });
    let t = performance.now();
    const vectors = defaultWordVectors();
    const vectorsMs = performance.now() - t;
    const intents = shuffle([...new Set(clinc.train.map((e) => e.label))].sort(), createRandom(1)).slice(0, ENTRIES);
    const entries = datasets.toEntries(intents.flatMap((label) => clinc.train.filter((e) => e.label === label).slice(0, QUESTIONS_PER_ENTRY)));

    const trainTimes = (overrides: EmbeddedTrainOverrides) => {
      trainEmbeddedModel(entries, overrides); // warm-up (JIT)
      const times: number[] = [];
      for (let i = 0; i < TRAIN_RUNS; i++) {
        t = performance.now();
        trainEmbeddedModel(entries, overrides);
        times.push((performance.now() - t) / 1000);
      }
      return times;
    };
    report.progress(`training a ${ENTRIES}-entry FAQ…`);
    const small = trainTimes({});
    const before = trainTimes(WITHOUT_SMALL_KB_PATH);
    const model = trainEmbeddedModel(entries);
    report.row({
      figure: `Training a ${ENTRIES}-entry FAQ (${QUESTIONS_PER_ENTRY} questions each)`,
      measured: `${(median(small) * 1000).toFixed(0)} ms (${(Math.min(...small) * 1000).toFixed(0)}–${(Math.max(...small) * 1000).toFixed(0)}, n=${TRAIN_RUNS})`,
      value: median(small),
      goal: TRAIN_GOAL,
      baseline: `version-4 path: ${(median(before) * 1000).toFixed(0)} ms`,
    });
    report.note(
      `The small-knowledge-base path was ${model.smallKnowledgeBase ? 'used' : 'NOT used'} for this FAQ; word vectors ${vectors ? `${vectors.id} loaded in ${vectorsMs.toFixed(0)} ms (once per process)` : 'not available (trained without them)'}.`,
    );

    report.progress('answering…');
    const questions = clinc.test.map((e) => e.text);
    const answersOf = async (overrides: EmbeddedTrainOverrides) => {
      const kb: KnowledgeBase = { version: 1, entries, articles: [], model: JSON.parse(JSON.stringify(trainEmbeddedModel(entries, overrides))) as unknown };
      const engine = new EmbeddedEngine();
      return rate(questions, ANSWER_SECONDS, (q) => engine.answer(conversation(q), kb));
    };
    const answers = await answersOf({});
    const answersBefore = await answersOf(WITHOUT_SMALL_KB_PATH);
    report.row({
      figure: `Answers per second, one core, ${ENTRIES}-entry FAQ`,
      measured: `${num(answers.perSecond)} /s (${num(1e6 / answers.perSecond)} µs each)`,
      value: answers.perSecond,
      goal: ANSWER_GOAL,
      baseline: `version-4 path: ${num(answersBefore.perSecond)} /s`,
    });
    report.note(`Per CPU second: ${num(answers.perCpuSecond)} answers (version-4 path ${num(answersBefore.perCpuSecond)}).`);

    report.progress(`hybrid share on ${HYBRID_EPISODES} k = ${HYBRID_K} episodes per dataset…`);
    const pools = faq.loadFaqPools(false);
    const hybrid = await hybridShare(faq, datasets, pools, {});
    const hybridBefore = await hybridShare(faq, datasets, pools, WITHOUT_SMALL_KB_PATH);
    report.row({
      figure: `Hybrid: questions answered without calling the LLM (k = ${HYBRID_K} episodes, @${THRESHOLD})`,
      measured: pct(hybrid.all),
      baseline: `version-4 path: ${pct(hybridBefore.all)}`,
    });
    report.note(
      `Of ${num(hybrid.questions)} questions (${pools.map((p) => p.name).join(' and ')}, ${HYBRID_EPISODES} episodes each): paraphrases answered locally with the right entry ${pct(hybrid.paraphrasesRight)}, with a wrong one ${pct(hybrid.paraphrasesWrong)}; ` +
        `unanswerable questions kept from the LLM ${pct(hybrid.unanswerableLocal)} (answered wrongly, as the embedded engine does on its own). Version-4 path: ${pct(hybridBefore.paraphrasesRight)} right, ${pct(hybridBefore.paraphrasesWrong)} wrong.`,
    );
  },
};
