import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/** Who performed a domain event (server/events/domain-events.ts `PerformedBy`). */
const performedBy = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('customer') }),
  z.object({ kind: z.literal('user'), userId: z.string() }),
  z.object({ kind: z.literal('ai') }),
  z.object({ kind: z.literal('automation'), automationId: z.string() }),
  z.object({ kind: z.literal('system') }),
]);

/** The domain events the outbox turns into public events (EventsService.register). */
export const SOURCE_EVENTS = [
  'message.created',
  'message.updated',
  'conversation.created',
  'conversation.escalated',
  'conversation.resolved',
  'conversation.reopened',
  'contact.created',
  'lead.qualified',
  'automation.execution.updated',
  'contact_message.created',
] as const;

/**
 * The outbox's materialiser: one domain event (its keys, name and performedBy — the subscription's
 * `withEvent`) becomes its public event(s). Inserted by `parley_publish` in the transaction of the
 * change, so it exists exactly when the change committed; EventsService.record stores the event
 * once (dedupe key) and hands it to the sinks in one transaction that also completes the job.
 */
export const recordEventJob = defineJob({
  name: 'events.record',
  payload: z.object({
    event: z.enum(SOURCE_EVENTS),
    performedBy,
    at: z.iso.datetime({ offset: true }),
    conversationId: z.uuid().optional(),
    // null: a conversation.reopened by a person (no customer message). For contact_message.created:
    // the contact message's id (the domain event's own key).
    messageId: z.uuid().nullish(),
    contactId: z.uuid().optional(),
    executionId: z.uuid().optional(),
    reason: z.string().optional(),
    status: z.string().optional(),
  }),
  maxAttempts: 10,
  backoffMs: 500,
  maxBackoffMs: 60_000,
  timeoutMs: 30_000,
  // The handler only waits for its batch (EventsService.#enqueueForBatch): where the job was
  // inserted it runs at once, whatever the queue's slots (the batch bounds the work).
  localSlots: 1_000,
});
