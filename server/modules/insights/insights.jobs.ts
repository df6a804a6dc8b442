import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/** The domain events after which a conversation's service levels are recomputed (InsightsService.register). */
export const SERVICE_LEVEL_EVENTS = [
  'conversation.created',
  'message.created',
  'conversation.escalated',
  'conversation.reopened',
  'conversation.resolved',
] as const;

/**
 * One conversation's service levels recomputed from the stored facts, after a hand-off, reopening
 * or resolution (the EventBus subscription's keys plus `withEvent`: name, who, when; a new
 * conversation or message marks it for `recomputeJob` instead). A hand-off,
 * reopening or resolution is first recorded in `service_level_events`, keyed by this job's id, so
 * a job run twice records it once; the row is then a function of the stored facts alone, whatever
 * order the jobs run in. Inserted by `parley_publish` in the transaction of the change, never
 * claimed there: a handler takes the jobs queued behind its own (`batched`), so a burst of
 * messages is one transaction, not one per message.
 */
export const serviceLevelJob = defineJob({
  name: 'insights.service-level',
  payload: z.object({
    conversationId: z.uuid(),
    /** The event, with `performedBy` and `at` (`withEvent`): a hand-off, reopening or resolution to record. Absent: a recompute only (jobs queued before 0038 after a creation or a message). */
    event: z.enum(SERVICE_LEVEL_EVENTS).optional(),
    /** Who performed the event (unused: every hand-off counts, whoever made it). */
    performedBy: z.unknown().optional(),
    /** ISO time of the event: a hand-off's, reopening's or resolution's time. */
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  maxAttempts: 10,
  backoffMs: 500,
  maxBackoffMs: 60_000,
  timeoutMs: 30_000,
  // One per message: a handler takes the others queued behind it, one transaction for a burst.
  batched: true,
});

/**
 * The service levels of the conversations marked in `service_level_marks` recomputed: a new
 * conversation or message marks its conversation (`parley_insights_mark`, in the transaction of
 * the change) and queues this job, at most one queued at a time (the event bus's `collect`
 * subscriptions). One run takes the marks in batches of up to 500 conversations, each batch one
 * transaction that recomputes their rows and day rollups and clears the marks it read; a failed
 * batch leaves its marks for the retry.
 */
export const recomputeJob = defineJob({
  name: 'insights.recompute',
  payload: z.object({}),
  maxAttempts: 10,
  backoffMs: 500,
  maxBackoffMs: 60_000,
  timeoutMs: 120_000,
});

/**
 * The rows of conversations that have none (the history before migration 0027): one batch of
 * conversations after `after` (by id) per job, which queues the next in the transaction that
 * stores the batch. Queued by the migration when there are conversations; `InsightsService.startBackfill`
 * queues it again (singleton).
 */
export const backfillJob = defineJob({
  name: 'insights.backfill',
  payload: z.object({ after: z.uuid().nullable() }),
  maxAttempts: 20,
  backoffMs: 1_000,
  maxBackoffMs: 5 * 60_000,
  timeoutMs: 60_000,
});
