/**
 * Message intelligence (issue 4 §5): sentiment with a maintained lexicon (the `sentiment` package,
 * AFINN-165), priority with the spec's keywords as a floor raised by the engine's signal, a
 * summary per message (the spec's categories, plus the knowledge topic the engine matched) and an
 * extractive summary per conversation.
 */
import Sentiment from 'sentiment';
import type { Priority } from '../../../common/api/conversations';
import { derivePriority, higherPriority, keywordSummary } from '../../../common/messaging/keyword-rules';

const analyzer = new Sentiment();

/** -1 (very negative) … 1 (very positive); 0 for neutral or no opinion words. */
export function sentimentScore(text: string): number {
  const { score } = analyzer.analyze(text);
  return Math.round(Math.tanh(score / 5) * 1000) / 1000;
}


/**
 * The keywords' priority as a floor; an angry customer is at least medium (high when very
 * negative); a conversation the engine hands to a person is high.
 */
export function messagePriority(text: string, signals: { sentiment: number; escalated?: boolean }): Priority {
  let priority = derivePriority(text);
  if (signals.sentiment <= -0.75) priority = higherPriority(priority, 'high');
  else if (signals.sentiment <= -0.4) priority = higherPriority(priority, 'medium');
  if (signals.escalated) priority = 'high';
  return priority;
}

/**
 * What Parley records with every customer's message as it is stored (MessagingService): its
 * sentiment, its priority (keywords raised by the mood) and the spec's category as its summary.
 */
export function annotateInbound(text: string): { priority: Priority; aiSummary: string; sentiment: number } {
  const sentiment = sentimentScore(text);
  return { priority: messagePriority(text, { sentiment }), aiSummary: keywordSummary(text), sentiment };
}

/** The spec's category for the text, and the knowledge topic the engine recognised when it was sure enough. */
export function messageSummary(text: string, topic: { title: string; confidence: number } | null): string {
  const category = keywordSummary(text);
  if (!topic || topic.confidence < 0.5) return category;
  return `${category} Topic: ${topic.title}.`;
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
