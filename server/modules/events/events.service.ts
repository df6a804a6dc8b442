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
import type { PublicEventSink, SinkOutcome, StoredPublicEvent } from '../../events/public-events';
import type { Scope } from '../../http/scope';
import { type JobCompletion, type JobContext, type JobPayload, PermanentJobError } from '../../jobs/define-job';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { deleteInBatches, RetentionTimer } from '../../lib/retention';
import { detectLead } from '../messaging';
import {
  type ContactMessageRow,
  type ContactRow,
  type ConversationRow,
  type EventRow,
  EventsRepository,
  type ExecutionRow,
  type MessageRow,
  type NewEventRow,
  type Prepared,
} from './events.repository';
import { recordEventJob } from './events.jobs';

export type RecordEventPayload = JobPayload<typeof recordEventJob>;

/** Events are kept this long (docs/events.md, Retention). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;
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

/** An `events.record` job waiting for the next batch (EventsService.#drain). */
interface Waiting {
  jobId: number;
  payload: RecordEventPayload;
  completion: JobCompletion;
  resolve(events: StoredPublicEvent[]): void;
  reject(error: unknown): void;
}

/** A batch's snapshots by id (from `EventsRepository.prepare`). */
interface Snapshots {
  conversations: Map<string, ConversationRow>;
  messages: Map<string, MessageRow>;
  contacts: Map<string, ContactRow>;
  executions: Map<string, ExecutionRow>;
  contactMessages: Map<string, ContactMessageRow>;
}

function firstById<T extends { id: string }>(rows: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) if (!map.has(row.id)) map.set(row.id, row);
  return map;
}

function snapshotsOf(prepared: Prepared): Snapshots {
  return {
    conversations: firstById(prepared.conversations),
    messages: firstById(prepared.messages),
    contacts: firstById(prepared.contacts),
    executions: firstById(prepared.executions),
    contactMessages: firstById(prepared.contactMessages),
  };
}

/** An event row and the job whose source made it. */
type BuiltRow = NewEventRow & { jobId: number };

/** At most this many jobs are stored in one transaction. */
const MAX_BATCH = 100;
/**
 * How long the first job of a batch waits for others. A batch costs about the same few statements
 * whatever its size, so under load this turns many small transactions into few (on PGlite, where
 * every statement takes the one core, it is what keeps the outbox from slowing the reply path);
 * when idle it only delays an event's storing — and so its webhook delivery — by this much.
 */
const BATCH_WINDOW_MS = 15;
/**
 * Batches stored at once by one instance: one in the database while the next is being built keeps
 * both the process and the database busy; more would only contend for the same locks.
 */
const MAX_BATCHES_IN_FLIGHT = 2;

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
  readonly #waiting: Waiting[] = [];
  #inFlight = 0;
  #windowTimer: NodeJS.Timeout | undefined;
  readonly #retention: RetentionTimer;

  constructor(private readonly deps: EventsServiceDeps) {
    this.#repository = new EventsRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'public-events' });
    this.#retention = new RetentionTimer(() => this.prune(), this.#logger, 'pruning old events failed');
  }

  /**
   * The subscriptions that queue the materialiser, and its job handler. Call once the sinks are
   * all there: their `interest` functions become the subscriptions' gate (none when a sink has no
   * such function — it always wants events).
   */
  register(): void {
    const { events, queue, sinks } = this.deps;
    const job = recordEventJob;
    const interests = sinks.map((sink) => sink.interest);
    const gate = interests.every((name): name is string => name !== undefined) ? interests : undefined;
    events.subscribe({ event: 'message.created', where: { direction: 'inbound' }, job, keys: ['conversationId', 'messageId'], withEvent: true, gate });
    events.subscribe({ event: 'message.updated', where: { status: 'sent' }, job, keys: ['conversationId', 'messageId', 'status'], withEvent: true, gate });
    events.subscribe({ event: 'message.updated', where: { status: 'failed' }, job, keys: ['conversationId', 'messageId', 'status'], withEvent: true, gate });
    events.subscribe({ event: 'conversation.created', job, keys: ['conversationId'], withEvent: true, gate });
    events.subscribe({ event: 'conversation.escalated', job, keys: ['conversationId', 'reason'], withEvent: true, gate });
    events.subscribe({ event: 'conversation.resolved', job, keys: ['conversationId'], withEvent: true, gate });
    events.subscribe({ event: 'conversation.reopened', job, keys: ['conversationId', 'messageId'], withEvent: true, gate });
    events.subscribe({ event: 'contact.created', job, keys: ['contactId'], withEvent: true, gate });
    events.subscribe({ event: 'lead.qualified', job, keys: ['conversationId', 'messageId'], withEvent: true, gate });
    events.subscribe({ event: 'automation.execution.updated', job, keys: ['executionId'], withEvent: true, gate });
    // The website's contact form (the contact module publishes it in the transaction that stores the message).
    events.subscribe({ event: 'contact_message.created', job, keys: ['messageId'], withEvent: true, gate });
    queue.register(job, async (payload, ctx) => {
      // Waiting for the batch holds no slot: the jobs it waits for (and the rest) may start.
      ctx.detach();
      await this.#enqueueForBatch({ jobId: ctx.jobId, payload, completion: ctx.completion });
      ctx.completedInline();
    });
  }

  /**
   * Group commit: the jobs that start within `BATCH_WINDOW_MS` of each other, or while a batch is
   * being stored, go in one batch (up to `MAX_BATCH`) — under load, one transaction of ~8
   * statements stores many events instead of ~9 statements each.
   */
  #enqueueForBatch(item: Omit<Waiting, 'resolve' | 'reject'>): Promise<StoredPublicEvent[]> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ ...item, resolve, reject });
      // The first job of a batch waits BATCH_WINDOW_MS for others (or until MAX_BATCH are there).
      if (this.#waiting.length >= MAX_BATCH) {
        clearTimeout(this.#windowTimer);
        this.#windowTimer = undefined;
        this.#drain();
      } else {
        this.#windowTimer ??= setTimeout(() => {
          this.#windowTimer = undefined;
          this.#drain();
        }, BATCH_WINDOW_MS);
      }
    });
  }

  #drain(): void {
    while (this.#inFlight < MAX_BATCHES_IN_FLIGHT && this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, MAX_BATCH);
      this.#inFlight += 1;
      void this.#runBatch(batch).finally(() => {
        this.#inFlight -= 1;
        this.#drain();
      });
    }
  }

  async #runBatch(batch: readonly Waiting[]): Promise<void> {
    try {
      const stored = await this.recordBatch(batch);
      for (const item of batch) item.resolve(stored.get(item.jobId) ?? []);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One job's problem (a payload that does not match its schema, say) must not fail the others:
      // each is stored on its own, and only the faulty one fails.
      this.#logger.info({ err: error, jobs: batch.length }, 'a batch of events could not be stored together; storing them one by one');
      for (const item of batch) {
        try {
          item.resolve((await this.recordBatch([item])).get(item.jobId) ?? []);
        } catch (single) {
          item.reject(single);
        }
      }
    }
  }

  /**
   * The materialiser (`events.record`): stores the public event(s) of one domain event — after the
   * conversation's earlier waiting ones — hands them to the sinks and completes the job, in one
   * transaction. A payload that does not match its schema is a bug: the job fails at once.
   */
  async record(payload: RecordEventPayload, ctx: Pick<JobContext, 'jobId' | 'completion'>): Promise<StoredPublicEvent[]> {
    return (await this.recordBatch([{ jobId: ctx.jobId, payload, completion: ctx.completion }])).get(ctx.jobId) ?? [];
  }

  /**
   * Stores the public events of several `events.record` jobs in ONE transaction: the
   * conversations' locks (sorted), their earlier waiting jobs (stored first, in the order of the
   * changes: job ids follow them), the snapshots read with one query per kind, one insert, the
   * sinks called once, and the jobs completed. Resolves with each job's stored events (by job id).
   * Throws when any of the batch's own jobs cannot be built (the caller then stores them one by one).
   */
  async recordBatch(batch: readonly { jobId: number; payload: RecordEventPayload; completion: JobCompletion }[]): Promise<Map<number, StoredPublicEvent[]>> {
    const outcomes: SinkOutcome[] = [];
    let result: Map<number, StoredPublicEvent[]>;
    try {
      result = await this.deps.db.transaction().execute(async (trx) => {
        const own = new Set(batch.map((item) => item.jobId));
        const lastOf = new Map<string, number>();
        for (const { jobId, payload } of batch) {
          if (payload.conversationId) lastOf.set(payload.conversationId, Math.max(lastOf.get(payload.conversationId) ?? 0, jobId));
        }
        const prepared = await this.#repository.prepare(trx, {
          conversationIds: [...lastOf.keys()],
          before: [...lastOf.values()],
          except: [...own],
          payloads: batch.map((item) => item.payload),
        });
        const sources: Source[] = batch.map(({ jobId, payload }) => ({ jobId, payload }));
        for (const job of prepared.pending) {
          const parsed = recordEventJob.payload.safeParse(job.payload);
          if (parsed.success) sources.push({ jobId: job.id, payload: parsed.data });
        }
        // In the order of the changes (job ids follow them).
        sources.sort((a, b) => a.jobId - b.jobId);
        const snapshots = snapshotsOf(prepared);
        const rows: BuiltRow[] = [];
        for (const source of sources) {
          try {
            rows.push(...this.#build(snapshots, source));
          } catch (error) {
            // Another job's bad payload fails that job when it runs, not this batch.
            if (!own.has(source.jobId)) {
              this.#logger.warn({ err: error, jobId: source.jobId }, 'an earlier event could not be built; its own job will fail');
              continue;
            }
            throw error;
          }
        }
        const stored = (
          await this.#repository.store(
            trx,
            rows,
            batch.map((item) => item.completion),
          )
        ).map(storedEvent);
        if (stored.length > 0) {
          for (const sink of this.deps.sinks) {
            const outcome = await sink.accept(trx, stored);
            if (outcome) outcomes.push(outcome);
          }
        }
        const byId = new Map(stored.map((event) => [event.id, event]));
        const mine = new Map<number, StoredPublicEvent[]>();
        for (const row of rows) {
          const event = byId.get(row.id);
          if (event && own.has(row.jobId)) mine.set(row.jobId, [...(mine.get(row.jobId) ?? []), event]);
        }
        return mine;
      });
    } catch (error) {
      for (const outcome of outcomes) outcome.rolledBack();
      throw error;
    }
    for (const outcome of outcomes) outcome.committed();
    return result;
  }

  /**
   * The newest events of `type` the scope may see (a client user: only their client's), newest
   * first — REST hooks' samples.
   */
  async recent(type: PublicEventType, scope: Scope, limit = 3): Promise<PublicEventEnvelope[]> {
    const n = Math.min(Math.max(limit, 1), 100);
    const rows = await this.#repository.recent(type, scope.clientId, n);
    if (rows.length > 0) return rows.map((row) => storedEvent(row).envelope);
    return this.#fromLiveData(type, scope, n);
  }

  /**
   * Envelopes of `type` built from the newest subjects in the live tables (a message, a
   * conversation, a contact, an execution), as the outbox would have built them: samples for a
   * type of which no event is stored because nothing listened when they happened (docs/events.md,
   * "Only when someone listens"). Not stored; each has a new id.
   */
  async #fromLiveData(type: PublicEventType, scope: Scope, limit: number): Promise<PublicEventEnvelope[]> {
    const payloads = (await this.#repository.latestSubjects(type, scope.clientId, limit)).flatMap((raw) => {
      const parsed = recordEventJob.payload.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    });
    if (payloads.length === 0) return [];
    const prepared = await this.#repository.prepare(this.deps.db, { conversationIds: [], before: [], except: [], payloads });
    const snapshots = snapshotsOf(prepared);
    const envelopes: PublicEventEnvelope[] = [];
    for (const payload of payloads) {
      try {
        for (const row of this.#build(snapshots, { jobId: 0, payload })) if (row.type === type) envelopes.push(row.envelope as PublicEventEnvelope);
      } catch (error) {
        this.#logger.warn({ err: error, type }, 'a sample could not be built from live data');
      }
    }
    return envelopes;
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
    return deleteInBatches((limit) => this.#repository.deleteOlderThan(before, limit));
  }

  /** Prunes now and every hour (every instance may; deleting is idempotent). */
  startRetention(): void {
    this.#retention.start();
  }

  stopRetention(): void {
    this.#retention.stop();
  }

  /** The public event rows of one domain event (none when it does not make one, or its subject is gone). */
  #build(snapshots: Snapshots, { jobId, payload }: Source): BuiltRow[] {
    const make = <T extends PublicEventType>(type: T, dedupeKey: string, clientId: string | null, conversationId: string | null, data: unknown): BuiltRow => {
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
      return { jobId, id: envelope.id, type, dedupeKey, clientId, conversationId, performedBy: payload.performedBy, envelope: checked.data, createdAt: new Date(payload.at) };
    };
    const byJob = `job:${jobId}`;

    switch (payload.event) {
      case 'message.created':
      case 'message.updated': {
        if (!payload.messageId) return [];
        const message = snapshots.messages.get(payload.messageId);
        const about = message && this.#conversationAndContact(snapshots, message.conversationId);
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
        const about = this.#conversationAndContact(snapshots, payload.conversationId);
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
            // By the customer's message (once per message), or by a person or a workflow (once per change).
            return [make('conversation.reopened', payload.messageId ? `message:${payload.messageId}` : byJob, ...ids, { conversation, contact, message_id: payload.messageId ?? null })];
          case 'lead.qualified': {
            const message = payload.messageId ? snapshots.messages.get(payload.messageId) : undefined;
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
        const contact = snapshots.contacts.get(payload.contactId);
        if (!contact) return [];
        return [make('contact.created', `contact:${contact.id}`, contact.clientId, null, { contact: this.#contact(contact) })];
      }
      case 'automation.execution.updated': {
        if (!payload.executionId) return [];
        const execution = snapshots.executions.get(payload.executionId);
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
      case 'contact_message.created': {
        // The website's contact form: installation-wide (no client, no conversation), once per message.
        if (!payload.messageId) return [];
        const message = snapshots.contactMessages.get(payload.messageId);
        if (!message) return [];
        return [
          make('contact_form.submitted', `contact_message:${message.id}`, null, null, {
            contact_message: {
              id: message.id,
              first_name: message.firstName,
              last_name: message.lastName,
              email: message.email,
              company: message.company,
              message: message.message,
              submitted_at: message.createdAt.toISOString(),
            },
          }),
        ];
      }
    }
  }

  #conversationAndContact(
    snapshots: Snapshots,
    conversationId: string,
  ): { conversation: EventConversation; contact: EventContact; leadSignals: ConversationRow['leadSignals']; leadEmail: string | null; leadPhone: string | null } | undefined {
    // Read with its client, channel and contact (findConversations).
    const conversation = snapshots.conversations.get(conversationId);
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
