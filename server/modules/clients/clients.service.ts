/**
 * Clients: the businesses Parley serves. Staff see every client; a client user sees only the one
 * they belong to (`users.client_id`) — another client's id answers 404. Creating and changing
 * clients is for administrators (enforced by the routes' access lists); changes to a client's
 * status and automation go through ClientStateService (client-state.service.ts).
 */
import type { z } from 'zod';
import type { ClientView, createClientInput, updateClientInput } from '../../../common/api/channels';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { notFound } from '../../lib/errors';
import { type Scope, scopeFor } from '../../http/scope';
import { type ClientRow, ClientsRepository } from './clients.repository';

export type CreateClientCommand = z.output<typeof createClientInput>;
export type UpdateClientCommand = z.output<typeof updateClientInput>;

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export class ClientsService {
  readonly #clients: ClientsRepository;

  constructor(private readonly deps: { db: Db }) {
    this.#clients = new ClientsRepository(deps.db);
  }

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
      automationPausedAt: iso(row.automationPausedAt),
      automationPausedBy: row.automationPausedAt ? (row.automationPausedBy ?? null) : null,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async findClients(user: SessionUser): Promise<ClientView[]> {
    const rows = await this.#clients.findClientRows(scopeFor(user));
    return rows.map((row) => this.#toView(row));
  }

  async getClient(user: SessionUser | null, id: string): Promise<ClientView> {
    const scope: Scope = user ? scopeFor(user) : { clientId: null };
    const row = await this.#clients.findClientRow(id, scope);
    if (!row) throw notFound('Client');
    return this.#toView(row);
  }

  /** A client's company name (what the AI agent calls the business), or undefined for no such client. */
  async findCompanyName(id: string): Promise<string | undefined> {
    return this.#clients.findCompanyName(id);
  }

  /** A client with only its company name (Parley's own demo business); its id. `db` may be a transaction. */
  async createNamedClient(companyName: string, db: Db = this.deps.db): Promise<string> {
    return this.#clients.insertNamedClient(companyName, db);
  }

  async createClient(input: CreateClientCommand): Promise<ClientView> {
    const id = await this.#clients.insertClient(input);
    return this.getClient(null, id);
  }

  /** Creates a client inside `db` (a transaction: an approved onboarding request); its id. */
  async createClientIn(db: Db, input: CreateClientCommand): Promise<string> {
    return this.#clients.insertClient(input, db);
  }
}
