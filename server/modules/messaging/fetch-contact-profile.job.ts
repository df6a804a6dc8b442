import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * A new Messenger or Instagram contact's name and picture from the Graph API's user profile
 * endpoint, inserted by the statement that created the contact (parley_record_inbound, or the
 * echo path). Retried on network errors, 5xx, 429 and Meta's throttling codes; a permission
 * error ends it quietly (the contact keeps its label).
 */
export const fetchContactProfileJob = defineJob({
  name: 'channels.fetch-contact-profile',
  payload: z.object({ contactId: z.uuid() }),
  maxAttempts: 5,
  backoffMs: 5_000,
  maxBackoffMs: 10 * 60_000,
  timeoutMs: 30_000,
});
