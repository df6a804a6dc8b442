/**
 * Clients: the businesses Parley serves. Staff see every client; a client user sees only the one
 * they belong to (`users.client_id`) — another client's id answers 404. Creating and changing
 * clients is for administrators (enforced by the routes' access lists).
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { ClientView, createClientInput, updateClientInput } from '../../../common/api/channels';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { notFound } from '../../lib/errors';
import { type Scope, scopeFor } from '../../http/scope';

export type CreateClientCommand = z.output<typeof createClientInput>;
export type UpdateClientCommand = z.output<typeof updateClientInput>;

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

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
      'cl.createdAt',
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

type ClientRow = Awaited<ReturnType<ReturnType<typeof clientViewsQuery>['executeTakeFirstOrThrow']>>;

export class ClientsService {
  constructor(private readonly deps: { db: Db }) {}

  #toView(row: ClientRow): ClientView {
    return {
      id: row.id,
      companyName: row.companyName,
      contactPerson: row.contactPerson,
      email: row.email,
      phone: row.phone,
      status: row.status,
      channelCount: row.channelCount ?? 0,
      conversationCount: row.conversationCount ?? 0,
      userCount: row.userCount ?? 0,
      lastInteractionAt: iso(row.lastInteractionAt),
      createdAt: row.createdAt.toISOString(),
    };
  }

  async findClients(user: SessionUser): Promise<ClientView[]> {
    const rows = await clientViewsQuery(this.deps.db, scopeFor(user)).orderBy('cl.companyName').orderBy('cl.id').execute();
    return rows.map((row) => this.#toView(row));
  }

  async getClient(user: SessionUser | null, id: string): Promise<ClientView> {
    const scope: Scope = user ? scopeFor(user) : { clientId: null };
    const row = await clientViewsQuery(this.deps.db, scope).where('cl.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Client');
    return this.#toView(row);
  }

  /** A client's company name (what the AI agent calls the business), or undefined for no such client. */
  async findCompanyName(id: string): Promise<string | undefined> {
    const row = await this.deps.db.selectFrom('clients').select('companyName').where('id', '=', id).executeTakeFirst();
    return row?.companyName;
  }

  /** A client with only its company name (Parley's own demo business); its id. `db` may be a transaction. */
  async createNamedClient(companyName: string, db: Db = this.deps.db): Promise<string> {
    const { id } = await db.insertInto('clients').values({ companyName }).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async createClient(input: CreateClientCommand): Promise<ClientView> {
    const { id } = await this.deps.db
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
    return this.getClient(null, id);
  }

  async updateClient(id: string, input: UpdateClientCommand): Promise<ClientView> {
    const updated = await this.deps.db
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
    if (!updated) throw notFound('Client');
    return this.getClient(null, id);
  }
}
