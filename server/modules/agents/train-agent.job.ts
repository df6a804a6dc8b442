import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/**
 * Trains a client's agent on knowledge version `version`. One job per version: a job whose
 * version is no longer the newest does nothing (the newer job trains), so a burst of edits trains
 * once for the last of them, and an edit made during training is never missed.
 */
export const trainAgentJob = defineJob({
  name: 'agents.train',
  payload: z.object({ clientId: z.uuid(), version: z.number().int().positive() }),
  maxAttempts: 3,
  backoffMs: 2_000,
  timeoutMs: 5 * 60_000,
});
