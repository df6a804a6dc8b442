/** Which import format a chosen file is: by its extension, else its MIME type, else its first character. */
import type { z } from 'zod';
import type { knowledgeFormat } from '@common/api/agents';

export type KnowledgeFormat = z.infer<typeof knowledgeFormat>;

export const IMPORT_ACCEPT = '.csv,.json,text/csv,application/json';

export function knowledgeFileKind(name: string, mimeType: string, content?: string): KnowledgeFormat | null {
  const extension = /\.([a-z0-9]+)$/iu.exec(name.trim())?.[1]?.toLowerCase();
  if (extension === 'csv') return 'csv';
  if (extension === 'json') return 'json';
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (mime === 'text/csv' || mime === 'application/vnd.ms-excel') return 'csv';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (content !== undefined) {
    const first = content.replace(/^\uFEFF/u, '').trimStart().charAt(0);
    if (first === '[' || first === '{') return 'json';
    const header = content.replace(/^\uFEFF/u, '').split(/\r?\n/u, 1)[0]?.toLowerCase() ?? '';
    if (/^"?question"?\s*,/u.test(header)) return 'csv';
  }
  return null;
}
