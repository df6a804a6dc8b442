import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/** Delivers one row of the `emails` table (SMTP, or the outbox when SMTP is not configured). */
export const deliverEmailJob = defineJob({
  name: 'email.deliver',
  payload: z.object({ emailId: z.uuid() }),
  maxAttempts: 8,
  backoffMs: 5_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 30_000,
});
