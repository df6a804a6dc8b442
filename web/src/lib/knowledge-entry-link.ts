/**
 * A link that opens a client's AI agent knowledge base (Admin Settings → AI Agents → Knowledge
 * base) with the form of a new FAQ entry open and its example questions filled in — nothing is
 * saved until the administrator writes the answer and saves. The AI Summary links here from a
 * topic missing from the knowledge base (features/summary), the agents feature reads it
 * (features/agents): features never import each other, so the URL is their contract, kept here.
 *
 *   /settings?tab=agents&client=<id>&section=knowledge&newEntry=1&question=<q1>&question=<q2>…
 */
import { MAX_QUESTIONS_PER_ENTRY } from '@common/api/agents';
import { pathOf } from '@/config/paths';

export const NEW_ENTRY_PARAM = 'newEntry';
export const ENTRY_QUESTION_PARAM = 'question';
/** Longest link made: the questions after the first are left out beyond it (a request's head is at most 16 KB). */
export const MAX_NEW_ENTRY_HREF = 2000;
const MAX_QUESTION = 500;

export function newKnowledgeEntryHref(clientId: string, questions: readonly string[]): string {
  const params = new URLSearchParams({ tab: 'agents', client: clientId, section: 'knowledge', [NEW_ENTRY_PARAM]: '1' });
  const base = `${pathOf('settings')}?`;
  for (const [i, question] of cleanQuestions(questions).entries()) {
    const next = new URLSearchParams(params);
    next.append(ENTRY_QUESTION_PARAM, question);
    if (i > 0 && base.length + next.toString().length > MAX_NEW_ENTRY_HREF) break;
    params.append(ENTRY_QUESTION_PARAM, question);
  }
  return base + params.toString();
}

/** The new entry's questions a link asks for (none: an empty first question to write), or null when it asks for none. */
export function newKnowledgeEntryOf(params: URLSearchParams): string[] | null {
  if (params.get(NEW_ENTRY_PARAM) !== '1') return null;
  return cleanQuestions(params.getAll(ENTRY_QUESTION_PARAM));
}

/** The same search without the new entry (once its form is closed, a reload does not open it again). */
export function withoutNewKnowledgeEntry(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(NEW_ENTRY_PARAM);
  next.delete(ENTRY_QUESTION_PARAM);
  return next;
}

/** Trimmed, non-empty, at most 500 characters each (an FAQ question's limit), each once, at most an entry's number. */
function cleanQuestions(questions: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of questions) {
    const question = raw.trim().slice(0, MAX_QUESTION).trim();
    const key = question.toLowerCase();
    if (question === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(question);
  }
  return out.slice(0, MAX_QUESTIONS_PER_ENTRY);
}
