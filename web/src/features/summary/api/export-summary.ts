import type { SummaryQuery } from '@common/api/summary';
import { insightsSearch } from '@/lib/period';

/**
 * GET /api/v1/summary/report.pdf or /export.csv with the page's query and time zone: the server
 * answers an attachment, so a plain `<a href download>` saves it with the session cookie.
 */
export function summaryExportUrl(query: SummaryQuery, format: 'pdf' | 'csv'): string {
  const params = new URLSearchParams(insightsSearch(query));
  if (query.timeZone) params.set('timeZone', query.timeZone);
  return `/api/v1/summary/${format === 'pdf' ? 'report.pdf' : 'export.csv'}?${params.toString()}`;
}
