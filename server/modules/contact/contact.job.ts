import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * The newsletter's subscribe request, out of the request (like sign-up's `auth.account-mail`):
 * the request does the same work whatever the address (validate, count the IP, enqueue this job)
 * and answers the same; only the job looks the address up and sends a confirmation e-mail, or
 * nothing. The address is not kept in the payload once the job is done.
 */
export const newsletterSubscribeJob = defineJob({
  name: 'contact.newsletter-subscribe',
  payload: z.object({ email: z.string().min(3).max(254) }),
  maxAttempts: 8,
  backoffMs: 5_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 30_000,
  erasePayloadWhenDone: true,
});
