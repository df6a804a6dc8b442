/**
 * What the agent understood about a conversation (issue 12 §4), as the thread header and the list
 * say it: what the customer wants, their mood, the priority and what raised it, the knowledge the
 * AI answered from, and why it was escalated. Only what the server recorded; nothing is guessed.
 */
import type { ConversationView, Priority } from '@common/api/conversations';

export type Sentiment = NonNullable<ConversationView['sentiment']>;

export const SENTIMENT_LABEL: Record<Sentiment, string> = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' };

export const PRIORITY_NAME: Record<Priority, string> = { high: 'High priority', medium: 'Medium priority', low: 'Low priority' };

/** "High priority: Keyword “urgent”", or just "Low priority" when nothing raised it. */
export function priorityText(priority: Priority, reason: string | null | undefined): string {
  const why = reason?.trim();
  return why ? `${PRIORITY_NAME[priority]}: ${why}` : PRIORITY_NAME[priority];
}

/** "Why escalated": the reason, first letter capitalised; null unless the conversation is escalated and a reason was recorded. */
export function escalationText(conversation: Pick<ConversationView, 'status' | 'escalationReason'>): string | null {
  if (conversation.status !== 'escalated') return null;
  const reason = conversation.escalationReason?.trim();
  if (!reason) return null;
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * The one line about what the customer wants: their latest message's summary, else the
 * conversation's summary; null when neither exists yet.
 */
export function requestText(conversation: Pick<ConversationView, 'request' | 'aiSummary'>): string | null {
  const request = conversation.request?.trim();
  if (request) return request;
  const summary = conversation.aiSummary?.trim();
  return summary ? summary : null;
}

/** The conversation's own summary, when it says more than the one line above. */
export function summaryText(conversation: Pick<ConversationView, 'request' | 'aiSummary'>): string | null {
  const summary = conversation.aiSummary?.trim();
  if (!summary || summary === requestText(conversation)) return null;
  return summary;
}
