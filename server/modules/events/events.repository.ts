/**
 * The events module's SQL: the outbox `events` (its own table), the snapshots its payloads are
 * made of — read from the owners' tables in one query each (contacts, conversations, messages:
 * messaging; channels; clients; automations; contact_messages: contact) — and the earlier
 * pending `events.record` jobs of a conversation (the queue's `jobs` table, read only;
 * docs/ARCHITECTURE.md, One owner per table).
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

/** A visitor's message from the website's contact form (the contact module's `contact_messages`). */
export interface ContactMessageRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  message: string;
  createdAt: Date;
}

/** What `prepare` read. */
export interface Prepared {
  pending: { id: number; payload: unknown }[];
  conversations: ConversationRow[];
  messages: MessageRow[];
  contacts: ContactRow[];
  executions: ExecutionRow[];
  contactMessages: ContactMessageRow[];
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
   * Locks the batch's conversations and reads the earlier waiting `events.record` jobs of each and
   * every snapshot the batch's payloads and theirs need — one round trip (`parley_events_prepare`,
   * events.sql.ts). `before[i]` is the batch's last job id of `conversationIds[i]`; `except`, the
   * batch's own job ids.
   */
  async prepare(
    trx: Db,
    input: { conversationIds: readonly string[]; before: readonly number[]; except: readonly number[]; payloads: readonly unknown[] },
  ): Promise<Prepared> {
    const { rows } = await sql<{ result: string }>`select parley_events_prepare(${JSON.stringify(input)}::jsonb)::text as result`.execute(trx);
    const raw = JSON.parse(rows[0]!.result) as {
      pending: { id: number; payload: unknown }[];
      conversations: (Omit<ConversationRow, 'createdAt' | 'contactCreatedAt'> & { createdAt: string; contactCreatedAt: string })[];
      messages: (Omit<MessageRow, 'createdAt'> & { createdAt: string })[];
      contacts: (Omit<ContactRow, 'createdAt'> & { createdAt: string })[];
      executions: (Omit<ExecutionRow, 'startedAt' | 'finishedAt'> & { startedAt: string; finishedAt: string | null })[];
      contactMessages: (Omit<ContactMessageRow, 'createdAt'> & { createdAt: string })[];
    };
    return {
      pending: raw.pending.map((job) => ({ id: Number(job.id), payload: job.payload })),
      conversations: raw.conversations.map((c) => ({ ...c, createdAt: new Date(c.createdAt), contactCreatedAt: new Date(c.contactCreatedAt) })),
      messages: raw.messages.map((m) => ({ ...m, createdAt: new Date(m.createdAt) })),
      contacts: raw.contacts.map((c) => ({ ...c, createdAt: new Date(c.createdAt) })),
      executions: raw.executions.map((e) => ({ ...e, startedAt: new Date(e.startedAt), finishedAt: e.finishedAt === null ? null : new Date(e.finishedAt) })),
      contactMessages: raw.contactMessages.map((m) => ({ ...m, createdAt: new Date(m.createdAt) })),
    };
  }

  /**
   * Stores events in the given order (`seq` follows it), skipping one already stored under its
   * dedupe key, and completes the jobs (each if its worker still holds it) — one round trip
   * (`parley_events_store`). The stored ones, in seq order.
   */
  async store(trx: Db, rows: readonly NewEventRow[], completions: readonly JobCompletion[]): Promise<EventRow[]> {
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
    const { rows: result } = await sql<{ result: string }>`select parley_events_store(${json}::jsonb, ${JSON.stringify(completions)}::jsonb)::text as result`.execute(trx);
    const stored = JSON.parse(result[0]!.result) as { id: string; seq: string; type: string; clientId: string | null; conversationId: string | null; performedBy: string; envelope: string }[];
    return stored.map(eventRow);
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

  /**
   * The newest subjects of `type` in the live tables, as the domain events that would make their
   * events (the `events.record` payload: what `prepare` reads the snapshots of), newest first —
   * samples of a type with no stored event (nothing listened when they happened). `clientId` null:
   * every client's. conversation.reopened has no trace to read: none.
   */
  async latestSubjects(type: string, clientId: string | null, limit: number): Promise<Record<string, unknown>[]> {
    const db = this.db;
    const at = (date: Date) => date.toISOString();
    switch (type) {
      case 'message.received':
      case 'message.sent':
      case 'message.failed': {
        let q = db.selectFrom('messages').select(['id', 'conversationId', 'createdAt']).orderBy('createdAt', 'desc').limit(limit);
        q = type === 'message.received' ? q.where('direction', '=', 'inbound') : q.where('direction', '=', 'outbound');
        if (type === 'message.sent') q = q.where('status', 'in', ['sent', 'delivered', 'read']);
        if (type === 'message.failed') q = q.where('status', '=', 'failed');
        if (clientId !== null) q = q.where('clientId', '=', clientId);
        return (await q.execute()).map((m) => ({
          event: type === 'message.received' ? 'message.created' : 'message.updated',
          ...(type === 'message.received' ? {} : { status: type === 'message.sent' ? 'sent' : 'failed' }),
          conversationId: m.conversationId,
          messageId: m.id,
          performedBy: type === 'message.received' ? { kind: 'customer' } : { kind: 'system' },
          at: at(m.createdAt),
        }));
      }
      case 'conversation.created':
      case 'conversation.escalated':
      case 'conversation.resolved':
      case 'lead.qualified': {
        let q = db.selectFrom('conversations').select(['id', 'createdAt', 'updatedAt', 'leadAt', 'escalationReason']).limit(limit);
        if (type === 'conversation.created') q = q.orderBy('createdAt', 'desc');
        if (type === 'conversation.escalated') q = q.where('status', '=', 'escalated').orderBy('updatedAt', 'desc');
        if (type === 'conversation.resolved') q = q.where('status', '=', 'resolved').orderBy('updatedAt', 'desc');
        if (type === 'lead.qualified') q = q.where('isLead', '=', true).orderBy('leadAt', 'desc');
        if (clientId !== null) q = q.where('clientId', '=', clientId);
        return (await q.orderBy('id', 'desc').execute()).map((c) => ({
          event: type,
          conversationId: c.id,
          ...(type === 'conversation.escalated' && c.escalationReason ? { reason: c.escalationReason } : {}),
          performedBy: type === 'conversation.created' || type === 'lead.qualified' ? { kind: 'customer' } : { kind: 'system' },
          at: at(type === 'conversation.created' ? c.createdAt : type === 'lead.qualified' ? (c.leadAt ?? c.updatedAt) : c.updatedAt),
        }));
      }
      case 'contact.created': {
        let q = db.selectFrom('contacts').select(['id', 'createdAt']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit);
        if (clientId !== null) q = q.where('clientId', '=', clientId);
        return (await q.execute()).map((c) => ({ event: type, contactId: c.id, performedBy: { kind: 'customer' }, at: at(c.createdAt) }));
      }
      case 'automation.execution.finished': {
        let q = db
          .selectFrom('automationExecutions as e')
          .innerJoin('automations as a', 'a.id', 'e.automationId')
          .select(['e.id', 'e.finishedAt'])
          .where('e.status', 'in', ['success', 'error', 'canceled'])
          .where('e.finishedAt', 'is not', null)
          .orderBy('e.finishedAt', 'desc')
          .limit(limit);
        if (clientId !== null) q = q.where('a.clientId', '=', clientId);
        return (await q.execute()).map((e) => ({ event: 'automation.execution.updated', executionId: e.id, performedBy: { kind: 'system' }, at: at(e.finishedAt!) }));
      }
      case 'contact_form.submitted': {
        // Installation-wide: no client's scope holds a contact message.
        if (clientId !== null) return [];
        const rows = await db.selectFrom('contactMessages').select(['id', 'createdAt']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
        return rows.map((m) => ({ event: 'contact_message.created', messageId: m.id, performedBy: { kind: 'customer' }, at: at(m.createdAt) }));
      }
      default:
        return [];
    }
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
