import type { InsightsQuery } from '@common/api/insights';
import { insightsSearch } from '../lib/period';

/**
 * GET /api/v1/insights/export.csv with the page's query: the server answers text/csv as an
 * attachment, so a plain `<a href download>` saves it with the session cookie and no script.
 */
export function exportInsightsUrl(query: InsightsQuery): string {
  const search = insightsSearch(query);
  return search === '' ? '/api/v1/insights/export.csv' : `/api/v1/insights/export.csv?${search}`;
}
