import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * Processes a group-committed batch of raw webhook deliveries (`inbound_events` ids): each is
 * parsed by its channel's adapter and handed to the messaging core. Idempotent: a batch may run
 * again after a crash, and already-processed events are skipped or re-applied harmlessly.
 */
export const processInboundJob = defineJob({
  name: 'webhooks.process-inbound',
  payload: z.object({ eventIds: z.array(z.number().int().positive()).min(1).max(1000) }),
  maxAttempts: 10,
  backoffMs: 1_000,
  maxBackoffMs: 5 * 60_000,
  timeoutMs: 60_000,
});
