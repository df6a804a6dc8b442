/**
 * The events module's SQL: the outbox `events` (its own table), the snapshots its payloads are
 * made of — read from the owners' tables in one query each (contacts, conversations, messages:
 * messaging; channels; clients; automations) — and the earlier pending `events.record` jobs of a
 * conversation (the queue's `jobs` table, read only; docs/ARCHITECTURE.md, One owner per table).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { AutomationExecutionStatus, ChannelKind, ConversationStatus, HandledBy, LeadSignal, MessageStatus, MessageType, Priority, SenderType } from '../../db/schema';
import type { JobCompletion } from '../../jobs/define-job';

export interface ConversationRow {
  id: string;
  clientId: string;
  clientName: string;
  channelId: string;
  platform: ChannelKind;
  status: ConversationStatus;
  handledBy: HandledBy;
  priority: Priority;
  title: string | null;
  isLead: boolean;
  leadEmail: string | null;
  leadPhone: string | null;
  leadSignals: LeadSignal[];
  createdAt: Date;
  contactId: string;
  contactName: string | null;
  contactExternalId: string;
  contactCreatedAt: Date;
}

export interface ContactRow {
  id: string;
  clientId: string;
  name: string | null;
  externalId: string;
  platform: ChannelKind;
  createdAt: Date;
  /** What its newest conversation captured as a lead. */
  leadEmail: string | null;
  leadPhone: string | null;
}

export interface MessageRow {
  id: string;
  conversationId: string;
  direction: 'inbound' | 'outbound';
  senderType: SenderType;
  messageType: MessageType;
  content: string;
  status: MessageStatus;
  errorMessage: string | null;
  createdAt: Date;
}

export interface ExecutionRow {
  id: string;
  automationId: string;
  automationName: string;
  clientId: string | null;
  status: AutomationExecutionStatus;
  startedAt: Date;
  finishedAt: Date | null;
  errorMessage: string | null;
  /** The public event that started it (event-triggered automations), else null. */
  triggerEventType: string | null;
}

export interface NewEventRow {
  id: string;
  type: string;
  dedupeKey: string;
  clientId: string | null;
  conversationId: string | null;
  performedBy: unknown;
  envelope: unknown;
  createdAt: Date;
}

export interface EventRow {
  id: string;
  seq: string;
  type: string;
  clientId: string | null;
  conversationId: string | null;
  performedBy: unknown;
  envelope: unknown;
}

// jsonb read as text: the CamelCasePlugin would rename the snake_case keys of the envelope.
const EVENT_COLUMNS = [
  'id',
  sql<string>`seq::text`.as('seq'),
  'type',
  'clientId',
  'conversationId',
  sql<string>`performed_by::text`.as('performedBy'),
  sql<string>`envelope::text`.as('envelope'),
] as const;

function eventRow(row: { id: string; seq: string; type: string; clientId: string | null; conversationId: string | null; performedBy: string; envelope: string }): EventRow {
  return { ...row, performedBy: JSON.parse(row.performedBy) as unknown, envelope: JSON.parse(row.envelope) as unknown };
}

export class EventsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serialises the outbox's writes for one conversation (until the transaction ends), so its
   * events take their `seq` in the order of the changes.
   */
  async lockConversation(trx: Db, conversationId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`parley.events:${conversationId}`}, 0))`.execute(trx);
  }

  /** The conversation's `events.record` jobs still to run that were queued before `beforeId`, oldest first. */
  async pendingJobsBefore(trx: Db, jobName: string, conversationId: string, beforeId: number): Promise<{ id: number; payload: unknown }[]> {
    const { rows } = await sql<{ id: number; payload: unknown }>`
      select id, payload from jobs
      where name = ${jobName} and status in ('queued', 'running') and payload->>'conversationId' = ${conversationId} and id < ${beforeId}
      order by id`.execute(trx);
    return rows;
  }

  /** Stores events (in order: `seq` follows); one already stored under its dedupe key is skipped. */
  async insert(trx: Db, rows: readonly NewEventRow[]): Promise<EventRow[]> {
    const stored: EventRow[] = [];
    // One by one, so seq follows the given order (a multi-row insert does not promise it).
    for (const row of rows) {
      const inserted = await trx
        .insertInto('events')
        .values({
          id: row.id,
          type: row.type,
          dedupeKey: row.dedupeKey,
          clientId: row.clientId,
          conversationId: row.conversationId,
          performedBy: JSON.stringify(row.performedBy),
          envelope: JSON.stringify(row.envelope),
          createdAt: row.createdAt,
        })
        .onConflict((oc) => oc.columns(['type', 'dedupeKey']).doNothing())
        .returning(EVENT_COLUMNS)
        .executeTakeFirst();
      if (inserted) stored.push(eventRow(inserted));
    }
    return stored;
  }

  async completeJob(trx: Db, completion: JobCompletion): Promise<void> {
    await sql`select parley_complete_job(${JSON.stringify(completion)}::jsonb)`.execute(trx);
  }

  async findConversation(trx: Db, conversationId: string): Promise<ConversationRow | undefined> {
    return trx
      .selectFrom('conversations as c')
      .innerJoin('clients as cl', 'cl.id', 'c.clientId')
      .innerJoin('channels as ch', 'ch.id', 'c.channelId')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .select([
        'c.id',
        'c.clientId',
        'cl.companyName as clientName',
        'c.channelId',
        'ch.kind as platform',
        'c.status',
        'c.handledBy',
        'c.priority',
        'c.title',
        'c.isLead',
        'c.leadEmail',
        'c.leadPhone',
        'c.leadSignals',
        'c.createdAt',
        'c.contactId',
        'ct.name as contactName',
        'ct.externalId as contactExternalId',
        'ct.createdAt as contactCreatedAt',
      ])
      .where('c.id', '=', conversationId)
      .executeTakeFirst();
  }

  async findContact(trx: Db, contactId: string): Promise<ContactRow | undefined> {
    return trx
      .selectFrom('contacts as ct')
      .innerJoin('channels as ch', 'ch.id', 'ct.channelId')
      .leftJoin('conversations as c', 'c.contactId', 'ct.id')
      .select(['ct.id', 'ct.clientId', 'ct.name', 'ct.externalId', 'ch.kind as platform', 'ct.createdAt', 'c.leadEmail', 'c.leadPhone'])
      .where('ct.id', '=', contactId)
      .executeTakeFirst();
  }

  async findMessage(trx: Db, messageId: string): Promise<MessageRow | undefined> {
    return trx
      .selectFrom('messages')
      .select(['id', 'conversationId', 'direction', 'senderType', 'messageType', 'content', 'status', 'errorMessage', 'createdAt'])
      .where('id', '=', messageId)
      .executeTakeFirst();
  }

  async findExecution(trx: Db, executionId: string): Promise<ExecutionRow | undefined> {
    return trx
      .selectFrom('automationExecutions as e')
      .innerJoin('automations as a', 'a.id', 'e.automationId')
      .select(['e.id', 'e.automationId', 'a.name as automationName', 'a.clientId', 'e.status', 'e.startedAt', 'e.finishedAt', 'e.errorMessage', 'e.triggerEventType'])
      .where('e.id', '=', executionId)
      .executeTakeFirst();
  }

  /** Newest first; `clientId` null: every client's. */
  async recent(type: string, clientId: string | null, limit: number): Promise<EventRow[]> {
    let q = this.db
      .selectFrom('events')
      .select(EVENT_COLUMNS)
      .where('type', '=', type)
      .orderBy('seq', 'desc')
      .limit(limit);
    if (clientId !== null) q = q.where('clientId', '=', clientId);
    return (await q.execute()).map(eventRow);
  }

  async get(id: string): Promise<EventRow | undefined> {
    const row = await this.db.selectFrom('events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && eventRow(row);
  }

  /** Deletes events created before `before`, at most `limit` (the oldest); resolves with how many. */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      with gone as (
        delete from events where id in (select id from events where created_at < ${before} order by created_at limit ${limit})
        returning 1
      )
      select count(*)::int as n from gone`.execute(this.db);
    return rows[0]?.n ?? 0;
  }
}
