/**
 * When a customer's message makes its conversation a lead (issue 14 §1, docs/events.md "Lead
 * signals"). Pure and deterministic: `parley_record_inbound` receives the result computed here
 * (like the sentiment), and the events module recomputes the excerpt from the stored message.
 *
 * - `email`: an address like `name@domain.tld`.
 * - `phone`: `+` followed by 8–15 digits (spaces, dots, dashes, parentheses allowed between them),
 *   or 10–15 digits without `+` that start with 0 or are written in groups ("07700 900123",
 *   "(555) 123-4567"). One unbroken run of digits without `+` or a leading 0 (an order number) is
 *   not a phone number, nor is a date.
 * - `purchase_intent`: asking the price ("how much is…", "price", "pricing", "cost", "quote"),
 *   wanting to buy or order ("buy", "purchase", "place an order", "to order", "can I order"),
 *   to book ("book a…", "to book", "can I book"), or to sign up / subscribe. A phrase negated just
 *   before it ("I don't want to buy anything", "not interested in pricing") does not count.
 */
import type { LeadSignal } from '../../db/schema';

export interface LeadDetection {
  signals: LeadSignal[];
  email: string | null;
  /** `+` and digits only, as written (no country is guessed). */
  phone: string | null;
  /** The sentence that showed purchase intent, at most 200 characters. */
  intentExcerpt: string | null;
}

const EMAIL = /(?<![\w.+-])[\w.+-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z]{2,24}(?![\w-])/iu;

// A candidate: optional +, then digits with single separators between them.
const PHONE_CANDIDATE = /(?<![\w+])(\+?\(?\d[\d\s.()-]{6,22}\d)(?!\w)/gu;

const INTENT: readonly RegExp[] = [
  /\bhow much (?:is|are|does|do|would|will|for|to|it)\b/iu,
  /\b(?:price|prices|pricing|priced|cost|costs|quote|quotation)\b/iu,
  /\b(?:buy|buying|purchase|purchasing)\b/iu,
  /\bplace (?:an|my|the) order\b/iu,
  /\b(?:to|can i|could i|i'?ll|i will|i'?d like to) order\b/iu,
  /\bbook (?:a|an|me|us|in|for|now)\b/iu,
  /\b(?:to|can i|could i|i'?d like to) book\b/iu,
  /\bsign(?:ing)? up\b/iu,
  /\bsubscribe\b/iu,
];

// A negation within the three words before the phrase.
const NEGATION = /\b(?:not|no|never|don'?t|do not|doesn'?t|didn'?t|won'?t|wouldn'?t|isn'?t|can'?t|cannot|nothing)\b(?:\W+\w+){0,3}\W*$/iu;

const EXCERPT_LENGTH = 200;

function findPhone(text: string): string | null {
  for (const match of text.matchAll(PHONE_CANDIDATE)) {
    const raw = match[1] ?? '';
    if (/[\s.()-]{2,}/u.test(raw.replace(/\) /gu, ')'))) continue; // separators come one at a time ("(555) " aside)
    if (/^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/u.test(raw.trim())) continue; // a date
    const digits = raw.replace(/\D/gu, '');
    if (raw.startsWith('+')) {
      if (digits.length >= 8 && digits.length <= 15) return `+${digits}`;
      continue;
    }
    const grouped = /[\s.()-]/u.test(raw);
    if (digits.length >= 10 && digits.length <= 15 && (digits.startsWith('0') || grouped)) return digits;
  }
  return null;
}

function sentenceAround(text: string, index: number, length: number): string {
  const before = text.slice(0, index);
  const start = Math.max(before.search(/[^.!?\n]*$/u), 0);
  const afterEnd = text.slice(index + length).search(/[.!?\n]/u);
  const end = afterEnd === -1 ? text.length : index + length + afterEnd + 1;
  const sentence = text.slice(start, end).trim();
  return sentence.length > EXCERPT_LENGTH ? `${sentence.slice(0, EXCERPT_LENGTH - 1)}…` : sentence;
}

function findIntent(text: string): string | null {
  for (const pattern of INTENT) {
    const re = new RegExp(pattern.source, 'giu');
    for (const match of text.matchAll(re)) {
      const index = match.index;
      // Only the clause the phrase is in: a negation in an earlier sentence does not count.
      const clauseStart = Math.max(text.slice(0, index).search(/[^.!?,;\n]*$/u), 0);
      if (NEGATION.test(text.slice(clauseStart, index))) continue;
      return sentenceAround(text, index, match[0].length);
    }
  }
  return null;
}

/** The lead signals in a customer's message; null when there are none. */
export function detectLead(text: string): LeadDetection | null {
  if (!text.trim()) return null;
  const email = EMAIL.exec(text)?.[0].toLowerCase() ?? null;
  // Digits inside an e-mail address are not a phone number.
  const phone = findPhone(email ? text.replace(EMAIL, ' ') : text);
  const intentExcerpt = findIntent(text);
  const signals: LeadSignal[] = [];
  if (email) signals.push('email');
  if (phone) signals.push('phone');
  if (intentExcerpt) signals.push('purchase_intent');
  return signals.length === 0 ? null : { signals, email, phone, intentExcerpt };
}
