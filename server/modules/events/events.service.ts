/**
 * The public events' outbox (issue 14 §1, docs/events.md). Domain events that matter to the world
 * outside (a message in, a send failed, a hand-off…) each queue an `events.record` job in the
 * transaction of their change (an EventBus subscription with `withEvent`); the job builds the
 * event's snapshot payload, validates it against its schema (common/api/events.ts), stores it in
 * `events` once (dedupe key) and hands it to the sinks — outbound webhooks, event-triggered
 * automations — in that same transaction, which also completes the job. So an event exists exactly
 * when its change committed, is never stored twice, and every consumer sees it or none does.
 *
 * Order: within one conversation, events take their `seq` in the order of the changes. The job
 * holds the conversation's advisory lock and first stores the conversation's earlier
 * `events.record` jobs still waiting (the changes lock the conversation's row before queueing
 * their jobs, so job ids follow the changes); those jobs later find their event stored.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { exampleEnvelope } from '../../../common/api/event-examples';
import {
  EVENTS_API_VERSION,
  envelopeSchemaFor,
  type EventContact,
  type EventConversation,
  type EventMessage,
  type EventPerformedBy,
  type PublicEventEnvelope,
  type PublicEventType,
  publicEventEnvelope,
} from '../../../common/api/events';
import type { Db } from '../../db/database';
import type { PerformedBy } from '../../events/domain-events';
import type { EventBus } from '../../events/event-bus';
import type { PublicEventSink, StoredPublicEvent } from '../../events/public-events';
import type { Scope } from '../../http/scope';
import { type JobContext, type JobPayload, PermanentJobError } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { detectLead } from '../messaging';
import { type ContactRow, type ConversationRow, type EventRow, EventsRepository, type MessageRow, type NewEventRow } from './events.repository';
import { recordEventJob } from './events.jobs';

export type RecordEventPayload = JobPayload<typeof recordEventJob>;

/** Events are kept this long (docs/events.md, Retention). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 5_000;
const FINAL_EXECUTION_STATUSES = new Set(['success', 'error', 'canceled']);

export interface EventsServiceDeps {
  db: Db;
  events: EventBus;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  /** The portal's absolute URL (conversation links in payloads). */
  publicUrl: string;
  /**
   * The consumers, called inside the transaction that stores each event. The array is read at
   * every event, so app.ts may append sinks after constructing the service.
   */
  sinks: readonly PublicEventSink[];
}

interface Source {
  jobId: number;
  payload: RecordEventPayload;
}

function performedByOut(p: PerformedBy): EventPerformedBy {
  switch (p.kind) {
    case 'user':
      return { kind: 'user', user_id: p.userId };
    case 'automation':
      return { kind: 'automation', automation_id: p.automationId };
    case 'customer':
    case 'ai':
    case 'system':
      return { kind: p.kind };
  }
}

function storedEvent(row: EventRow): StoredPublicEvent {
  const envelope = publicEventEnvelope.parse(row.envelope);
  return {
    id: row.id,
    type: envelope.type,
    seq: row.seq,
    clientId: row.clientId,
    conversationId: row.conversationId,
    performedBy: row.performedBy as PerformedBy,
    envelope,
  };
}

export class EventsService {
  readonly #repository: EventsRepository;
  readonly #logger: Logger;
  #pruneTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: EventsServiceDeps) {
    this.#repository = new EventsRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'public-events' });
  }

  /** The subscriptions that queue the materialiser, and its job handler. */
  register(): void {
    const { events, queue } = this.deps;
    const job = recordEventJob;
    events.subscribe({ event: 'message.created', where: { direction: 'inbound' }, job, keys: ['conversationId', 'messageId'], withEvent: true });
    events.subscribe({ event: 'message.updated', where: { status: 'sent' }, job, keys: ['conversationId', 'messageId', 'status'], withEvent: true });
    events.subscribe({ event: 'message.updated', where: { status: 'failed' }, job, keys: ['conversationId', 'messageId', 'status'], withEvent: true });
    events.subscribe({ event: 'conversation.created', job, keys: ['conversationId'], withEvent: true });
    events.subscribe({ event: 'conversation.escalated', job, keys: ['conversationId', 'reason'], withEvent: true });
    events.subscribe({ event: 'conversation.resolved', job, keys: ['conversationId'], withEvent: true });
    events.subscribe({ event: 'conversation.reopened', job, keys: ['conversationId', 'messageId'], withEvent: true });
    events.subscribe({ event: 'contact.created', job, keys: ['contactId'], withEvent: true });
    events.subscribe({ event: 'lead.qualified', job, keys: ['conversationId', 'messageId'], withEvent: true });
    events.subscribe({ event: 'automation.execution.updated', job, keys: ['executionId'], withEvent: true });
    queue.register(job, async (payload, ctx) => {
      await this.record(payload, ctx);
      ctx.completedInline();
    });
  }

  /**
   * The materialiser (`events.record`): stores the public event(s) of one domain event — after the
   * conversation's earlier waiting ones — hands them to the sinks and completes the job, in one
   * transaction. A payload that does not match its schema is a bug: the job fails at once.
   */
  async record(payload: RecordEventPayload, ctx: Pick<JobContext, 'jobId' | 'completion'>): Promise<StoredPublicEvent[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const mine: Source = { jobId: ctx.jobId, payload };
      let sources: Source[] = [mine];
      if (payload.conversationId) {
        await this.#repository.lockConversation(trx, payload.conversationId);
        const earlier = await this.#repository.pendingJobsBefore(trx, recordEventJob.name, payload.conversationId, ctx.jobId);
        sources = [
          ...earlier.flatMap((job) => {
            const parsed = recordEventJob.payload.safeParse(job.payload);
            return parsed.success ? [{ jobId: job.id, payload: parsed.data }] : [];
          }),
          mine,
        ];
      }
      const rows: NewEventRow[] = [];
      for (const source of sources) {
        try {
          rows.push(...(await this.#build(trx, source)));
        } catch (error) {
          // Another job's bad payload fails that job when it runs, not this one.
          if (source !== mine) {
            this.#logger.warn({ err: error, jobId: source.jobId }, 'an earlier event could not be built; its own job will fail');
            continue;
          }
          throw error;
        }
      }
      const stored = (await this.#repository.insert(trx, rows)).map(storedEvent);
      if (stored.length > 0) {
        for (const sink of this.deps.sinks) await sink.accept(trx, stored);
      }
      await this.#repository.completeJob(trx, ctx.completion);
      return stored;
    });
  }

  /**
   * The newest events of `type` the scope may see (a client user: only their client's), newest
   * first — REST hooks' samples.
   */
  async recent(type: PublicEventType, scope: Scope, limit = 3): Promise<PublicEventEnvelope[]> {
    const rows = await this.#repository.recent(type, scope.clientId, Math.min(Math.max(limit, 1), 100));
    return rows.map((row) => storedEvent(row).envelope);
  }

  /** One stored event, if the scope may see it (`scope` omitted: any). */
  async get(id: string, scope?: Scope): Promise<StoredPublicEvent | undefined> {
    const row = await this.#repository.get(id);
    if (!row) return undefined;
    if (scope && scope.clientId !== null && row.clientId !== scope.clientId) return undefined;
    return storedEvent(row);
  }

  /** The documented example of `type` (common/api/event-examples.ts). */
  exampleEnvelope(type: PublicEventType): PublicEventEnvelope {
    return exampleEnvelope(type);
  }

  /** Deletes events older than the retention (30 days); resolves with how many went. */
  async prune(now: Date = this.deps.clock.now()): Promise<number> {
    const before = new Date(now.getTime() - EVENT_RETENTION_MS);
    let total = 0;
    for (;;) {
      const n = await this.#repository.deleteOlderThan(before, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  /** Prunes now and every hour (every instance may; deleting is idempotent). */
  startRetention(): void {
    if (this.#pruneTimer) return;
    const run = (): void => {
      this.prune().catch((error: unknown) => this.#logger.warn({ err: error }, 'pruning old events failed'));
    };
    run();
    this.#pruneTimer = setInterval(run, PRUNE_EVERY_MS);
    this.#pruneTimer.unref();
  }

  stopRetention(): void {
    if (this.#pruneTimer) clearInterval(this.#pruneTimer);
    this.#pruneTimer = undefined;
  }

  /** The public event rows of one domain event (none when it does not make one, or its subject is gone). */
  async #build(trx: Db, { jobId, payload }: Source): Promise<NewEventRow[]> {
    const make = <T extends PublicEventType>(type: T, dedupeKey: string, clientId: string | null, conversationId: string | null, data: unknown): NewEventRow => {
      const envelope = {
        id: randomUUID(),
        type,
        created_at: payload.at,
        api_version: EVENTS_API_VERSION,
        client_id: clientId,
        performed_by: performedByOut(payload.performedBy),
        data,
      };
      const checked = envelopeSchemaFor(type).safeParse(envelope);
      if (!checked.success) {
        throw new PermanentJobError(`The ${type} event does not match its schema: ${checked.error.message}`, { cause: checked.error });
      }
      return { id: envelope.id, type, dedupeKey, clientId, conversationId, performedBy: payload.performedBy, envelope: checked.data, createdAt: new Date(payload.at) };
    };
    const byJob = `job:${jobId}`;

    switch (payload.event) {
      case 'message.created':
      case 'message.updated': {
        if (!payload.messageId) return [];
        const message = await this.#repository.findMessage(trx, payload.messageId);
        const about = message && (await this.#conversationAndContact(trx, message.conversationId));
        if (!message || !about) return [];
        if (payload.event === 'message.created') {
          if (message.direction !== 'inbound') return [];
          return [make('message.received', `message:${message.id}`, about.conversation.client_id, message.conversationId, { message: this.#message(message), conversation: about.conversation, contact: about.contact })];
        }
        // The status the change set (the message may have moved on since: delivered, read).
        if (payload.status === 'sent') {
          return [make('message.sent', `message:${message.id}`, about.conversation.client_id, message.conversationId, { message: { ...this.#message(message), status: 'sent', error: null }, conversation: about.conversation, contact: about.contact })];
        }
        if (payload.status === 'failed') {
          const error = message.errorMessage ?? 'The platform refused the message';
          // A message may fail again after a person's retry: one event per failure (its job).
          return [make('message.failed', byJob, about.conversation.client_id, message.conversationId, { message: { ...this.#message(message), status: 'failed', error }, conversation: about.conversation, contact: about.contact })];
        }
        return [];
      }
      case 'conversation.created':
      case 'conversation.escalated':
      case 'conversation.resolved':
      case 'conversation.reopened':
      case 'lead.qualified': {
        if (!payload.conversationId) return [];
        const about = await this.#conversationAndContact(trx, payload.conversationId);
        if (!about) return [];
        const { conversation, contact } = about;
        const ids = [conversation.client_id, conversation.id] as const;
        switch (payload.event) {
          case 'conversation.created':
            return [make('conversation.created', `conversation:${conversation.id}`, ...ids, { conversation, contact })];
          case 'conversation.escalated':
            return [make('conversation.escalated', byJob, ...ids, { conversation, contact, reason: payload.reason ?? 'Handed to a person' })];
          case 'conversation.resolved':
            // The status the change set (it may be reopened by the time this runs).
            return [make('conversation.resolved', byJob, ...ids, { conversation: { ...conversation, status: 'resolved' }, contact })];
          case 'conversation.reopened':
            if (!payload.messageId) return [];
            return [make('conversation.reopened', `message:${payload.messageId}`, ...ids, { conversation, contact, message_id: payload.messageId })];
          case 'lead.qualified': {
            const message = payload.messageId ? await this.#repository.findMessage(trx, payload.messageId) : undefined;
            const detected = message ? detectLead(message.content) : null;
            // The signals of the message that made it a lead (the conversation's, should it be gone).
            return [
              make('lead.qualified', `conversation:${conversation.id}`, ...ids, {
                conversation,
                contact: about.contact,
                signals: detected ? detected.signals : about.leadSignals,
                email: detected ? detected.email : about.leadEmail,
                phone: detected ? detected.phone : about.leadPhone,
                intent_excerpt: detected?.intentExcerpt ?? null,
              }),
            ];
          }
        }
        return [];
      }
      case 'contact.created': {
        if (!payload.contactId) return [];
        const contact = await this.#repository.findContact(trx, payload.contactId);
        if (!contact) return [];
        return [make('contact.created', `contact:${contact.id}`, contact.clientId, null, { contact: this.#contact(contact) })];
      }
      case 'automation.execution.updated': {
        if (!payload.executionId) return [];
        const execution = await this.#repository.findExecution(trx, payload.executionId);
        if (!execution || !FINAL_EXECUTION_STATUSES.has(execution.status) || !execution.finishedAt) return [];
        return [
          make('automation.execution.finished', `execution:${execution.id}`, execution.clientId, null, {
            execution: {
              id: execution.id,
              automation_id: execution.automationId,
              automation_name: execution.automationName,
              client_id: execution.clientId,
              status: execution.status,
              started_at: execution.startedAt.toISOString(),
              finished_at: execution.finishedAt.toISOString(),
              error_message: execution.errorMessage,
              started_by_event: execution.triggerEventType,
            },
          }),
        ];
      }
    }
  }

  async #conversationAndContact(
    trx: Db,
    conversationId: string,
  ): Promise<{ conversation: EventConversation; contact: EventContact; leadSignals: ConversationRow['leadSignals']; leadEmail: string | null; leadPhone: string | null } | undefined> {
    // One query: the conversation with its client, channel and contact.
    const conversation = await this.#repository.findConversation(trx, conversationId);
    if (!conversation) return undefined;
    const contact: ContactRow = {
      id: conversation.contactId,
      clientId: conversation.clientId,
      name: conversation.contactName,
      externalId: conversation.contactExternalId,
      platform: conversation.platform,
      createdAt: conversation.contactCreatedAt,
      leadEmail: conversation.leadEmail,
      leadPhone: conversation.leadPhone,
    };
    return {
      conversation: {
        id: conversation.id,
        client_id: conversation.clientId,
        client_name: conversation.clientName,
        channel_id: conversation.channelId,
        platform: conversation.platform,
        status: conversation.status,
        handled_by: conversation.handledBy,
        priority: conversation.priority,
        title: conversation.title,
        is_lead: conversation.isLead,
        created_at: conversation.createdAt.toISOString(),
        url: `${this.deps.publicUrl}/conversations?conversation=${conversation.id}`,
      },
      contact: this.#contact(contact),
      leadSignals: conversation.leadSignals,
      leadEmail: conversation.leadEmail,
      leadPhone: conversation.leadPhone,
    };
  }

  #contact(contact: ContactRow): EventContact {
    return {
      id: contact.id,
      client_id: contact.clientId,
      name: contact.name,
      external_id: contact.externalId,
      email: contact.leadEmail,
      // A WhatsApp contact's id is their number.
      phone: contact.leadPhone ?? (contact.platform === 'whatsapp' && /^\d{6,15}$/u.test(contact.externalId) ? `+${contact.externalId}` : null),
      created_at: contact.createdAt.toISOString(),
    };
  }

  #message(message: MessageRow): EventMessage {
    return {
      id: message.id,
      conversation_id: message.conversationId,
      direction: message.direction,
      sender_type: message.senderType,
      type: message.messageType,
      content: message.content,
      status: message.status,
      error: message.errorMessage,
      created_at: message.createdAt.toISOString(),
    };
  }
}
