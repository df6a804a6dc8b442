/**
 * Production readiness (issue 16 §4; spec part 2 "Production readiness", §3, §4, §9; server:
 * server/modules/readiness, docs/readiness.md). Admins only.
 *
 *   GET  /api/v1/readiness             -> readinessView (runs every check against this installation)
 *   POST /api/v1/readiness/test-email  sendTestEmailInput -> sentTestEmail (a test e-mail over SMTP)
 *
 * A fixed list of 24 items, three in each of eight categories, each measured on the live
 * installation when the page loads and by a daily job. The score is the rounded percentage of
 * complete items; 'Production Ready' at READY_THRESHOLD or more.
 */
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });

/** The spec's eight categories, in the order the checklist shows them. */
export const READINESS_CATEGORIES = ['Security', 'Performance', 'UX', 'Technical', 'Email', 'Content', 'SEO', 'Monitoring'] as const;
export const readinessCategory = z.enum(READINESS_CATEGORIES);
export type ReadinessCategory = z.infer<typeof readinessCategory>;

export const READINESS_STATUSES = ['complete', 'needs-attention', 'critical'] as const;
export const readinessStatus = z.enum(READINESS_STATUSES);
export type ReadinessStatus = z.infer<typeof readinessStatus>;

/** Spec part 2 §9: 'Production Ready' shows at this score or more. */
export const READY_THRESHOLD = 90;
/** The spec's texts (§4), verbatim. */
export const PRODUCTION_READY = 'Production Ready';
export const COMPLETE_REMAINING_ITEMS = 'Complete remaining items';

/** The rounded percentage of complete items (spec §4). */
export function readinessScore(complete: number, total: number): number {
  return total === 0 ? 0 : Math.round((complete / total) * 100);
}

/**
 * What fixes an item: a screen of the app (`path`, a route of common/routes.ts with its query), an
 * instruction for the operator where no screen can (the environment, the command line), or the
 * test e-mail this page sends itself.
 */
export const readinessAction = z.object({
  kind: z.enum(['link', 'instruction', 'send-test-email']),
  label: z.string(),
  path: z.string().nullable(),
});
export type ReadinessAction = z.infer<typeof readinessAction>;

export const readinessItem = z.object({
  /** Stable identifier (e.g. `admin-two-factor`). */
  key: z.string(),
  category: readinessCategory,
  /** The item's name. */
  item: z.string(),
  status: readinessStatus,
  /** What is checked and the thresholds. */
  description: z.string(),
  /** What the check measured this time, in a sentence or two. */
  reason: z.string(),
  /** Only on items that are not complete. */
  action: readinessAction.nullable(),
  /** When the item last changed status (the first check that saw this status). */
  statusSince: isoDate,
});
export type ReadinessItem = z.infer<typeof readinessItem>;

export const readinessView = z.object({
  score: z.number().int().min(0).max(100),
  /** score >= threshold. */
  ready: z.boolean(),
  threshold: z.number().int(),
  counts: z.object({
    complete: z.number().int(),
    attention: z.number().int(),
    critical: z.number().int(),
    total: z.number().int(),
  }),
  items: z.array(readinessItem),
  checkedAt: isoDate,
  /** The check before this one (null: this is the first). */
  previous: z.object({ score: z.number().int(), checkedAt: isoDate }).nullable(),
});
export type ReadinessView = z.infer<typeof readinessView>;

export const sendTestEmailInput = z
  .object({
    /** Default: the signed-in administrator's own address. */
    to: z.email({ error: 'Enter a valid e-mail address' }).max(254, { error: 'Enter at most 254 characters' }).optional(),
  })
  .strict();
export type SendTestEmailInput = z.infer<typeof sendTestEmailInput>;

export const sentTestEmail = z.object({
  emailId: z.uuid(),
  to: z.string(),
  queuedAt: isoDate,
});
export type SentTestEmail = z.infer<typeof sentTestEmail>;
