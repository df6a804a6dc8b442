/**
 * Knowledge base import and export (issue 4 §2):
 *  - CSV with a header `question,answer[,link]`, one example question per row; rows with the same
 *    answer (and link) form one entry, in the order they first appear.
 *  - JSON `[{"questions": [..], "answer": "..", "link"?: ".."}]`.
 * Parsing validates everything before anything is stored: a bad file is refused whole, with the
 * row (CSV line or JSON index) and what is wrong.
 */
import { z } from 'zod';
import { knowledgeEntryInput, MAX_KNOWLEDGE_ENTRIES, type KnowledgeEntryInput } from '../../../common/api/agents';
import { cleanJson, DEPTH_MESSAGE, NUL_MESSAGE } from '../../http/json-body';
import { AppError } from '../../lib/errors';
import { csvCell, toCsv } from '../../lib/csv';

export interface ParsedEntry {
  questions: string[];
  answer: string;
  link: string | null;
}

/** RFC 4180 records (quoted fields with doubled quotes, CRLF or LF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') endRow();
    else if (c === '\r') {
      if (text[i + 1] === '\n') i += 1;
      endRow();
    } else field += c;
  }
  if (quoted) throw invalid('The CSV has a quoted field that is never closed');
  if (field !== '' || row.length > 0) endRow();
  // A trailing blank line is not a row.
  return rows.filter((r) => !(r.length === 1 && (r[0] ?? '').trim() === ''));
}

function invalid(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { fields: { content: message } });
}

/** Our export neutralises formula-looking cells with a leading apostrophe; importing takes it off again. */
function unneutralise(value: string): string {
  return /^'[=+\-@\t\r]/u.test(value) ? value.slice(1) : value;
}

function checked(entries: ParsedEntry[], where: (index: number) => string): ParsedEntry[] {
  if (entries.length === 0) throw invalid('The file has no entries');
  if (entries.length > MAX_KNOWLEDGE_ENTRIES) throw invalid(`At most ${MAX_KNOWLEDGE_ENTRIES} entries`);
  return entries.map((entry, index) => {
    const result = knowledgeEntryInput.safeParse(entry);
    if (!result.success) throw invalid(`${where(index)}: ${result.error.issues[0]?.message ?? 'invalid'}`);
    return { questions: result.data.questions, answer: result.data.answer, link: result.data.link ?? null };
  });
}

export function parseKnowledgeCsv(text: string): ParsedEntry[] {
  const rows = parseCsv(text);
  const header = rows.shift()?.map((h) => h.trim().toLowerCase());
  if (!header || header[0] !== 'question' || header[1] !== 'answer' || (header.length > 2 && header[2] !== 'link') || header.length > 3) {
    throw invalid('The first line must be the header question,answer or question,answer,link');
  }
  const byKey = new Map<string, { entry: ParsedEntry; line: number }>();
  rows.forEach((cells, index) => {
    const line = index + 2;
    if (cells.length > header.length) throw invalid(`Line ${line}: expected ${header.length} columns, found ${cells.length}`);
    const question = unneutralise(cells[0] ?? '').trim();
    const answer = unneutralise(cells[1] ?? '').trim();
    const link = unneutralise(cells[2] ?? '').trim() || null;
    if (!question) throw invalid(`Line ${line}: the question is empty`);
    if (!answer) throw invalid(`Line ${line}: the answer is empty`);
    const key = `${answer}\u0000${link ?? ''}`;
    const found = byKey.get(key);
    if (found) {
      if (!found.entry.questions.includes(question)) found.entry.questions.push(question);
    } else byKey.set(key, { entry: { questions: [question], answer, link }, line });
  });
  const list = [...byKey.values()];
  return checked(
    list.map((x) => x.entry),
    (index) => `The entry starting on line ${list[index]?.line ?? '?'}`,
  );
}

const jsonEntries = z.array(
  z.object({ questions: z.array(z.string()), answer: z.string(), link: z.string().nullable().optional() }).loose(),
  { error: 'The JSON must be a list of {"questions": [...], "answer": "...", "link"?: "..."}' },
);

export function parseKnowledgeJson(text: string): ParsedEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw invalid('The file is not valid JSON');
  }
  // The file is JSON inside the request's JSON: the same rules as a body (lone surrogates become U+FFFD; U+0000, which
  // PostgreSQL cannot store, and deep nesting are refused).
  const { problem } = cleanJson(data, { nul: 'refuse' });
  if (problem) {
    const entry = /^(\d+)(?:\.|$)/u.exec(problem.field)?.[1];
    const at = entry === undefined ? '' : ` (entry ${Number(entry) + 1})`;
    throw invalid(`${problem.kind === 'nul' ? NUL_MESSAGE : DEPTH_MESSAGE}${at}`);
  }
  const result = jsonEntries.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue?.path.length ? ` (entry ${Number(issue.path[0]) + 1}${issue.path.length > 1 ? `, ${issue.path.slice(1).join('.')}` : ''})` : '';
    throw invalid(`${issue?.message ?? 'Invalid JSON'}${at}`);
  }
  return checked(
    result.data.map((e) => ({ questions: e.questions.map((q) => q.trim()), answer: e.answer, link: e.link?.trim() || null })),
    (index) => `Entry ${index + 1}`,
  );
}

export function parseKnowledge(format: 'csv' | 'json', content: string): ParsedEntry[] {
  return format === 'csv' ? parseKnowledgeCsv(content) : parseKnowledgeJson(content);
}

export function knowledgeToCsv(entries: readonly KnowledgeEntryInput[]): string {
  const hasLinks = entries.some((e) => e.link);
  const header = hasLinks ? ['question', 'answer', 'link'] : ['question', 'answer'];
  const rows = entries.flatMap((e) => e.questions.map((q) => (hasLinks ? [q, e.answer, e.link ?? ''] : [q, e.answer])));
  return header.map(csvCell).join(',') + '\r\n' + toCsv(rows);
}

export function knowledgeToJson(entries: readonly KnowledgeEntryInput[]): string {
  return `${JSON.stringify(
    entries.map((e) => ({ questions: e.questions, answer: e.answer, ...(e.link ? { link: e.link } : {}) })),
    null,
    2,
  )}\n`;
}
