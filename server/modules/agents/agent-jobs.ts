import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';

/** Every customer message: sentiment and priority, then the reply scheduled after the response delay. */
export const agentInboundJob = defineJob({
  name: 'agents.inbound',
  payload: z.object({ messageId: z.uuid() }),
  maxAttempts: 5,
  backoffMs: 1_000,
  timeoutMs: 30_000,
  // Run where the message was stored, the job gets what it answers with, read in that transaction.
  localHint: 'parley_agent_context',
});

/** The AI agent's reply to one customer message (runs at receipt + the response delay). */
export const agentReplyJob = defineJob({
  name: 'agents.reply',
  payload: z.object({ messageId: z.uuid() }),
  maxAttempts: 4,
  backoffMs: 1_000,
  timeoutMs: 60_000,
});
