/**
 * Share links of the AI Summary (issue 16 §3; server: server/modules/insights, docs/insights.md
 * "Share links"): a read-only link to one period's summary that opens without signing in, until it
 * expires or is revoked.
 *
 *   POST   /api/v1/summary/shares          createSummaryShareInput -> createdSummaryShare (the link, shown once)
 *   GET    /api/v1/summary/shares          -> summarySharesResponse (the caller's links; administrators: everyone's)
 *   DELETE /api/v1/summary/shares/:id      -> summaryShare (revoked)
 *   GET    /api/v1/shared/summary/:token?timeZone=   (public) -> sharedSummaryView, or 404 SHARE_GONE_MESSAGE
 *
 * A relative period ("Last 7 days") is frozen when the link is made: the link shows the instants
 * it covered then, not a window that moves on (docs/DECISIONS.md). A client user shares only their
 * own business; managers and administrators one client or every client.
 */
import { z } from 'zod';
import { checkPeriod, insightsPeriodKind, trendMonth } from './insights';
import { summaryQuery, summaryView } from './summary';

const isoDate = z.iso.datetime({ offset: true });

/** How long a link may live, in days (the dialog's choices). */
export const SHARE_EXPIRY_DAYS = [1, 7, 30] as const;
export const DEFAULT_SHARE_EXPIRY_DAYS = 7;
/** The one answer for a link that is unknown, expired or revoked: which of them is not said. */
export const SHARE_GONE_MESSAGE = 'This link has expired or was revoked.';
/** Where the read-only page of a link lives (common/routes.ts `sharedSummary`). */
export const sharedSummaryPath = (token: string): string => `/shared/summary/${encodeURIComponent(token)}`;

export const createSummaryShareInput = z
  .object({
    period: insightsPeriodKind.default('24h'),
    /** custom only: the start, included. */
    from: isoDate.optional(),
    /** custom only: the end, excluded. */
    to: isoDate.optional(),
    /** Managers and admins: one client (omitted: every client). A client user: their own (another is refused). */
    clientId: z.uuid({ error: 'Choose a client' }).optional(),
    expiresInDays: z.literal(SHARE_EXPIRY_DAYS, { error: 'Choose 1, 7 or 30 days' }).default(DEFAULT_SHARE_EXPIRY_DAYS),
  })
  .superRefine(checkPeriod);
export type CreateSummaryShareInput = z.input<typeof createSummaryShareInput>;

export const SUMMARY_SHARE_STATUSES = ['active', 'expired', 'revoked'] as const;
export const summaryShareStatus = z.enum(SUMMARY_SHARE_STATUSES);
export type SummaryShareStatus = z.infer<typeof summaryShareStatus>;

export const summaryShare = z.object({
  id: z.uuid(),
  /** The frozen period: how it was chosen and the instants it covers (`to` excluded). */
  period: z.object({ kind: insightsPeriodKind, from: isoDate, to: isoDate }),
  /** null: every client. */
  clientId: z.uuid().nullable(),
  clientName: z.string().nullable(),
  createdBy: z.object({ id: z.uuid(), name: z.string() }),
  createdAt: isoDate,
  expiresAt: isoDate,
  revokedAt: isoDate.nullable(),
  status: summaryShareStatus,
});
export type SummaryShare = z.infer<typeof summaryShare>;

export const summarySharesResponse = z.object({ shares: z.array(summaryShare) });
export type SummarySharesResponse = z.infer<typeof summarySharesResponse>;

/** The new link: its token appears here and in `url` this once (only its hash is stored). */
export const createdSummaryShare = z.object({
  share: summaryShare,
  token: z.string(),
  /** The read-only page, absolute (the server's PUBLIC_URL). */
  url: z.string(),
});
export type CreatedSummaryShare = z.infer<typeof createdSummaryShare>;

export const summaryShareParams = z.object({ id: z.uuid({ error: 'Unknown share link' }) });

export const sharedSummaryParams = z.object({ token: z.string().min(1).max(200) });
/** The viewer's IANA time zone for "by time of day", as on the signed-in page (default UTC). */
export const sharedSummaryQuery = z.object({ timeZone: summaryQuery.shape.timeZone });
export type SharedSummaryQuery = z.input<typeof sharedSummaryQuery>;

/** What the link shows: the same summary as the signed-in page, the six months up to the period's end, and when the link ends. */
export const sharedSummaryView = z.object({
  summary: summaryView,
  /** The six months (UTC) up to the period's last month, oldest first. */
  trends: z.array(trendMonth),
  share: z.object({
    clientName: z.string().nullable(),
    createdAt: isoDate,
    expiresAt: isoDate,
  }),
});
export type SharedSummaryView = z.infer<typeof sharedSummaryView>;
