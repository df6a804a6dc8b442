import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * Run → the signed POST to the automation's workflow URL (AutomationsService.trigger). Inserted in
 * the transaction that stores the execution, so a crash between the click and the POST loses
 * nothing; an execution whose POST already began (`triggered_at`) is never POSTed again.
 */
export const runAutomationJob = defineJob({
  name: 'automations.run',
  payload: z.object({ executionId: z.uuid() }),
  maxAttempts: 3,
  backoffMs: 1_000,
  timeoutMs: 30_000,
});

/**
 * An unfinished execution's silence check (AutomationsService.checkSilence), due when it would have
 * heard nothing for AUTOMATION_SILENCE_TIMEOUT: it then asks the reconciler (n8n) or becomes an
 * error; it reschedules itself while the execution is still heard from or n8n says it runs.
 */
export const checkExecutionSilenceJob = defineJob({
  name: 'automations.check-silence',
  payload: z.object({ executionId: z.uuid(), attempt: z.number().int().min(0).default(0) }),
  maxAttempts: 5,
  backoffMs: 5_000,
  timeoutMs: 60_000,
});
