import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * A resolved conversation reopened by the customer while the client's agent is off (or off for its
 * channel): the team is told in the app (reopen-notifier.ts). Inserted with the customer's message
 * by `conversation.reopened`'s subscription.
 */
export const notifyReopenedJob = defineJob({
  name: 'conversations.notify-reopened',
  // messageId is null only for a reopening by a person, which the subscription leaves out.
  payload: z.object({ conversationId: z.uuid(), messageId: z.uuid().nullable() }),
  maxAttempts: 5,
  backoffMs: 1_000,
  timeoutMs: 30_000,
});
