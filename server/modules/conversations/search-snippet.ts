/**
 * The excerpt a conversation search shows for the message it matched: plain-text segments around
 * the first matching word, the matching words marked. PostgreSQL decides which words match (the
 * same 'english' stemming as the search: "brake" marks "brakes"); this module only cuts the text.
 * `ts_headline` is not used: it drops what looks like HTML tags from the text and returns markup
 * to inject, where segments render as text whatever the customer wrote.
 */
import type { ConversationSearchMatch } from '../../../common/api/conversations';

type Segment = ConversationSearchMatch['segments'][number];

/** Words as the excerpt sees them: letters and digits, with inner apostrophes ("don't"). */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
/** How much of a long message is shown: a little before the first match, the rest after. */
const CONTEXT_BEFORE = 60;
const EXCERPT_LENGTH = 200;
/** Words sent to PostgreSQL to check, per message (a message is at most 20,000 characters). */
export const MAX_WORDS_CHECKED = 4000;

/** The distinct words of a text, for the database to say which of them match the search. */
export function wordsOf(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(WORD), (m) => m[0]))].slice(0, MAX_WORDS_CHECKED);
}

/** Search words to highlight: websearch syntax's excluded words ("-refund") are not looked for. */
export function searchedText(search: string): string {
  return search
    .split(/\s+/u)
    .filter((w) => !w.startsWith('-'))
    .join(' ');
}

/**
 * The excerpt of `text` around its first word in `matches`, each matching word its own segment.
 * Adjacent plain text is merged; an ellipsis marks a cut at either end.
 */
export function snippetSegments(text: string, matches: ReadonlySet<string>): Segment[] {
  const words = Array.from(text.matchAll(WORD), (m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const first = words.find((w) => matches.has(w.word));
  let start = 0;
  if (first && first.start > CONTEXT_BEFORE) {
    // Start at a word boundary a little before the match.
    const from = first.start - CONTEXT_BEFORE;
    start = words.find((w) => w.start >= from)?.start ?? first.start;
  }
  let end = Math.min(text.length, start + EXCERPT_LENGTH);
  if (first && first.end > end) end = first.end;
  // End at a word boundary.
  const cut = words.find((w) => w.start < end && w.end > end);
  if (cut && end < text.length) end = cut.start;

  const segments: Segment[] = [];
  const push = (value: string, match: boolean) => {
    if (value === '') return;
    const last = segments.at(-1);
    if (last && !last.match && !match) last.text += value;
    else segments.push({ text: value, match });
  };
  if (start > 0) push('…', false);
  let at = start;
  for (const w of words) {
    if (w.start < start || w.end > end) continue;
    if (!matches.has(w.word)) continue;
    push(text.slice(at, w.start), false);
    push(w.word, true);
    at = w.end;
  }
  push(text.slice(at, end).replace(/\s+$/u, end < text.length ? '' : '$&'), false);
  if (end < text.length) push('…', false);
  // Line breaks would not show in a one-line row.
  return segments.map((s) => ({ ...s, text: s.text.replace(/\s+/gu, ' ') }));
}
