import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * One delivery attempt of an outbound webhook (HooksService.deliver). Inserted with the delivery
 * (in the events' transaction; claimed there by the inserting instance when it has a free slot,
 * and then handed the send's data in memory, `DeliveryHint`) and again, with a new token, for each
 * retry, when an earlier delivery of the same conversation finished, or when a success of the
 * subscription brings a waiting retry forward. Only the job whose `token` the delivery still holds
 * sends: a job run again after a crash, or superseded, does nothing. The queue's own retries cover
 * only failures of Parley itself (the database); the receiver's answers are scheduled by the service.
 */
export const deliverWebhookJob = defineJob({
  name: 'hooks.deliver',
  payload: z.object({ deliveryId: z.uuid(), token: z.uuid() }),
  maxAttempts: 10,
  backoffMs: 5_000,
  maxBackoffMs: 5 * 60_000,
  timeoutMs: 30_000,
  // Run where the fan-out inserted them, up to this many at once, in slots of their own: a POST
  // mostly waits for the receiver, and a busy queue must not send them through the table.
  localSlots: 32,
});
