/**
 * The "FAQ-sized" protocol (issue 12 §1): how the embedded engine does on a small business's
 * knowledge base rather than on a large intent dataset.
 *
 * An episode draws 15 intents from one dataset (BANKING77 or CLINC150) and keeps k of each intent's
 * training questions as the FAQ (k = 1, 2, 4); the model is trained on those alone. The chosen
 * intents' held-out questions are the customers' paraphrases (they should be answered with the right
 * entry); 150 held-out questions of the other intents and 150 of CLINC150's out-of-scope questions
 * are what the FAQ cannot answer (they should be handed off). Everything is drawn with the episode's
 * seed, and for one seed the k settings share the intents, the unanswerable questions and nested FAQ
 * questions (the k = 1 question is among the k = 2 ones, …), so the settings are compared pairwise.
 *
 * Test episodes: FAQ questions from the training split, paraphrases and other intents from the test
 * split, out-of-scope from `oos_test`. Validation episodes (for tuning) never touch a test split:
 * BANKING77's paraphrases are 20 questions per intent carved from train.csv (seed 7), the FAQ
 * questions come from the rest; CLINC150's come from `val`; out-of-scope from `oos_val` (100 questions,
 * all of them in every episode).
 */
import { expectedCalibrationError } from '../server/modules/agents/engines/embedded/calibration';
import { type EmbeddedTrainOverrides, trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';
import { carvePerLabel, type Example, loadBanking77, loadClinc150, toEntries } from './datasets';
import { answeredAt, DEFAULT_THRESHOLD, pct, THRESHOLDS } from './metrics';

export const FAQ_INTENTS = 15;
export const FAQ_KS = [1, 2, 4] as const;
export const FAQ_OTHER_INTENT = 150;
export const FAQ_OUT_OF_SCOPE = 150;
export const FAQ_EPISODES = 50;
/** Validation: questions per BANKING77 intent carved from train.csv to play the paraphrases. */
export const BANKING_VALIDATION_PER_INTENT = 20;
export const BANKING_VALIDATION_SEED = 7;

/** Where one dataset's episodes are drawn from. */
export interface FaqPool {
  id: string;
  name: string;
  /** The split each intent's FAQ questions are drawn from. */
  faq: readonly Example[];
  /** Labelled questions that are never FAQ questions: the chosen intents' are the paraphrases, some of the others' are unanswerable. */
  heldOut: readonly Example[];
  /** Questions of no intent at all. */
  outOfScope: readonly Example[];
  /** Names of the splits, for the document. */
  splits: { faq: string; heldOut: string; outOfScope: string };
}

export interface EpisodeSpec {
  intents: number;
  /** FAQ questions per intent. */
  k: number;
  /** Held-out questions of intents not in the FAQ. */
  otherIntent: number;
  /** Out-of-scope questions (all of them when the pool has fewer). */
  outOfScope: number;
}

export interface Episode {
  seed: number;
  /** The chosen intents, sorted. */
  intents: string[];
  /** k questions per chosen intent: the knowledge base. */
  faq: Example[];
  /** Every held-out question of the chosen intents. */
  paraphrases: Example[];
  otherIntent: Example[];
  outOfScope: Example[];
}

function byLabel(examples: readonly Example[]): Map<string, Example[]> {
  const map = new Map<string, Example[]>();
  for (const e of examples) {
    let list = map.get(e.label);
    if (!list) map.set(e.label, (list = []));
    list.push(e);
  }
  return map;
}

/**
 * One episode, a function of the pool and the seed alone. The random draws do not depend on `k` (every
 * intent's FAQ candidates are shuffled whole, then the first k kept), so for one seed the intents and
 * unanswerable questions are the same for every k and the FAQs are nested.
 */
export function sampleEpisode(pool: Pick<FaqPool, 'faq' | 'heldOut' | 'outOfScope'>, seed: number, spec: EpisodeSpec): Episode {
  const random = createRandom(seed);
  const faqByLabel = byLabel(pool.faq);
  const heldByLabel = byLabel(pool.heldOut);
  const eligible = [...faqByLabel.keys()].filter((label) => heldByLabel.has(label)).sort();
  if (eligible.length <= spec.intents) throw new Error(`episode needs more than ${spec.intents} intents, the pool has ${eligible.length}`);
  const intents = shuffle(eligible, random).slice(0, spec.intents).sort();
  const chosen = new Set(intents);
  const faq = intents.flatMap((label) => {
    const candidates = faqByLabel.get(label)!;
    if (candidates.length < spec.k) throw new Error(`intent ${label} has ${candidates.length} FAQ candidates, fewer than k = ${spec.k}`);
    return shuffle([...candidates], random).slice(0, spec.k);
  });
  const paraphrases = pool.heldOut.filter((e) => chosen.has(e.label));
  const others = pool.heldOut.filter((e) => !chosen.has(e.label));
  if (others.length < spec.otherIntent) throw new Error(`episode needs ${spec.otherIntent} other-intent questions, the pool has ${others.length}`);
  const otherIntent = shuffle(others, random).slice(0, spec.otherIntent);
  const outOfScope = shuffle([...pool.outOfScope], random).slice(0, spec.outOfScope);
  return { seed, intents, faq, paraphrases, otherIntent, outOfScope };
}

/**
 * The entry's title in the protocol: the intent's name, humanised ("card_arrival" → "Card arrival"),
 * given to the engine as the entry's answer text. It stands in for what a business writes beside its
 * example questions (the answer, which names its topic; the datasets have no answers), so it is
 * short, and it is the same for every episode; it never contains a customer's question.
 */
export function entryTitle(label: string): string {
  const words = label.replace(/_/gu, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type Predict = (text: string) => { entryId: string; confidence: number } | null;

export interface EpisodeScore {
  paraphrases: number;
  otherIntent: number;
  outOfScope: number;
  correct: number;
  calibrationError: number;
  /** Counts per threshold (THRESHOLDS order). */
  thresholds: { threshold: number; answered: number; wrong: number; otherHandedOff: number; outOfScopeHandedOff: number }[];
}

/** Scores one trained FAQ on its episode: answered = confidence ≥ threshold, handed off = below it. */
export function scoreEpisode(predict: Predict, episode: Episode, thresholds: readonly number[] = THRESHOLDS): EpisodeScore {
  const confidences: number[] = [];
  const correct: boolean[] = [];
  for (const { text, label } of episode.paraphrases) {
    const p = predict(text);
    confidences.push(p?.confidence ?? 0);
    correct.push(p?.entryId === label);
  }
  const other = episode.otherIntent.map(({ text }) => predict(text)?.confidence ?? 0);
  const oos = episode.outOfScope.map(({ text }) => predict(text)?.confidence ?? 0);
  return {
    paraphrases: episode.paraphrases.length,
    otherIntent: other.length,
    outOfScope: oos.length,
    correct: correct.filter(Boolean).length,
    calibrationError: expectedCalibrationError(confidences, correct, 15),
    thresholds: thresholds.map((threshold) => {
      const { answered, wrong } = answeredAt(confidences, correct, threshold);
      return {
        threshold,
        answered,
        wrong,
        otherHandedOff: other.filter((c) => c < threshold).length,
        outOfScopeHandedOff: oos.filter((c) => c < threshold).length,
      };
    }),
  };
}

/** Mean, sample standard deviation (n − 1), minimum and maximum over episodes. */
export interface Stat {
  mean: number;
  sd: number;
  min: number;
  max: number;
}

export function stat(values: readonly number[]): Stat {
  const n = values.length;
  if (!n) return { mean: Number.NaN, sd: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd, min: Math.min(...values), max: Math.max(...values) };
}

export interface FaqAtThreshold {
  threshold: number;
  /** Share of the paraphrases answered, per episode. */
  answered: Stat;
  /** Error among answered, pooled over all episodes (wrong / answered, summed); NaN when nothing was answered. */
  error: number;
  /** Error among answered per episode, over the episodes that answered anything. */
  errorPerEpisode: Stat;
  /** Episodes that answered no paraphrase at all. */
  episodesAnsweringNothing: number;
  /** Share of the unanswerable questions (other intents + out-of-scope) handed off, per episode. */
  handedOff: Stat;
  otherHandedOff: Stat;
  outOfScopeHandedOff: Stat;
  /**
   * The hybrid engine (embedded first, issue 12 §3): the share of all the episode's questions
   * (paraphrases and unanswerable ones) at or above the threshold, which the embedded engine
   * answers without calling the LLM, per episode.
   */
  withoutLlm: Stat;
}

export interface FaqSetting {
  pool: string;
  name: string;
  k: number;
  episodes: number;
  /** Per episode. */
  faqQuestions: number;
  paraphrases: Stat;
  otherIntent: number;
  outOfScope: number;
  accuracy: Stat;
  calibrationError: Stat;
  thresholds: FaqAtThreshold[];
  trainMs: Stat;
}

export function summarise(pool: Pick<FaqPool, 'id' | 'name'>, k: number, scores: readonly EpisodeScore[], trainMs: readonly number[]): FaqSetting {
  const first = scores[0]!;
  return {
    pool: pool.id,
    name: pool.name,
    k,
    episodes: scores.length,
    faqQuestions: FAQ_INTENTS * k,
    paraphrases: stat(scores.map((s) => s.paraphrases)),
    otherIntent: first.otherIntent,
    outOfScope: first.outOfScope,
    accuracy: stat(scores.map((s) => s.correct / s.paraphrases)),
    calibrationError: stat(scores.map((s) => s.calibrationError)),
    trainMs: stat(trainMs),
    thresholds: first.thresholds.map(({ threshold }, t) => {
      const at = scores.map((s) => ({ ...s.thresholds[t]!, s }));
      const answered = at.reduce((a, x) => a + x.answered, 0);
      const wrong = at.reduce((a, x) => a + x.wrong, 0);
      return {
        threshold,
        answered: stat(at.map((x) => x.answered / x.s.paraphrases)),
        error: answered ? wrong / answered : Number.NaN,
        errorPerEpisode: stat(at.filter((x) => x.answered > 0).map((x) => x.wrong / x.answered)),
        episodesAnsweringNothing: at.filter((x) => x.answered === 0).length,
        handedOff: stat(at.map((x) => (x.otherHandedOff + x.outOfScopeHandedOff) / (x.s.otherIntent + x.s.outOfScope))),
        otherHandedOff: stat(at.map((x) => x.otherHandedOff / x.s.otherIntent)),
        outOfScopeHandedOff: stat(at.map((x) => x.outOfScopeHandedOff / x.s.outOfScope)),
        withoutLlm: stat(
          at.map(
            (x) =>
              (x.answered + (x.s.otherIntent - x.otherHandedOff) + (x.s.outOfScope - x.outOfScopeHandedOff)) /
              (x.s.paraphrases + x.s.otherIntent + x.s.outOfScope),
          ),
        ),
      };
    }),
  };
}

export function loadFaqPools(validation: boolean, only?: ReadonlySet<string>): FaqPool[] {
  const clinc = loadClinc150();
  const pools: FaqPool[] = [];
  if (!only || only.has('banking')) {
    const banking = loadBanking77();
    if (validation) {
      const [faq, heldOut] = carvePerLabel(banking.train, BANKING_VALIDATION_PER_INTENT, BANKING_VALIDATION_SEED);
      pools.push({
        id: 'banking',
        name: 'BANKING77',
        faq,
        heldOut,
        outOfScope: clinc.oosVal,
        splits: { faq: 'train.csv (less the carved questions)', heldOut: `${BANKING_VALIDATION_PER_INTENT} per intent carved from train.csv`, outOfScope: 'CLINC150 oos_val' },
      });
    } else {
      pools.push({ id: 'banking', name: 'BANKING77', faq: banking.train, heldOut: banking.test, outOfScope: clinc.oosTest, splits: { faq: 'train.csv', heldOut: 'test.csv', outOfScope: 'CLINC150 oos_test' } });
    }
  }
  if (!only || only.has('clinc')) {
    pools.push(
      validation
        ? { id: 'clinc', name: 'CLINC150', faq: clinc.train, heldOut: clinc.val, outOfScope: clinc.oosVal, splits: { faq: 'train', heldOut: 'val', outOfScope: 'oos_val' } }
        : { id: 'clinc', name: 'CLINC150', faq: clinc.train, heldOut: clinc.test, outOfScope: clinc.oosTest, splits: { faq: 'train', heldOut: 'test', outOfScope: 'oos_test' } },
    );
  }
  return pools;
}

export interface FaqRun {
  validation: boolean;
  /** Whether the entries had titles (entryTitle) as their answer texts. */
  titles: boolean;
  episodes: number;
  pools: FaqPool[];
  settings: FaqSetting[];
  seconds: number;
}

/** Seeds 1 … episodes, the same for every pool and k. */
export function runFaqProtocol(
  pools: FaqPool[],
  episodes: number,
  validation: boolean,
  overrides: EmbeddedTrainOverrides,
  log: (line: string) => void = console.log,
  titles = true,
): FaqRun {
  const started = performance.now();
  const settings: FaqSetting[] = [];
  for (const pool of pools) {
    for (const k of FAQ_KS) {
      const scores: EpisodeScore[] = [];
      const trainMs: number[] = [];
      const settingStarted = performance.now();
      for (let seed = 1; seed <= episodes; seed++) {
        const episode = sampleEpisode(pool, seed, { intents: FAQ_INTENTS, k, otherIntent: FAQ_OTHER_INTENT, outOfScope: FAQ_OUT_OF_SCOPE });
        const t0 = performance.now();
        const model = trainEmbeddedModel(toEntries(episode.faq, titles ? entryTitle : undefined), overrides);
        trainMs.push(performance.now() - t0);
        scores.push(scoreEpisode((text) => model.predict(text), episode));
      }
      const s = summarise(pool, k, scores, trainMs);
      settings.push(s);
      const at = s.thresholds.find((t) => t.threshold === DEFAULT_THRESHOLD)!;
      log(
        `  ${pool.name} k=${k}: top-1 ${fmt(s.accuracy)}; @0.8 answered ${fmt(at.answered)}, error ${pct(at.error)}, handed off ${fmt(at.handedOff)}; ECE ${fmt(s.calibrationError)}` +
          ` (${episodes} episodes, ${((performance.now() - settingStarted) / 1000).toFixed(1)} s)`,
      );
    }
  }
  return { validation, titles, episodes, pools, settings, seconds: (performance.now() - started) / 1000 };
}

/** "81.5 ± 3.2" (per cent, mean ± standard deviation over episodes). */
export function fmt(s: Stat, digits = 1): string {
  if (!Number.isFinite(s.mean)) return '–';
  return `${(100 * s.mean).toFixed(digits)} ± ${(100 * s.sd).toFixed(digits)}`;
}

const num = (x: number, digits = 1) => (Number.isFinite(x) ? (100 * x).toFixed(digits) : '–');

export function faqResultsTable(run: FaqRun): string[] {
  const head = ['setting', 'FAQ questions', 'top-1', 'ECE (15 bins)'];
  for (const t of THRESHOLDS) head.push(`answered @${t}`, `error @${t}`, `handed off @${t}`);
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const s of run.settings) {
    const cells = [`${s.name}, k = ${s.k}`, String(s.faqQuestions), fmt(s.accuracy), fmt(s.calibrationError)];
    for (const t of s.thresholds) cells.push(fmt(t.answered), num(t.error), fmt(t.handedOff));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

/** The @0.8 detail: hand-offs by kind, per-episode error spread, episodes that answered nothing, training time. */
export function faqDetailTable(run: FaqRun): string[] {
  const lines = [
    '| setting | paraphrases per episode | other intents handed off @0.8 | out-of-scope handed off @0.8 | error @0.8 per episode (mean ± SD, min–max) | episodes answering nothing @0.8 | top-1 min–max | training per FAQ |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const s of run.settings) {
    const at = s.thresholds.find((t) => t.threshold === DEFAULT_THRESHOLD)!;
    const e = at.errorPerEpisode;
    const error = Number.isFinite(e.mean) ? `${fmt(e)} (${num(e.min)}–${num(e.max)})` : '–';
    const paraphrases = s.paraphrases.min === s.paraphrases.max ? String(s.paraphrases.min) : `${s.paraphrases.min}–${s.paraphrases.max}`;
    lines.push(
      `| ${s.name}, k = ${s.k} | ${paraphrases} | ${fmt(at.otherHandedOff)} | ${fmt(at.outOfScopeHandedOff)} | ${error} | ${at.episodesAnsweringNothing} of ${s.episodes} | ${num(s.accuracy.min)}–${num(s.accuracy.max)} | ${s.trainMs.mean.toFixed(0)} ms |`,
    );
  }
  return lines;
}

/**
 * Issue 12 §6's hybrid figure: with an LLM configured embedded first, the share of questions the
 * embedded engine answers without calling the LLM — its answered share at the threshold — on the
 * k = 4 episodes at 0.8. No LLM is needed to measure it: everything below the threshold goes to it.
 */
export function faqHybridLines(run: FaqRun, k = 4): string[] {
  return run.settings
    .filter((s) => s.k === k)
    .map((s) => {
      const at = s.thresholds.find((t) => t.threshold === DEFAULT_THRESHOLD)!;
      return (
        `Hybrid (embedded first), ${s.name}, k = ${k} @${DEFAULT_THRESHOLD}: questions answered without calling the LLM — ` +
        `${fmt(at.answered)} % of the paraphrases (error ${num(at.error)} %), ${fmt(at.withoutLlm)} % of all questions including the unanswerable ones`
      );
    });
}

export interface FaqTarget {
  name: string;
  measured: string;
  goal: string;
  ok: boolean;
}

/** Issue 12 §2's goals, per dataset, judged on the means over episodes (the error: pooled over episodes). */
export function faqTargets(run: FaqRun): FaqTarget[] {
  const out: FaqTarget[] = [];
  for (const pool of run.pools) {
    const get = (k: number) => run.settings.find((s) => s.pool === pool.id && s.k === k);
    const at = (s: FaqSetting) => s.thresholds.find((t) => t.threshold === DEFAULT_THRESHOLD)!;
    const k4 = get(4);
    const k1 = get(1);
    if (k4) {
      out.push({ name: `${pool.name}, k = 4, top-1 accuracy`, measured: pct(k4.accuracy.mean), goal: '≥ 90 %', ok: k4.accuracy.mean >= 0.9 });
      const a = at(k4);
      out.push({ name: `${pool.name}, k = 4, answered @0.8 / error among answered`, measured: `${pct(a.answered.mean)} / ${pct(a.error)}`, goal: '≥ 75 % with ≤ 5 % error', ok: a.answered.mean >= 0.75 && a.error <= 0.05 });
    }
    if (k1) {
      const a = at(k1);
      out.push({ name: `${pool.name}, k = 1, answered @0.8 / error among answered`, measured: `${pct(a.answered.mean)} / ${pct(a.error)}`, goal: '≥ 40 % with ≤ 5 % error', ok: a.answered.mean >= 0.4 && a.error <= 0.05 });
    }
    const all = FAQ_KS.map(get).filter((s): s is FaqSetting => !!s);
    if (all.length) {
      out.push({
        name: `${pool.name}, unanswerable handed off @0.8, k = ${all.map((s) => s.k).join(' / ')}`,
        measured: all.map((s) => pct(at(s).handedOff.mean)).join(' / '),
        goal: '≥ 90 % each',
        ok: all.every((s) => at(s).handedOff.mean >= 0.9),
      });
      out.push({
        name: `${pool.name}, calibration error (15 bins), k = ${all.map((s) => s.k).join(' / ')}`,
        measured: all.map((s) => pct(s.calibrationError.mean)).join(' / '),
        goal: '≤ 5 % each',
        ok: all.every((s) => s.calibrationError.mean <= 0.05),
      });
    }
  }
  return out;
}

export function faqTargetTable(list: readonly FaqTarget[]): string[] {
  return ['| target | measured | goal | verdict |', '|---|---|---|---|', ...list.map((t) => `| ${t.name} | ${t.measured} | ${t.goal} | ${t.ok ? 'met' : '**MISSED**'} |`)];
}

/** The generated part of the document's "FAQ-sized knowledge bases" section. */
export function faqSection(run: FaqRun, date: string, withoutTitles?: FaqRun): string {
  const list = faqTargets(run);
  const missed = list.filter((t) => !t.ok).length;
  const pools = run.pools
    .map((p) => {
      const s = run.settings.find((x) => x.pool === p.id)!;
      return `${p.name}: FAQ from ${p.splits.faq}, paraphrases and other intents from ${p.splits.heldOut}, out-of-scope from ${p.splits.outOfScope}; per episode ${s.paraphrases.min === s.paraphrases.max ? s.paraphrases.min : `${s.paraphrases.min}–${s.paraphrases.max}`} paraphrases, ${s.otherIntent} other-intent and ${s.outOfScope} out-of-scope questions`;
    })
    .join('. ');
  const titled = run.titles
    ? 'Each entry has a **title**, its intent\'s name humanised ("card_arrival" → "Card arrival"), given to the engine as the entry\'s answer text: the stand-in for the answer a business writes beside its example questions (the datasets have none; see "Entry titles" above). The same episodes without titles follow the targets.'
    : 'The entries have example questions only (no title or answer text).';
  const without = withoutTitles
    ? [
        '',
        `### The same episodes without titles (example questions only, ${withoutTitles.seconds.toFixed(0)} s)`,
        '',
        'What the titles contribute: the same seeds, FAQs and questions, with each entry\'s answer text empty (the engine then has the example questions alone, as before version 6 read answers).',
        '',
        ...faqResultsTable(withoutTitles),
        '',
        ...faqTargetTable(faqTargets(withoutTitles)),
        '',
        `${faqTargets(withoutTitles).filter((t) => !t.ok).length} of ${faqTargets(withoutTitles).length} targets missed without titles.`,
      ]
    : [];
  return [
    `Last run: ${date}, ${run.validation ? 'validation' : 'test'} episodes, **${run.episodes} episodes per setting** (seeds 1–${run.episodes}), ${run.seconds.toFixed(0)} s in all. ${pools}.`,
    '',
    titled,
    '',
    'Cells are mean ± standard deviation over the episodes, in per cent. *Error* is among the answered paraphrases, pooled over all episodes (an episode that answers nothing has no error rate of its own); *handed off* is the share of the unanswerable questions (other intents and out-of-scope together) below the threshold.',
    '',
    ...faqResultsTable(run),
    '',
    ...faqDetailTable(run),
    '',
    ...faqHybridLines(run).map((line) => `- ${line}`),
    '',
    '### Targets (issue 12 §2, default threshold 0.8)',
    '',
    ...faqTargetTable(list),
    '',
    missed
      ? `${missed} of ${list.length} targets missed. The engine answers these knowledge bases (under 6 questions per entry) with the small-knowledge-base path (model format v6, see Model and "Small knowledge bases" under Tuning, which also gives the baseline before it and why the missed targets are missed).`
      : 'Every target is met.',
    ...without,
  ].join('\n');
}

export const FAQ_BEGIN = '<!-- faq:begin -->';
export const FAQ_END = '<!-- faq:end -->';

/** Replaces the generated FAQ part of an already written document. */
export function spliceFaqSection(doc: string, section: string): string {
  const begin = doc.indexOf(FAQ_BEGIN);
  const end = doc.indexOf(FAQ_END);
  if (begin < 0 || end < begin) throw new Error(`the document has no ${FAQ_BEGIN} … ${FAQ_END} block; run the whole evaluation once`);
  return `${doc.slice(0, begin + FAQ_BEGIN.length)}\n${section}\n${doc.slice(end)}`;
}
