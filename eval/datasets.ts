/**
 * Loaders for the public intent datasets in ../shared/datasets (BANKING77, CLINC150) and the
 * splits the evaluation uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KnowledgeEntry } from '../server/modules/agents/engines/answer-engine';
import { createRandom, shuffle } from '../server/modules/agents/engines/embedded/random';

export interface Example {
  text: string;
  label: string;
}

/** ../shared/datasets beside the repository; DATASETS_DIR overrides it (e.g. from a git worktree elsewhere). */
export const DATASETS_DIR = process.env.DATASETS_DIR ? path.resolve(process.env.DATASETS_DIR) : path.resolve(import.meta.dirname, '../../shared/datasets');

/** RFC 4180 CSV with a header row: quoted fields may hold commas and doubled quotes. */
export function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function readBankingCsv(file: string): Example[] {
  const [header, ...rows] = parseCsv(fs.readFileSync(path.join(DATASETS_DIR, 'banking77', file), 'utf8'));
  if (header?.[0] !== 'text' || header[1] !== 'category') throw new Error(`unexpected header in banking77/${file}`);
  return rows.map(([text, label]) => ({ text: text!, label: label! }));
}

export function loadBanking77(): { train: Example[]; test: Example[]; categories: string[] } {
  const categories = JSON.parse(fs.readFileSync(path.join(DATASETS_DIR, 'banking77/categories.json'), 'utf8')) as string[];
  return { train: readBankingCsv('train.csv'), test: readBankingCsv('test.csv'), categories };
}

export interface Clinc150 {
  train: Example[];
  val: Example[];
  test: Example[];
  oosTrain: Example[];
  oosVal: Example[];
  oosTest: Example[];
}

export function loadClinc150(): Clinc150 {
  const data = JSON.parse(fs.readFileSync(path.join(DATASETS_DIR, 'clinc150/data_full.json'), 'utf8')) as Record<string, [string, string][]>;
  const split = (name: string): Example[] => (data[name] ?? []).map(([text, label]) => ({ text, label }));
  return {
    train: split('train'),
    val: split('val'),
    test: split('test'),
    oosTrain: split('oos_train'),
    oosVal: split('oos_val'),
    oosTest: split('oos_test'),
  };
}

/**
 * One knowledge entry per label (id = label), questions in dataset order. The answer text is
 * `answerOf(label)`, by default '' (no answer text: the datasets have none, and an answer naming the
 * label would hand the small-knowledge-base path, which reads answers as evidence, the label itself).
 */
export function toEntries(examples: readonly Example[], answerOf: (label: string) => string = () => ''): KnowledgeEntry[] {
  const byLabel = new Map<string, string[]>();
  for (const { text, label } of examples) {
    let list = byLabel.get(label);
    if (!list) byLabel.set(label, (list = []));
    list.push(text);
  }
  return [...byLabel].map(([label, questions]) => ({ id: label, questions, answer: answerOf(label), link: null }));
}

/** A stratified split: `fraction` of each label's examples (seeded shuffle) go to the second part. */
export function stratifiedSplit(examples: readonly Example[], fraction: number, seed: number): [Example[], Example[]] {
  const random = createRandom(seed);
  const keep: Example[] = [];
  const held: Example[] = [];
  for (const entry of toEntries(examples)) {
    const questions = shuffle([...entry.questions], random);
    const n = Math.round(questions.length * fraction);
    questions.forEach((text, i) => (i < n ? held : keep).push({ text, label: entry.id }));
  }
  return [keep, held];
}

/** `perLabel` examples of each label (seeded shuffle). */
export function fewShot(examples: readonly Example[], perLabel: number, seed: number): Example[] {
  const random = createRandom(seed);
  return toEntries(examples).flatMap((entry) => shuffle([...entry.questions], random).slice(0, perLabel).map((text) => ({ text, label: entry.id })));
}

/** `perLabel` examples of each label (seeded shuffle) go to the second part, the rest to the first. */
export function carvePerLabel(examples: readonly Example[], perLabel: number, seed: number): [Example[], Example[]] {
  const random = createRandom(seed);
  const keep: Example[] = [];
  const held: Example[] = [];
  for (const entry of toEntries(examples)) {
    const questions = shuffle([...entry.questions], random);
    questions.forEach((text, i) => (i < perLabel ? held : keep).push({ text, label: entry.id }));
  }
  return [keep, held];
}
