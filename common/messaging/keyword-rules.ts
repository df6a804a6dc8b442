/**
 * Message intelligence from keywords (spec part 1 §9). Issue 4's engines raise the priority and
 * replace the summary; these rules stay as the floor.
 */
import type { Priority } from '../api/conversations';

const HIGH = ['urgent', 'emergency', 'asap', 'immediately', 'critical', 'problem', 'issue', 'broken', 'not working'];
const MEDIUM = ['help', 'question', 'need', 'assistance', 'support'];

/** The first of `words` the text mentions as a whole word (case-insensitive), or null. */
function mentioned(text: string, words: readonly string[]): string | null {
  const lower = text.toLowerCase();
  return words.find((word) => new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/ /gu, '\\s+')}($|[^\\p{L}\\p{N}])`, 'u').test(lower)) ?? null;
}

export function derivePriority(text: string): Priority {
  return priorityKeyword(text).priority;
}

/** The spec's keyword priority and the keyword that set it (null for low: no keyword). */
export function priorityKeyword(text: string): { priority: Priority; keyword: string | null } {
  const high = mentioned(text, HIGH);
  if (high !== null) return { priority: 'high', keyword: high };
  const medium = mentioned(text, MEDIUM);
  if (medium !== null) return { priority: 'medium', keyword: medium };
  return { priority: 'low', keyword: null };
}

export const KEYWORD_SUMMARIES = {
  authentication: 'Authentication: the customer needs help with a password or login.',
  order: 'Order inquiry: the customer asks about an order or a delivery.',
  technical: 'Technical support: the customer reports a problem.',
  positive: 'Positive feedback: the customer is thankful or pleased.',
  general: 'General inquiry.',
} as const;

export type KeywordCategory = keyof typeof KEYWORD_SUMMARIES;

/** The category's short name (the summary's words before its colon): "Order inquiry". */
export const KEYWORD_CATEGORY_NAMES: Record<KeywordCategory, string> = {
  authentication: 'Authentication',
  order: 'Order inquiry',
  technical: 'Technical support',
  positive: 'Positive feedback',
  general: 'General inquiry',
};

/** The spec's category, first matching rule wins (password/login, order/delivery, problem/issue, thank/great). */
export function keywordCategory(text: string): KeywordCategory {
  const lower = text.toLowerCase();
  if (/password|login|log in|sign in/u.test(lower)) return 'authentication';
  if (/order|delivery/u.test(lower)) return 'order';
  if (/problem|issue/u.test(lower)) return 'technical';
  if (/thank|great/u.test(lower)) return 'positive';
  return 'general';
}

/** The spec's canned summary for the text's category. */
export function keywordSummary(text: string): string {
  return KEYWORD_SUMMARIES[keywordCategory(text)];
}

/** "< 1 min", "12 min", "2 h 5 min", "3 d 4 h" (spec §9). */
export function formatResponseTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return '< 1 min';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2 };
export function higherPriority(a: Priority, b: Priority): Priority {
  return PRIORITY_RANK[a] >= PRIORITY_RANK[b] ? a : b;
}
