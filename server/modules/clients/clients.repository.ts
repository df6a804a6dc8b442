/**
 * The clients table and its views. Every view query takes a scope: `{ clientId }` sees that one
 * client only (a client user), `{ clientId: null }` sees all (staff).
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { createClientInput, updateClientInput } from '../../../common/api/channels';
import type { Db } from '../../db/database';
import type { ClientStatus } from '../../db/schema';
import type { Scope } from '../../http/scope';

type CreateClientCommand = z.output<typeof createClientInput>;
type UpdateClientCommand = z.output<typeof updateClientInput>;

function clientViewsQuery(db: Db, scope: Scope) {
  let q = db
    .selectFrom('clients as cl')
    .select((eb) => [
      'cl.id',
      'cl.companyName',
      'cl.contactPerson',
      'cl.email',
      'cl.phone',
      'cl.status',
      'cl.automationPausedAt',
      'cl.createdAt',
      eb.selectFrom('users').select('users.fullName').whereRef('users.id', '=', 'cl.automationPausedBy').as('automationPausedBy'),
      eb.selectFrom('channels').select(sql<number>`count(*)::int`.as('n')).whereRef('channels.clientId', '=', 'cl.id').as('channelCount'),
      eb
        .selectFrom('conversations')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('conversations.clientId', '=', 'cl.id')
        .as('conversationCount'),
      eb.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).whereRef('users.clientId', '=', 'cl.id').as('userCount'),
      eb
        .selectFrom('conversations')
        .select(sql<Date | null>`max(conversations.last_message_at)`.as('t'))
        .whereRef('conversations.clientId', '=', 'cl.id')
        .as('lastInteractionAt'),
    ]);
  if (scope.clientId !== null) q = q.where('cl.id', '=', scope.clientId);
  return q;
}

export type ClientRow = Awaited<ReturnType<ReturnType<typeof clientViewsQuery>['executeTakeFirstOrThrow']>>;

/** A client as locked for a change of its switches. */
export interface LockedClient {
  id: string;
  companyName: string;
  status: ClientStatus;
  automationPausedAt: Date | null;
}

export class ClientsRepository {
  constructor(private readonly db: Db) {}

  /** The clients in the scope, by company name. */
  async findClientRows(scope: Scope): Promise<ClientRow[]> {
    return clientViewsQuery(this.db, scope).orderBy('cl.companyName').orderBy('cl.id').execute();
  }

  async findClientRow(id: string, scope: Scope): Promise<ClientRow | undefined> {
    return clientViewsQuery(this.db, scope).where('cl.id', '=', id).executeTakeFirst();
  }

  async findCompanyName(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('clients').select('companyName').where('id', '=', id).executeTakeFirst();
    return row?.companyName;
  }

  /** A client with only its company name; its id. `db` may be a transaction. */
  async insertNamedClient(companyName: string, db: Db = this.db): Promise<string> {
    const { id } = await db.insertInto('clients').values({ companyName }).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async insertClient(input: CreateClientCommand, db: Db = this.db): Promise<string> {
    const { id } = await db
      .insertInto('clients')
      .values({
        companyName: input.companyName,
        contactPerson: input.contactPerson ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        status: input.status,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The client in the scope, locked until the transaction `trx` ends; undefined when it cannot be seen. */
  async lockClient(trx: Db, id: string, scope: Scope): Promise<LockedClient | undefined> {
    let q = trx.selectFrom('clients').select(['id', 'companyName', 'status', 'automationPausedAt']).where('id', '=', id).forUpdate();
    if (scope.clientId !== null) q = q.where('id', '=', scope.clientId);
    return q.executeTakeFirst();
  }

  /** Whether the client exists (and was updated). `db` may be a transaction. */
  async updateClient(id: string, input: UpdateClientCommand, db: Db = this.db): Promise<boolean> {
    const updated = await db
      .updateTable('clients')
      .set({
        ...(input.companyName !== undefined ? { companyName: input.companyName } : {}),
        ...(input.contactPerson !== undefined ? { contactPerson: input.contactPerson } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return updated !== undefined;
  }

  /** Paused since `at` by `by`, or (null, null) running again. */
  async setAutomationPaused(trx: Db, id: string, at: Date | null, by: string | null): Promise<void> {
    await trx.updateTable('clients').set({ automationPausedAt: at, automationPausedBy: by, updatedAt: new Date() }).where('id', '=', id).execute();
  }

  async setLeadQualification(trx: Db, id: string, enabled: boolean): Promise<void> {
    await trx.updateTable('clients').set({ leadQualification: enabled, updatedAt: new Date() }).where('id', '=', id).execute();
  }
}
