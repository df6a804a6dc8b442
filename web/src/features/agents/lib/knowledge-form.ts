/**
 * The FAQ entry form: example questions are rows (`{ text }`, as react-hook-form's field arrays
 * want), the link may be left empty. Validated with the contract's `knowledgeEntryInput`.
 */
import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { knowledgeEntryInput, type KnowledgeEntryInput, type KnowledgeEntryView } from '@common/api/agents';

export interface EntryForm {
  questions: { text: string }[];
  answer: string;
  link: string;
}

export function toEntryForm(entry?: KnowledgeEntryView): EntryForm {
  if (!entry) return { questions: [{ text: '' }], answer: '', link: '' };
  return {
    questions: entry.questions.length > 0 ? entry.questions.map((text) => ({ text })) : [{ text: '' }],
    answer: entry.answer,
    link: entry.link ?? '',
  };
}

/** A new entry's form starting from questions customers asked (a link from the AI Summary): the answer is left to write. */
export function toNewEntryForm(questions: readonly string[]): EntryForm {
  return { questions: questions.length > 0 ? questions.map((text) => ({ text })) : [{ text: '' }], answer: '', link: '' };
}

export function toEntryBody(form: EntryForm): Record<string, unknown> {
  return {
    questions: form.questions.map((q) => q.text),
    answer: form.answer,
    link: form.link.trim() === '' ? null : form.link.trim(),
  };
}

/** `questions.2` → `questions.2.text`; `questions` (the list itself) → `questions.root`. */
export function entryFormPath(apiPath: string): string {
  const [head, index] = apiPath.split('.');
  if (head === 'questions') return index !== undefined && /^\d+$/u.test(index) ? `questions.${index}.text` : 'questions.root';
  if (head === 'answer' || head === 'link') return head;
  return 'root';
}

export function entryFieldErrors(issues: Iterable<{ path: string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of issues) out[entryFormPath(path)] ??= message;
  return out;
}

export const entryFormResolver: Resolver<EntryForm, unknown, KnowledgeEntryInput> = (values, _context, options) => {
  const result = knowledgeEntryInput.safeParse(toEntryBody(values));
  if (result.success) return { values: result.data, errors: {} };
  const flat = entryFieldErrors(result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
  const errors: FieldErrors = Object.fromEntries(Object.entries(flat).map(([name, message]) => [name, { type: 'validation', message }]));
  return { values: {}, errors: toNestErrors(errors, options) };
};

/**
 * A refused import's `fields` as lines a person can act on, in row order: the message alone when
 * it names its place already ("Row 3: …") or concerns the whole file, else "<where>: <message>".
 */
export function importErrorLines(fields: Record<string, string> | undefined): string[] {
  if (!fields) return [];
  return Object.entries(fields)
    .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
    .map(([key, message]) =>
      ['content', 'body', 'format', 'mode', ''].includes(key) || /^(row|line|item|entry)\b/iu.test(message) ? message : `${key}: ${message}`,
    );
}
