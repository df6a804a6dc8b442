/**
 * Report files of the insights pages (issue 16 §2–3; server: server/modules/insights, docs/insights.md
 * "Reports"). The same access and tenant scope as the pages they come from: any signed-in user (API
 * keys with `insights:read`), a client user only ever their own client.
 *
 *   GET /api/v1/insights/report.pdf?(insightsQuery)&timeZone=   -> application/pdf (attachment)
 *   GET /api/v1/summary/report.pdf?(summaryQuery)               -> application/pdf (attachment)
 *   GET /api/v1/summary/export.csv?(summaryQuery)               -> text/csv (attachment)
 *
 * The PDFs draw their text with the standard PDF font (Helvetica): text in a script it cannot draw
 * is shown as REPORT_UNSHOWN_TEXT, and the report says so (the page and the CSV keep every character).
 */
import { z } from 'zod';
import { checkPeriod, insightsQuery } from './insights';
import { summaryQuery } from './summary';

/** The insights query, plus the viewer's IANA time zone for the dates the report prints (default UTC). */
export const insightsReportQuery = z.object({ ...insightsQuery.shape, timeZone: summaryQuery.shape.timeZone }).superRefine(checkPeriod);
export type InsightsReportQuery = z.input<typeof insightsReportQuery>;

/** What a PDF report prints in place of text its font cannot draw (a run of Cyrillic, CJK, emoji …). */
export const REPORT_UNSHOWN_TEXT = '[…]';
