import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * Sends one outbound message through its channel. Retried with backoff on network errors, 5xx,
 * 429 and the platforms' retryable codes; permanent errors fail the message at once.
 */
export const sendMessageJob = defineJob({
  name: 'channels.send-message',
  payload: z.object({ messageId: z.uuid() }),
  maxAttempts: 6,
  backoffMs: 2_000,
  maxBackoffMs: 10 * 60_000,
  timeoutMs: 30_000,
});
