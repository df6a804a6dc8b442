/**
 * Message intelligence (issue 4 §5): sentiment with a maintained lexicon (the `sentiment` package,
 * AFINN-165), priority with the spec's keywords as a floor raised by the engine's signal — and the
 * reason it has that level (issue 12 §4) —, a summary per message (the knowledge entry the engine
 * matched, else the message's key phrase, under the spec's categories) and an extractive summary
 * per conversation.
 */
import Sentiment from 'sentiment';
import type { Priority } from '../../../common/api/conversations';
import { higherPriority, KEYWORD_CATEGORY_NAMES, KEYWORD_SUMMARIES, keywordCategory, priorityKeyword } from '../../../common/messaging/keyword-rules';

const analyzer = new Sentiment();

/** -1 (very negative) … 1 (very positive); 0 for neutral or no opinion words. */
export function sentimentScore(text: string): number {
  const { score } = analyzer.analyze(text);
  return Math.round(Math.tanh(score / 5) * 1000) / 1000;
}

/** A priority and what raised it (null for low: nothing did). */
export interface PriorityWithReason {
  priority: Priority;
  /** Short words for the screens: `Keyword “urgent”`, `Very negative tone`, `Handed to a person: …`. */
  reason: string | null;
}

/**
 * The keywords' priority as a floor; an angry customer is at least medium (high when very
 * negative); a conversation the engine hands to a person is high. The reason names the signal
 * that set the level: the keyword when it alone reaches it, else the mood, else the hand-off.
 */
export function explainPriority(text: string, signals: { sentiment: number; escalated?: boolean; escalationReason?: string }): PriorityWithReason {
  const { priority: floor, keyword } = priorityKeyword(text);
  let result: PriorityWithReason = { priority: floor, reason: keyword === null ? null : `Keyword “${keyword}”` };
  const mood: Priority | null = signals.sentiment <= -0.75 ? 'high' : signals.sentiment <= -0.4 ? 'medium' : null;
  if (mood !== null && higherPriority(result.priority, mood) !== result.priority) {
    result = { priority: mood, reason: mood === 'high' ? 'Very negative tone' : 'Negative tone' };
  }
  if (signals.escalated && result.priority !== 'high') {
    result = { priority: 'high', reason: signals.escalationReason ? `Handed to a person: ${signals.escalationReason}` : 'Handed to a person' };
  }
  return result;
}

export function messagePriority(text: string, signals: { sentiment: number; escalated?: boolean }): Priority {
  return explainPriority(text, signals).priority;
}

/**
 * What Parley records with every customer's message as it is stored (MessagingService): its
 * sentiment, its priority (keywords raised by the mood) with what raised it, and its summary (the
 * message's key phrase under the spec's category; the agent names the matched topic later).
 */
export function annotateInbound(text: string): { priority: Priority; priorityReason: string | null; aiSummary: string; sentiment: number } {
  const sentiment = sentimentScore(text);
  const { priority, reason } = explainPriority(text, { sentiment });
  return { priority, priorityReason: reason, aiSummary: messageSummary(text, null), sentiment };
}

const KEY_PHRASE_MAX = 80;
const LEADING_GREETING = /^\s*(hi+|hello+|hey+|hiya|good\s+(morning|afternoon|evening)|greetings|dear\s+\p{L}+)\b[\s,!.:;-]*(there|team|all|everyone|guys|folks)?[\s,!.:;-]*/iu;

/**
 * The message's key phrase: its sentence carrying the most content words (a question wins a
 * tie, then the earlier one), without a greeting in front, cut at a word near 80 characters.
 * Null when the message has no content word ("hi", "ok", an emoji).
 */
export function keyPhrase(text: string): string | null {
  const candidates = sentences(text)
    .map((s, order) => ({ s: s.replace(LEADING_GREETING, '').trim(), order }))
    .map((c) => ({ ...c, weight: words(c.s).length, question: c.s.includes('?') }))
    .filter((c) => c.weight > 0);
  const [best] = candidates.sort((a, b) => b.weight - a.weight || Number(b.question) - Number(a.question) || a.order - b.order);
  if (!best) return null;
  const phrase = best.s.replace(/\s+/gu, ' ');
  if (phrase.length <= KEY_PHRASE_MAX) return phrase;
  const cut = phrase.slice(0, KEY_PHRASE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > KEY_PHRASE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/u, '')}…`;
}

/**
 * A message's one-line summary, in words the business recognises: the knowledge entry the engine
 * matched (its title, when the engine was sure enough: confidence ≥ 0.5), else the message's key
 * phrase — either under the spec's category (§9) when a keyword gives one — and the category's
 * canned sentence as the floor when the message has no words to quote.
 */
export function messageSummary(text: string, topic: { title: string; confidence: number } | null): string {
  const category = keywordCategory(text);
  const title = topic && topic.confidence >= 0.5 ? topic.title.trim().replace(/\s+/gu, ' ') : '';
  if (title !== '') {
    const prefix = category === 'general' ? '' : `${KEYWORD_CATEGORY_NAMES[category]} — `;
    return `${prefix}Topic: ${/[.!?…]$/u.test(title) ? title : `${title}.`}`;
  }
  const phrase = keyPhrase(text);
  if (phrase === null) return KEYWORD_SUMMARIES[category];
  if (category !== 'general') return `${KEYWORD_CATEGORY_NAMES[category]}: “${phrase}”`;
  return `${phrase.includes('?') ? 'Asks' : 'Says'}: “${phrase}”`;
}

export interface SummaryTurn {
  role: 'customer' | 'ai' | 'agent' | 'system';
  text: string;
}

const MAX_SUMMARY = 500;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const STOP = new Set(
  'a an and are as at be but by can do does for from have hi hello hey how i if in is it its me my no not of on or our please so that the their them then there these they this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
}

/**
 * An extractive summary: the customer's most informative sentences (scored by how many of the
 * conversation's frequent content words they carry), in conversation order, then what happened
 * (answered by the AI, handed to a person).
 */
export function extractiveSummary(turns: readonly SummaryTurn[], outcome: { escalated: boolean; aiReplies: number; agentReplies: number }): string {
  const customer = turns.filter((t) => t.role === 'customer').flatMap((t, i) => sentences(t.text).map((s) => ({ s, i })));
  if (customer.length === 0) return 'No customer messages yet.';
  const frequency = new Map<string, number>();
  for (const { s } of customer) for (const w of new Set(words(s))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = customer.map((item, order) => {
    const ws = words(item.s);
    const score = ws.reduce((n, w) => n + (frequency.get(w) ?? 0), 0) / Math.sqrt(ws.length + 1) + (item.s.includes('?') ? 0.5 : 0);
    return { ...item, order, score };
  });
  const picked = [...scored]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 2)
    .sort((a, b) => a.order - b.order)
    .map((x) => x.s);
  const what = outcome.escalated
    ? 'Handed to a person.'
    : outcome.agentReplies > 0
      ? `Answered by a person${outcome.aiReplies > 0 ? ' and the AI' : ''}.`
      : outcome.aiReplies > 0
        ? 'Answered by the AI.'
        : 'Not answered yet.';
  const text = `Customer: ${picked.join(' ')} ${what}`;
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

const GREETING = /^\s*(hi+|hello+|hey+|hiya|yo|good\s+(morning|afternoon|evening)|greetings|hola|bonjour|hallo|ciao|olá|ola)\b[\s!.,:)]*(there|team|all|everyone|guys|folks)?[\s!.,:)]*$/iu;

/** A message that only greets ("hi", "hello there!"): answered with the agent's greeting text. */
export function isGreeting(text: string): boolean {
  return GREETING.test(text);
}

const HUMAN_REQUEST =
  /\b(speak|talk|chat|connect|transfer|put)\b.{0,30}\b(human|person|agent|representative|someone|somebody|operator|staff|manager|real)\b|\b(human|real person|live agent|customer service rep|representative|operator)\s*(please|pls)?\s*[!.?]*$/iu;

/** The customer asks for a person ("can I talk to a human?", "agent please"). */
export function asksForPerson(text: string): boolean {
  return HUMAN_REQUEST.test(text.trim());
}

/** Whether `at` falls within the business hours (in their time zone); no hours configured means always open. */
export function withinBusinessHours(hours: { timezone: string; days: { day: number; open: string; close: string }[] } | null, at: Date): boolean {
  if (!hours) return true;
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: hours.timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  const time = `${get('hour').padStart(2, '0')}:${get('minute').padStart(2, '0')}`;
  return hours.days.some((d) => d.day === day && d.open <= time && time < d.close);
}
