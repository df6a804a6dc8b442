/**
 * The messages export as CSV (RFC 4180: comma-separated, CRLF line ends, a field with a comma, a
 * quote or a line break in double quotes with inner quotes doubled). Customer text is untrusted:
 * a cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, OWASP's advice against CSV injection.
 */
import type { MessageView } from '../../../common/api/conversations';

export type CsvValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/u;

export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

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
