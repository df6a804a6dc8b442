/**
 * Customer satisfaction (CSAT) ratings (docs/satisfaction.md): the question Parley asks when a
 * conversation is resolved, how each channel asks it, and how a customer's reply is read as a
 * rating. Shared by the server (the request and the answer) and the web (the settings' preview).
 */

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const SURVEY_COMMENT_MAX = 2000;
export const SURVEY_QUESTION_MAX = 300;
/** How long a survey may be answered after it was sent. */
export const SURVEY_VALID_DAYS = 7;

export const DEFAULT_SURVEY_QUESTION = 'How would you rate the help you received?';

/** Rating labels, 1 to 5. */
export const RATING_LABELS = ['Very poor', 'Poor', 'Okay', 'Good', 'Excellent'] as const;

/**
 * The request as sent. The website widget draws stars under the question and the API channel's
 * payload carries the survey (`message.survey`), so they get the question alone; on WhatsApp,
 * Messenger and Instagram the customer answers with a number.
 */
export function surveyRequestText(question: string, numbered: boolean): string {
  if (!numbered) return question;
  return `${question}\nReply with a number from 1 (very poor) to 5 (excellent). To add a comment, write it after the number, for example: 5 - quick and helpful`;
}

export interface ParsedRating {
  rating: number;
  comment: string | null;
}

const STARS = /^\s*(⭐|★){1,5}\s*$/u;
// A digit 1–5 alone or followed by "/5", "out of 5" or "star(s)", then optionally a separator
// (- – — : . , ; ! ) or a line break) and a comment. "1 more question" is not a rating: a comment
// needs a separator, so a customer writing again is not mistaken for one who rates.
const NUMBERED = /^\s*([1-5])(?![\d.,]\d)\s*(?:(?:\/\s*5|out\s+of\s+5)\s*)?(?:stars?\s*)?(?:(?:[-–—:.,;!)]|\r?\n)\s*([\s\S]*))?$/iu;

/** A customer's reply read as a rating, or null when it is not one. */
export function parseRating(text: string): ParsedRating | null {
  if (STARS.test(text)) {
    const count = [...text.trim()].filter((c) => c === '⭐' || c === '★').length;
    return { rating: count, comment: null };
  }
  const match = NUMBERED.exec(text);
  if (!match) return null;
  const comment = (match[2] ?? '').trim();
  return { rating: Number(match[1]), comment: comment === '' ? null : comment.slice(0, SURVEY_COMMENT_MAX) };
}

/** "4/5 · Good", as the thread and the exports show a rating. */
export function ratingLabel(rating: number): string {
  return `${rating}/5 · ${RATING_LABELS[rating - 1] ?? ''}`;
}

/** What a customer reads when their rating cannot be taken. */
export const SURVEY_MESSAGES = {
  answered: 'You have already rated this conversation. Thank you!',
  expired: 'This rating request has expired.',
  closed: 'This rating request is closed: it was answered or has expired.',
} as const;

/** Why a survey cannot be answered now, or null when it can. */
export function surveyRefusal(survey: { status: string; expiresAt: string }, now: Date): { reason: 'answered' | 'expired'; message: string } | null {
  if (survey.status === 'answered') return { reason: 'answered', message: SURVEY_MESSAGES.answered };
  if (survey.status === 'expired' || new Date(survey.expiresAt).getTime() <= now.getTime()) return { reason: 'expired', message: SURVEY_MESSAGES.expired };
  return null;
}

/** The customer's message a star rating is stored as: "Rated 4/5 (Good): the comment". */
export function ratingText(rating: number, comment: string | null): string {
  const head = `Rated ${rating}/5 (${RATING_LABELS[rating - 1] ?? ''})`;
  return comment ? `${head}: ${comment}` : head;
}
