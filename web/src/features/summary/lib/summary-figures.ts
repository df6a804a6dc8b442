/** How the AI Summary writes its figures; a null the server sends (nothing to measure) is "—". */
import type { InsightsPeriodKind } from '@common/api/insights';
import type { SummaryQuery, SummaryTopic } from '@common/api/summary';
import { NONE } from '@/lib/figures';
import { toInsightsQuery, type InsightsSelection } from '@/lib/period';

/** The spec's badge was "Last 24 hours": the page opens on that period. */
export const SUMMARY_DEFAULT_PERIOD: InsightsPeriodKind = '24h';

export const TOPIC_TYPE_LABELS: Record<SummaryTopic['type'], string> = {
  trending: 'Trending',
  common: 'Common',
  escalation: 'Escalation',
};

/** The browser's IANA time zone, for "by time of day" (shared with the insights page's PDF report). */
export { browserTimeZone } from '@/lib/time-zone';

/** The API query: the insights page's period and client, plus the viewer's time zone. */
export function toSummaryQuery(selection: InsightsSelection, timeZone: string): SummaryQuery {
  return { ...toInsightsQuery(selection), timeZone };
}

/** A topic's change against the period before: "+50 %", "−20 %", "0 %", or "new" when it had none. */
export function formatTopicTrend(trend: number | null): string {
  if (trend === null) return 'new';
  if (!Number.isFinite(trend)) return NONE;
  const percent = Math.round(trend * 100);
  if (percent === 0) return '0 %';
  return percent > 0 ? `+${percent} %` : `−${Math.abs(percent)} %`;
}

/** A mean confidence (0–1) as a whole percent for charts. */
export function confidencePercent(confidence: number | null): number | null {
  return confidence === null || !Number.isFinite(confidence) ? null : Math.round(confidence * 100);
}
