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
   * Serialises the outbox's writes for these conversations (until the transaction ends), so their
   * events take their `seq` in the order of the changes. Taken in a fixed order (sorted), so two
   * batches sharing conversations never wait for each other in a circle.
   */
  async lockConversations(trx: Db, conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    const keys = [...new Set(conversationIds)].sort().map((id) => `parley.events:${id}`);
    await sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (select unnest(${keys}::text[]) as k order by 1) as sorted`.execute(trx);
  }

  /**
   * The `events.record` jobs still to run of these conversations that were queued before the
   * given job id of each (`before[i]` for `conversationIds[i]`), not counting `except`, oldest first.
   */
  async pendingJobsBefore(
    trx: Db,
    jobName: string,
    conversationIds: readonly string[],
    before: readonly number[],
    except: readonly number[],
  ): Promise<{ id: number; payload: unknown }[]> {
    if (conversationIds.length === 0) return [];
    const { rows } = await sql<{ id: number; payload: unknown }>`
      select j.id, j.payload from unnest(${conversationIds}::text[], ${before}::bigint[]) as b(conversation_id, before_id)
      join jobs j on j.payload->>'conversationId' = b.conversation_id and j.id < b.before_id
      where j.name = ${jobName} and j.status in ('queued', 'running') and not (j.id = any(${except}::bigint[]))
      order by j.id`.execute(trx);
    return rows;
  }

  /**
   * Stores events in ONE statement, in the given order (`seq` follows it: the rows are numbered as
   * the sorted select yields them); one already stored under its dedupe key is skipped. The stored
   * ones, in seq order.
   */
  async insert(trx: Db, rows: readonly NewEventRow[]): Promise<EventRow[]> {
    if (rows.length === 0) return [];
    const json = JSON.stringify(
      rows.map((row) => ({
        id: row.id,
        type: row.type,
        dedupe_key: row.dedupeKey,
        client_id: row.clientId,
        conversation_id: row.conversationId,
        performed_by: row.performedBy,
        envelope: row.envelope,
        created_at: row.createdAt.toISOString(),
      })),
    );
    const { rows: inserted } = await sql<{ id: string; seq: string; type: string; clientId: string | null; conversationId: string | null; performedBy: string; envelope: string }>`
      insert into events (id, type, dedupe_key, client_id, conversation_id, performed_by, envelope, created_at)
      select (r->>'id')::uuid, r->>'type', r->>'dedupe_key', (r->>'client_id')::uuid, (r->>'conversation_id')::uuid,
        r->'performed_by', r->'envelope', (r->>'created_at')::timestamptz
      from jsonb_array_elements(${json}::jsonb) with ordinality as t(r, i)
      order by i
      on conflict (type, dedupe_key) do nothing
      returning id, seq::text as seq, type, client_id, conversation_id, performed_by::text as performed_by, envelope::text as envelope`.execute(trx);
    return inserted.map(eventRow).sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  }

  /** Completes the jobs (each if its worker still holds it), in one statement. */
  async completeJobs(trx: Db, completions: readonly JobCompletion[]): Promise<void> {
    if (completions.length === 0) return;
    await sql`select parley_complete_job(c) from jsonb_array_elements(${JSON.stringify(completions)}::jsonb) as c`.execute(trx);
  }

  async findConversations(trx: Db, conversationIds: readonly string[]): Promise<ConversationRow[]> {
    if (conversationIds.length === 0) return [];
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
      .where(sql<boolean>`c.id = any(${conversationIds}::uuid[])`)
      .execute();
  }

  async findContacts(trx: Db, contactIds: readonly string[]): Promise<ContactRow[]> {
    if (contactIds.length === 0) return [];
    return trx
      .selectFrom('contacts as ct')
      .innerJoin('channels as ch', 'ch.id', 'ct.channelId')
      .leftJoin('conversations as c', 'c.contactId', 'ct.id')
      .select(['ct.id', 'ct.clientId', 'ct.name', 'ct.externalId', 'ch.kind as platform', 'ct.createdAt', 'c.leadEmail', 'c.leadPhone'])
      .where(sql<boolean>`ct.id = any(${contactIds}::uuid[])`)
      // The newest conversation's lead details come first for each contact.
      .orderBy('ct.id')
      .orderBy(sql`c.created_at desc nulls last`)
      .execute();
  }

  async findMessages(trx: Db, messageIds: readonly string[]): Promise<MessageRow[]> {
    if (messageIds.length === 0) return [];
    return trx
      .selectFrom('messages')
      .select(['id', 'conversationId', 'direction', 'senderType', 'messageType', 'content', 'status', 'errorMessage', 'createdAt'])
      .where(sql<boolean>`id = any(${messageIds}::uuid[])`)
      .execute();
  }

  async findExecutions(trx: Db, executionIds: readonly string[]): Promise<ExecutionRow[]> {
    if (executionIds.length === 0) return [];
    return trx
      .selectFrom('automationExecutions as e')
      .innerJoin('automations as a', 'a.id', 'e.automationId')
      .select(['e.id', 'e.automationId', 'a.name as automationName', 'a.clientId', 'e.status', 'e.startedAt', 'e.finishedAt', 'e.errorMessage', 'e.triggerEventType'])
      .where(sql<boolean>`e.id = any(${executionIds}::uuid[])`)
      .execute();
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
