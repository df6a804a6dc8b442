/**
 * Training and answering speed of the small-knowledge-base path (issue 12 §6 figures): a 30-entry
 * FAQ (CLINC150 `train`, seeded draw) with k = 1, 2, 4 and 5 questions per entry; training time per
 * FAQ (after the word vectors are loaded once, which is reported separately) and answers per second
 * on one core over 5,000 CLINC150 `val` questions. Every entry has an answer text of ANSWER_WORDS
 * words (the most the engine reads: model.ts answerEvidence), made of other training questions of
 * its intent, so the figures include the answer evidence at its largest; each FAQ is also measured
 * without answer texts just before, for comparison in the same conditions.
 *
 *   npx tsx eval/faq-speed.ts
 */
import { defaultWordVectors } from '../server/modules/agents/engines/embedded/word-vectors';
import { ANSWER_WORDS, trainEmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';
import { loadClinc150, toEntries } from './datasets';

const clinc = loadClinc150();
let t = performance.now();
defaultWordVectors();
console.log(`word vectors loaded in ${(performance.now() - t).toFixed(0)} ms (once per process)`);
const intents = shuffle([...new Set(clinc.train.map((e) => e.label))].sort(), createRandom(1)).slice(0, 30);
const questions = shuffle([...clinc.val, ...clinc.test], createRandom(2)).slice(0, 5000).map((e) => e.text);
for (const k of [1, 2, 4, 5]) {
  const faq = intents.flatMap((label) => clinc.train.filter((e) => e.label === label).slice(0, k));
  const answerOf = (label: string) =>
    clinc.train
      .filter((e) => e.label === label)
      .slice(10)
      .map((e) => e.text)
      .join(' ')
      .split(/\s+/u)
      .slice(0, ANSWER_WORDS)
      .join(' ');
  // Without answer texts (the version-5 features) and with 40-word ones, one after the other in the same conditions.
  for (const answers of [false, true]) {
    const entries = toEntries(faq, answers ? answerOf : undefined);
    trainEmbeddedModel(entries); // warm-up (JIT)
    const runs = 5;
    t = performance.now();
    let model = trainEmbeddedModel(entries);
    for (let i = 1; i < runs; i++) model = trainEmbeddedModel(entries);
    const trainMs = (performance.now() - t) / runs;
    for (const q of questions.slice(0, 500)) model.predict(q);
    t = performance.now();
    for (const q of questions) model.predict(q);
    const perSecond = questions.length / ((performance.now() - t) / 1000);
    console.log(
      `30 entries × ${k} questions, ${answers ? `${ANSWER_WORDS}-word answers` : 'no answer texts'}: small-KB path ${model.smallKnowledgeBase}; training ${trainMs.toFixed(0)} ms; ${Math.round(perSecond).toLocaleString('en-US')} answers/s`,
    );
  }
}
