export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string; text: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/giu;
// Punctuation that ends a sentence rather than the link ("…see https://x.example/a.").
const TRAILING = /[.,;:!?)\]]+$/u;

/** Splits plain text into text and http(s) links, so an e-mail's links can be clicked. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const raw = match[0];
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    const href = raw.slice(0, raw.length - trailing.length);
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', href, text: href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
