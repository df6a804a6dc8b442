/** The messages export as CSV (server/lib/csv.ts: RFC 4180, formula cells defused). */
import type { MessageView } from '../../../common/api/conversations';
import { toCsv } from '../../lib/csv';

export { csvCell, toCsv } from '../../lib/csv';

export const MESSAGES_CSV_HEADER = [
  'Date',
  'Client',
  'Contact',
  'Platform',
  'Priority',
  'Read',
  'Message',
  'AI Summary',
  'Response Time (seconds)',
  'Conversation ID',
  'Message ID',
] as const;

export function messagesCsv(messages: readonly MessageView[]): string {
  return toCsv([
    MESSAGES_CSV_HEADER,
    ...messages.map((m) => [
      m.createdAt,
      m.clientName,
      m.contactName,
      m.platform,
      m.priority,
      m.read ? 'yes' : 'no',
      m.content,
      m.aiSummary,
      m.responseTimeSeconds,
      m.conversationId,
      m.id,
    ]),
  ]);
}

/** `messages-2026-01-31.csv` (the export's date, UTC). */
export function messagesCsvFilename(now: Date): string {
  return `messages-${now.toISOString().slice(0, 10)}.csv`;
}
