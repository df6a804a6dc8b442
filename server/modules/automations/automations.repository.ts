/**
 * The automations module's tables: automations, automation_executions, automation_messages. Every
 * read a user makes takes a scope — `{ clientId }` sees that client's automations only (a client
 * user; an automation without a client is staff-only), `{ clientId: null }` sees all (staff). An
 * execution or message is visible exactly when its automation is.
 */
import { type RawBuilder, type Selectable, sql } from 'kysely';
import { type Db, PREPARED } from '../../db/database';
import type {
  AutomationExecutionsTable,
  AutomationExecutionStatus,
  AutomationMessagesTable,
  AutomationStartedHow,
  AutomationStatus,
  AutomationsTable,
} from '../../db/schema';
import { json } from '../../db/sql';
import type { Scope } from '../../http/scope';

export type AutomationRow = Omit<Selectable<AutomationsTable>, 'signingSecret' | 'triggerEvents'>;
export type ExecutionRow = Omit<Selectable<AutomationExecutionsTable>, 'callbackTokenHash' | 'triggeredAt' | 'triggerEvent'>;
export type MessageRow = Selectable<AutomationMessagesTable>;

const AUTOMATION_COLUMNS = [
  'a.id',
  'a.name',
  'a.description',
  'a.workflowId',
  'a.workflowUrl',
  'a.status',
  'a.config',
  'a.clientId',
  'a.createdBy',
  'a.createdAt',
  'a.updatedAt',
] as const;

const EXECUTION_FIELDS = [
  'id',
  'automationId',
  'status',
  'startedAt',
  'finishedAt',
  'durationMs',
  'errorMessage',
  'executionId',
  'startedHow',
  'startedBy',
  'callbackTokenExpiresAt',
  'lastHeardAt',
  'triggerEventId',
  'triggerEventType',
] as const;
const EXECUTION_COLUMNS = EXECUTION_FIELDS.map((f) => `e.${f}` as const);

export interface NewAutomation {
  name: string;
  description: string | null;
  workflowId: string | null;
  workflowUrl: string | null;
  status: AutomationStatus;
  config: Record<string, unknown>;
  clientId: string | null;
  createdBy: string | null;
  sealedSecret: string;
}

export type AutomationChanges = Partial<Omit<NewAutomation, 'createdBy' | 'sealedSecret'>>;

/** What the run and callback paths need about an execution and its automation. */
export interface ExecutionForUpdate extends ExecutionRow {
  callbackTokenHash: string;
  /** The envelope of the event that started it (started_how 'event'). */
  triggerEvent: Record<string, unknown> | null;
  triggeredAt: Date | null;
  clientId: string | null;
  workflowId: string | null;
  workflowUrl: string | null;
  config: Record<string, unknown>;
  signingSecret: string;
}

export class AutomationsRepository {
  constructor(private readonly db: Db) {}

  #automations(db: Db, scope: Scope) {
    let q = db.selectFrom('automations as a').select(AUTOMATION_COLUMNS);
    if (scope.clientId !== null) q = q.where('a.clientId', '=', scope.clientId);
    return q;
  }

  async list(scope: Scope): Promise<AutomationRow[]> {
    return this.#automations(this.db, scope).orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc').execute();
  }

  async find(id: string, scope: Scope, db: Db = this.db): Promise<AutomationRow | undefined> {
    return this.#automations(db, scope).where('a.id', '=', id).executeTakeFirst();
  }

  async insert(row: NewAutomation): Promise<string> {
    const inserted = await this.db
      .insertInto('automations')
      .values({
        name: row.name,
        description: row.description,
        workflowId: row.workflowId,
        workflowUrl: row.workflowUrl,
        status: row.status,
        config: json(row.config),
        clientId: row.clientId,
        createdBy: row.createdBy,
        signingSecret: row.sealedSecret,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** Changes the given fields; false when there is no such automation in the scope. */
  async update(id: string, changes: AutomationChanges & { sealedSecret?: string }, scope: Scope): Promise<boolean> {
    let q = this.db
      .updateTable('automations')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.workflowId !== undefined ? { workflowId: changes.workflowId } : {}),
        ...(changes.workflowUrl !== undefined ? { workflowUrl: changes.workflowUrl } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.config !== undefined ? { config: json(changes.config) } : {}),
        ...(changes.clientId !== undefined ? { clientId: changes.clientId } : {}),
        ...(changes.sealedSecret !== undefined ? { signingSecret: changes.sealedSecret } : {}),
        updatedAt: sql<Date>`now()`,
      })
      .where('id', '=', id);
    if (scope.clientId !== null) q = q.where('clientId', '=', scope.clientId);
    const result = await q.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('automations').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  // Executions

  async insertExecution(
    row: { automationId: string; startedAt: Date; startedHow: AutomationStartedHow; startedBy: string | null; callbackTokenHash: string; id: string },
    db: Db,
  ): Promise<ExecutionRow> {
    return db
      .insertInto('automationExecutions')
      .values({
        id: row.id,
        automationId: row.automationId,
        status: 'running',
        startedAt: row.startedAt,
        startedHow: row.startedHow,
        startedBy: row.startedBy,
        callbackTokenHash: row.callbackTokenHash,
        lastHeardAt: row.startedAt,
      })
      .returning(EXECUTION_FIELDS)
      .executeTakeFirstOrThrow();
  }

  /**
   * The active automations that may be started by events of these types and clients, in one
   * indexed query (the GIN index on `trigger_events` of the active ones): those of the events'
   * clients and those without a client (staff automations receive every client's events). The
   * caller matches each event against the few returned.
   */
  async findTriggerCandidates(db: Db, types: readonly string[], clientIds: readonly string[]): Promise<{ id: string; clientId: string | null; config: Record<string, unknown> }[]> {
    return db
      .selectFrom('automations as a')
      .select(['a.id', 'a.clientId', 'a.config'])
      .where('a.status', '=', 'active')
      .where(sql<boolean>`a.trigger_events ?| ${[...types]}::text[]`)
      .where(sql<boolean>`(a.client_id is null or a.client_id = any(${[...clientIds]}::uuid[]))`)
      // A client that paused its automation starts none of its own (docs/client-dashboard.md).
      .where(sql<boolean>`not exists (select 1 from clients cl where cl.id = a.client_id and cl.automation_paused_at is not null)`)
      .orderBy('a.id')
      .execute();
  }

  /** Whether the client paused its automation (docs/client-dashboard.md); false for no such client. */
  async isClientPaused(clientId: string): Promise<boolean> {
    const row = await this.db.selectFrom('clients').select('automationPausedAt').where('id', '=', clientId).executeTakeFirst();
    return Boolean(row?.automationPausedAt);
  }

  /**
   * Executions started by events, in one statement; one an event already started for the same
   * automation is skipped (unique automation_id, trigger_event_id). Returns those inserted.
   */
  async insertEventExecutions(
    rows: readonly {
      id: string;
      automationId: string;
      startedAt: Date;
      callbackTokenHash: string;
      triggerEventId: string;
      triggerEventType: string;
      triggerEvent: Record<string, unknown>;
    }[],
    db: Db,
  ): Promise<ExecutionRow[]> {
    if (rows.length === 0) return [];
    return db
      .insertInto('automationExecutions')
      .values(
        rows.map((row) => ({
          id: row.id,
          automationId: row.automationId,
          status: 'running' as const,
          startedAt: row.startedAt,
          startedHow: 'event' as const,
          startedBy: null,
          callbackTokenHash: row.callbackTokenHash,
          lastHeardAt: row.startedAt,
          triggerEventId: row.triggerEventId,
          triggerEventType: row.triggerEventType,
          triggerEvent: JSON.stringify(row.triggerEvent),
        })),
      )
      .onConflict((oc) => oc.columns(['automationId', 'triggerEventId']).doNothing())
      .returning(EXECUTION_FIELDS)
      .execute();
  }

  async listExecutions(automationId: string, limit: number): Promise<ExecutionRow[]> {
    return this.db
      .selectFrom('automationExecutions as e')
      .select(EXECUTION_COLUMNS)
      .where('e.automationId', '=', automationId)
      .orderBy('e.startedAt', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** One execution, if its automation is in the scope; with its automation's client. */
  async findExecution(id: string, scope: Scope, db: Db = this.db): Promise<(ExecutionRow & { clientId: string | null }) | undefined> {
    let q = db
      .selectFrom('automationExecutions as e')
      .innerJoin('automations as a', 'a.id', 'e.automationId')
      .select([...EXECUTION_COLUMNS, 'a.clientId'])
      .where('e.id', '=', id);
    if (scope.clientId !== null) q = q.where('a.clientId', '=', scope.clientId);
    return q.executeTakeFirst();
  }

  /** The execution and what its automation gives the run and the callbacks, locked when `lock`. */
  /** What checking a callback token needs, as one prepared statement (every step message runs it). */
  async findCallbackAuth(id: string): Promise<{ id: string; automationId: string; clientId: string | null; callbackTokenHash: string; callbackTokenExpiresAt: Date | null } | undefined> {
    const result = await sql<{ id: string; automationId: string; clientId: string | null; callbackTokenHash: string; callbackTokenExpiresAt: Date | null }>`${sql.raw(PREPARED)}select e.id, e.automation_id, a.client_id, e.callback_token_hash, e.callback_token_expires_at
      from automation_executions e join automations a on a.id = e.automation_id where e.id = ${id}`.execute(this.db);
    return result.rows[0];
  }

  async findExecutionForUpdate(id: string, db: Db, lock: boolean): Promise<ExecutionForUpdate | undefined> {
    let q = db
      .selectFrom('automationExecutions as e')
      .innerJoin('automations as a', 'a.id', 'e.automationId')
      .select([...EXECUTION_COLUMNS, 'e.callbackTokenHash', 'e.triggeredAt', 'e.triggerEvent', 'a.clientId', 'a.workflowId', 'a.workflowUrl', 'a.config', 'a.signingSecret'])
      .where('e.id', '=', id);
    if (lock) q = q.forUpdate('e');
    return q.executeTakeFirst();
  }

  async updateExecution(
    id: string,
    changes: {
      status?: AutomationExecutionStatus;
      finishedAt?: Date;
      durationMs?: number;
      errorMessage?: string | null;
      executionId?: string;
      callbackTokenExpiresAt?: Date;
      lastHeardAt?: Date;
      triggeredAt?: Date;
    },
    db: Db,
  ): Promise<ExecutionRow> {
    return db
      .updateTable('automationExecutions')
      .set(changes)
      .where('id', '=', id)
      .returning(EXECUTION_FIELDS)
      .executeTakeFirstOrThrow();
  }

  /** An unfinished execution was heard from (a step message). */

  // Messages

  /**
   * A workflow's step message in ONE statement (the callback hot path): the message stored, the
   * unfinished execution marked heard from (at most once a second, so a burst of messages does not
   * queue on the execution's row lock), and `publish` — an SQL expression publishing the message's
   * event (EventBus.publishCall) — evaluated once, all committed together.
   */
  async insertMessageHeard(
    row: { id: string; automationId: string; executionId: string; messageType: string; stepName: string | null; content: string; metadata: Record<string, unknown> },
    heardAt: Date,
    publish: RawBuilder<unknown>,
  ): Promise<MessageRow> {
    const result = await sql<MessageRow>`${sql.raw(PREPARED)}with m as (
        insert into automation_messages (id, automation_id, execution_id, message_type, step_name, content, metadata, timestamp)
        values (${row.id}, ${row.automationId}, ${row.executionId}, ${row.messageType}, ${row.stepName}, ${row.content}, ${JSON.stringify(row.metadata)}::jsonb, statement_timestamp())
        returning *
      ), heard as (
        update automation_executions set last_heard_at = ${heardAt}
        where id = ${row.executionId} and finished_at is null and last_heard_at < ${heardAt}::timestamptz - interval '1 second'
        returning id
      )
      select m.*, ${publish} is not null as published from m`.execute(this.db);
    const message = result.rows[0];
    if (!message) throw new Error('step message not stored');
    return message;
  }

  async listMessages(automationId: string, limit: number): Promise<MessageRow[]> {
    return this.db
      .selectFrom('automationMessages')
      .selectAll()
      .where('automationId', '=', automationId)
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** A message with its automation's client (the realtime hub's loader). */
  async findMessage(id: string): Promise<(MessageRow & { clientId: string | null }) | undefined> {
    return this.db
      .selectFrom('automationMessages as m')
      .innerJoin('automations as a', 'a.id', 'm.automationId')
      .selectAll('m')
      .select('a.clientId')
      .where('m.id', '=', id)
      .executeTakeFirst();
  }
}
