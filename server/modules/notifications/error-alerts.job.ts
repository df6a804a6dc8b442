import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * One run of the error-alerts check (ErrorAlertsService.check), due at the start of a five-minute
 * period (`period`: its ISO start, also the singleton key). Each instance that runs jobs queues the
 * next period's run every five minutes; the key makes instances together queue it once.
 */
export const errorAlertsCheckJob = defineJob({
  name: 'notifications.error-alerts',
  payload: z.object({ period: z.string().max(40) }),
  maxAttempts: 2,
  backoffMs: 30_000,
  timeoutMs: 60_000,
});
