/**
 * Knowledge retrieval for the LLM engines: the knowledge base split into passages (one per FAQ
 * entry; articles in runs of a few sentences, about 500 characters) and ranked with BM25 for the
 * customer's last message plus a little recent context. No dependencies; the index of a
 * knowledge base is built once and cached.
 */
import { createHash } from 'node:crypto';
import type { AnswerSource, ConversationTurn, KnowledgeBase } from './answer-engine';

export interface Passage {
  /** Stable id: `faq:<entry id>` or `article:<article id>:<n>` (n from 1). */
  id: string;
  source: AnswerSource;
  /** What a model reads: an entry's questions and answer, or a run of an article's sentences. */
  text: string;
}

export interface RankedPassage extends Passage {
  score: number;
}

/** Part of a query with its weight: the customer's last message counts fully, context less. */
export interface QueryPart {
  text: string;
  weight: number;
}

/** Target passage length for articles; a passage grows sentence by sentence up to this. */
export const PASSAGE_CHARS = 500;
/** An FAQ passage shows this many of the entry's example questions (all of them are indexed). */
const QUESTIONS_SHOWN = 5;

// BM25 parameters (the usual Robertson/Zaragoza defaults).
const K1 = 1.2;
const B = 0.75;

// ---------------------------------------------------------------------------------------------
// Tokenisation

/**
 * Words so common that they only add noise to a short query (every FAQ question starts with a
 * question word); BM25's IDF handles the rest.
 */
const STOP_WORDS = new Set([
  'a', 'an', 'the', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'it', 'its', 'is', 'are', 'was', 'be', 'am',
  'do', 'does', 'did', 'to', 'of', 'in', 'on', 'at', 'for', 'and', 'or', 'this', 'that', 'with', 'can', 'could',
  'please', 'hi', 'hello', 'hey', 'thanks', 'thank', 'how', 'what', 'when', 'where', 'which', 'who', 'why',
]);

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Plural -s/-es/-ies only: enough to join "refunds" and "refund" without harming other languages much. */
function lightStem(word: string): string {
  if (word.length <= 3 || /\d/u.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/**
 * Lower case, no diacritics ("café" = "cafe"), apostrophes joined ("don't" → "dont"), split on
 * anything that is not a letter or digit, stop words dropped, plurals stemmed. Runs of CJK
 * characters, written without spaces, become overlapping character pairs.
 */
export function tokenize(text: string): string[] {
  const normalized = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/gu, '');
  const tokens: string[] = [];
  const rest = normalized.replace(CJK_RUN, (run) => {
    const chars = Array.from(run);
    if (chars.length === 1) tokens.push(run);
    for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
    return ' ';
  });
  for (const word of rest.split(/[^\p{L}\p{N}]+/u)) {
    if (!word || STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !/\d/u.test(word)) continue;
    tokens.push(lightStem(word));
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Passages

/** Sentences of a paragraph; a sentence longer than a passage is cut at word boundaries. */
function sentences(paragraph: string): string[] {
  const parts = paragraph
    .split(/(?<=[.!?。！？])\s+/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const sentence of parts) {
    if (sentence.length <= PASSAGE_CHARS) {
      out.push(sentence);
      continue;
    }
    let piece = '';
    for (const word of sentence.split(/\s+/u)) {
      if (piece && piece.length + 1 + word.length > PASSAGE_CHARS) {
        out.push(piece);
        piece = '';
      }
      // A single "word" longer than a passage (a URL, text without spaces) is cut where it stands.
      let w = word;
      while (w.length > PASSAGE_CHARS) {
        if (piece) out.push(piece);
        piece = '';
        out.push(w.slice(0, PASSAGE_CHARS));
        w = w.slice(PASSAGE_CHARS);
      }
      piece = piece ? `${piece} ${w}` : w;
    }
    if (piece) out.push(piece);
  }
  return out;
}

/**
 * An article body in passages: sentences are added to a passage while it stays within
 * `PASSAGE_CHARS`; a new paragraph starts a new passage once the current one is half full.
 */
export function splitArticle(body: string): string[] {
  const passages: string[] = [];
  let current = '';
  const flush = () => {
    if (current) passages.push(current);
    current = '';
  };
  for (const paragraph of body.split(/\n\s*\n/u)) {
    const text = paragraph.replace(/\s+/gu, ' ').trim();
    if (!text) continue;
    if (current.length >= PASSAGE_CHARS / 2) flush();
    for (const sentence of sentences(text)) {
      if (current && current.length + 1 + sentence.length > PASSAGE_CHARS) flush();
      current = current ? `${current} ${sentence}` : sentence;
    }
  }
  flush();
  return passages;
}

interface IndexedPassage {
  passage: Passage;
  /** The text BM25 sees (an entry's every question, an article passage with its title). */
  indexText: string;
}

function knowledgePassages(kb: KnowledgeBase): IndexedPassage[] {
  const out: IndexedPassage[] = [];
  for (const entry of kb.entries) {
    const questions = entry.questions.map((q) => q.trim()).filter(Boolean);
    const title = questions[0] ?? entry.answer.slice(0, 80);
    const shown = questions.slice(0, QUESTIONS_SHOWN);
    out.push({
      passage: {
        id: `faq:${entry.id}`,
        source: { kind: 'faq', id: entry.id, title, link: entry.link },
        text: `${shown.length ? `Q: ${shown.join(' / ')}\n` : ''}A: ${entry.answer.trim()}`,
      },
      indexText: `${questions.join('\n')}\n${entry.answer}`,
    });
  }
  for (const article of kb.articles) {
    splitArticle(article.body).forEach((text, i) => {
      out.push({
        passage: { id: `article:${article.id}:${i + 1}`, source: { kind: 'article', id: article.id, title: article.title }, text },
        indexText: `${article.title}\n${text}`,
      });
    });
  }
  return out;
}

/** Every passage of a knowledge base, in its order (entries, then articles). */
export function allPassages(kb: KnowledgeBase): readonly Passage[] {
  return indexFor(kb).passages;
}

// ---------------------------------------------------------------------------------------------
// BM25 index

interface Posting {
  doc: number;
  tf: number;
}

interface Bm25Index {
  passages: Passage[];
  postings: Map<string, Posting[]>;
  lengths: Float64Array;
  averageLength: number;
}

function buildIndex(kb: KnowledgeBase): Bm25Index {
  const indexed = knowledgePassages(kb);
  const postings = new Map<string, Posting[]>();
  const lengths = new Float64Array(indexed.length);
  let total = 0;
  indexed.forEach(({ indexText }, doc) => {
    const counts = new Map<string, number>();
    const tokens = tokenize(indexText);
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, tf });
    }
    lengths[doc] = tokens.length;
    total += tokens.length;
  });
  return { passages: indexed.map((p) => p.passage), postings, lengths, averageLength: indexed.length ? total / indexed.length : 0 };
}

/**
 * Indexes are cached by knowledge base object and by content. `kb.version` alone is not a key:
 * versions count per client, so two clients both have a version 3. The digest covers the version
 * and every text, so a changed knowledge base never reuses an old index.
 */
const byObject = new WeakMap<KnowledgeBase, Bm25Index>();
const byDigest = new Map<string, Bm25Index>();
const MAX_CACHED = 32;

function digest(kb: KnowledgeBase): string {
  const hash = createHash('sha1');
  hash.update(`v${kb.version}\u0000`);
  for (const e of kb.entries) hash.update(`e\u0000${e.id}\u0000${e.questions.join('\u0001')}\u0000${e.answer}\u0000${e.link ?? ''}\u0000`);
  for (const a of kb.articles) hash.update(`a\u0000${a.id}\u0000${a.title}\u0000${a.body}\u0000`);
  return hash.digest('base64url');
}

function indexFor(kb: KnowledgeBase): Bm25Index {
  const cached = byObject.get(kb);
  if (cached) return cached;
  const key = digest(kb);
  let index = byDigest.get(key);
  if (index) {
    byDigest.delete(key); // re-inserted below: the Map's order is the LRU order
  } else {
    index = buildIndex(kb);
  }
  byDigest.set(key, index);
  if (byDigest.size > MAX_CACHED) byDigest.delete(byDigest.keys().next().value!);
  byObject.set(kb, index);
  return index;
}

/** The weighted query terms: each term once, with the highest weight of the parts it occurs in. */
function queryTerms(query: string | readonly QueryPart[]): Map<string, number> {
  const parts = typeof query === 'string' ? [{ text: query, weight: 1 }] : query;
  const terms = new Map<string, number>();
  for (const { text, weight } of parts) {
    if (!(weight > 0)) continue;
    for (const term of tokenize(text)) terms.set(term, Math.max(terms.get(term) ?? 0, weight));
  }
  return terms;
}

/**
 * The `k` passages of the knowledge base that best match the query (BM25), best first; only
 * passages sharing at least one term with the query. Ties keep the knowledge base's order.
 */
export function topPassages(kb: KnowledgeBase, query: string | readonly QueryPart[], k: number): RankedPassage[] {
  const index = indexFor(kb);
  const n = index.passages.length;
  if (n === 0 || k <= 0) return [];
  const scores = new Float64Array(n);
  for (const [term, weight] of queryTerms(query)) {
    const list = index.postings.get(term);
    if (!list) continue;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const { doc, tf } of list) {
      const norm = 1 - B + (B * index.lengths[doc]!) / (index.averageLength || 1);
      scores[doc]! += (weight * idf * (tf * (K1 + 1))) / (tf + K1 * norm);
    }
  }
  const hits: number[] = [];
  for (let doc = 0; doc < n; doc++) if (scores[doc]! > 0) hits.push(doc);
  hits.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return hits.slice(0, k).map((doc) => ({ ...index.passages[doc]!, score: scores[doc]! }));
}

/** Customer turns right before the last one, and earlier turns of any side, used as context. */
const CONTEXT_TURNS = 3;

/**
 * The retrieval query for a conversation: its last customer turn (weight 1), the customer turns
 * just before it in the same burst ("I ordered a jacket" / "can I return it?", weight 0.6) and up
 * to a few earlier turns of either side (weight 0.3), so a follow-up like "and how much is it?"
 * still finds the passage the conversation is about.
 */
export function conversationQuery(turns: readonly ConversationTurn[]): QueryPart[] {
  let last = turns.length - 1;
  while (last >= 0 && turns[last]!.role !== 'customer') last--;
  if (last < 0) return [];
  const parts: QueryPart[] = [{ text: turns[last]!.text, weight: 1 }];
  let i = last - 1;
  let context = 0;
  while (i >= 0 && turns[i]!.role === 'customer' && context < CONTEXT_TURNS) {
    parts.push({ text: turns[i]!.text, weight: 0.6 });
    i--;
    context++;
  }
  while (i >= 0 && context < CONTEXT_TURNS) {
    parts.push({ text: turns[i]!.text, weight: 0.3 });
    i--;
    context++;
  }
  return parts;
}
