/** The CSV export's file name. */
import { fileNameFromDisposition } from '@/lib/download';

/** The file name of a Content-Disposition header, else `messages-<date>.csv`. */
export function exportFileName(disposition: string | null, now: Date): string {
  return fileNameFromDisposition(disposition, `messages-${now.toISOString().slice(0, 10)}.csv`);
}
