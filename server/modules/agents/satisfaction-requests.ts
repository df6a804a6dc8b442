/**
 * Customer satisfaction requests (issue 16 §1, docs/satisfaction.md): when a conversation is
 * resolved, the customer is asked for a 1–5 rating in its channel, if the client's agent settings
 * ask for ratings (`csatEnabled`, on by default; the wording `csatQuestion`).
 *
 *  conversation.resolved ──tx──▶ agents.satisfaction-request job ──▶ MessagingService.requestSatisfaction
 *        (the survey and its system message, once per resolution, only while still resolved)
 *
 * Not asked: a conversation the customer never wrote in, a disabled channel, or — on WhatsApp,
 * Messenger and Instagram — outside the 24-hour window. The answer is recorded by messaging
 * (parley_record_inbound, the widget's stars, the API channel's field) and never reopens the
 * conversation.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { SURVEY_VALID_DAYS, surveyRequestText } from '../../../common/messaging/satisfaction';
import type { Db } from '../../db/database';
import type { EventBus } from '../../events/event-bus';
import { defineJob, type JobCompletion } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { WINDOW_CHANNELS, type MessagingService } from '../messaging';
import type { AgentConfigService } from './agent-config.service';
import { AgentsRepository } from './agents.repository';

export const satisfactionRequestJob = defineJob({
  name: 'agents.satisfaction-request',
  payload: z.object({
    conversationId: z.uuid(),
    event: z.literal('conversation.resolved').optional(),
    performedBy: z.unknown().optional(),
    /** ISO time of the resolution (`withEvent`): one survey per resolution. */
    at: z.iso.datetime({ offset: true }),
  }),
  maxAttempts: 5,
  backoffMs: 1_000,
  timeoutMs: 30_000,
});

export interface SatisfactionRequestsDeps {
  events: EventBus;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  db: Db;
  messaging: MessagingService;
  agents: Pick<AgentConfigService, 'configFromRow'>;
}

export type SurveyOutcome = 'sent' | 'off' | 'not-resolved' | 'no-customer-message' | 'channel-disabled' | 'window-closed' | 'already-asked';

export class SatisfactionRequests {
  readonly #repository: AgentsRepository;

  constructor(private readonly deps: SatisfactionRequestsDeps) {
    this.#repository = new AgentsRepository(deps.db);
  }

  register(): void {
    this.deps.events.subscribe({ event: 'conversation.resolved', job: satisfactionRequestJob, keys: ['conversationId'], withEvent: true });
    this.deps.queue.register(satisfactionRequestJob, async ({ conversationId, at }, ctx) => {
      const outcome = await this.request(conversationId, new Date(at), ctx.completion);
      if (outcome.completed) ctx.completedInline();
    });
  }

  /** Asks for a rating of the resolution at `resolvedAt`; says what it did. */
  async request(conversationId: string, resolvedAt: Date, completion?: JobCompletion): Promise<{ outcome: SurveyOutcome; completed: boolean }> {
    const found = await this.#repository.surveyContext(conversationId);
    if (!found || found.status !== 'resolved') return { outcome: 'not-resolved', completed: false };
    const config = this.deps.agents.configFromRow(found.clientId, found.agent ?? undefined);
    if (!config.csatEnabled) return { outcome: 'off', completed: false };
    if (found.lastInboundAt === null) return { outcome: 'no-customer-message', completed: false };
    if (found.channelStatus !== 'active') return { outcome: 'channel-disabled', completed: false };
    const now = this.deps.clock.now();
    if (!this.deps.messaging.windowOpen(found.kind, found.lastInboundAt, now)) return { outcome: 'window-closed', completed: false };
    const text = surveyRequestText(config.csatQuestion, WINDOW_CHANNELS.has(found.kind));
    const expiresAt = new Date(now.getTime() + SURVEY_VALID_DAYS * 24 * 60 * 60_000);
    try {
      const sent = await this.deps.messaging.requestSatisfaction(conversationId, text, { resolvedAt, question: config.csatQuestion, expiresAt }, completion ? { completeJob: completion } : {});
      return { outcome: sent ? 'sent' : 'already-asked', completed: completion !== undefined };
    } catch (error) {
      // The channel was disabled or the window closed in the meantime: nothing to retry.
      if (error instanceof AppError && error.code === 'CONFLICT') {
        this.deps.logger.info({ conversationId, reason: error.message }, 'satisfaction survey not sent');
        return { outcome: 'window-closed', completed: false };
      }
      throw error;
    }
  }
}
