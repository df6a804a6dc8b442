import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * The e-mail side of sign-up, forgot-password and resend-verification, out of the request. The request does the same
 * work whether or not the address has an account (validate, hash the password for sign-up,
 * enqueue this job) and answers the same; only the job looks the address up. Never a plain
 * password in the payload: sign-up carries the scrypt hash, erased once the job is done.
 */
export const accountMailJob = defineJob({
  name: 'auth.account-mail',
  payload: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('sign-up'),
      /** The id the new account gets (chosen by the request, so a retried job knows its own account). */
      userId: z.uuid(),
      name: z.string(),
      email: z.string(),
      passwordHash: z.string().startsWith('scrypt$'),
    }),
    z.object({ kind: z.literal('password-reset'), email: z.string() }),
    z.object({ kind: z.literal('resend-verification'), email: z.string() }),
  ]),
  maxAttempts: 8,
  backoffMs: 5_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 30_000,
  // The hash of a password typed for an address (someone else's, maybe) is not kept once the job is done.
  erasePayloadWhenDone: true,
});
