/**
 * The client dashboard's reads (a view: the module owns no table). It reads the clients module's
 * `clients` and the messaging module's `conversations`, `contacts`, `messages` and `channels` — listed
 * reads (docs/ARCHITECTURE.md, "One owner per table"); every change goes through their services.
 * Days are UTC.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ChannelKind, ClientStatus, ConversationStatus } from '../../db/schema';
import type { Scope } from '../../http/scope';

export interface DashboardClientRow {
  id: string;
  companyName: string;
  status: ClientStatus;
  createdAt: Date;
  automationPausedAt: Date | null;
  automationPausedBy: string | null;
  leadQualification: boolean;
}

export interface RecentConversationRow {
  id: string;
  contactName: string | null;
  contactExternalId: string;
  platform: ChannelKind;
  lastMessagePreview: string | null;
  lastMessageAt: Date | null;
  status: ConversationStatus;
  sentiment: number | null;
  isLead: boolean;
  convertedAt: Date | null;
}

/** [from, until): a period's bounds as timestamps. */
export interface Bounds {
  from: Date;
  until: Date;
}

export class ClientDashboardRepository {
  constructor(private readonly db: Db) {}

  /** The client, when the scope can see it. */
  async findClient(clientId: string, scope: Scope): Promise<DashboardClientRow | undefined> {
    let q = this.db
      .selectFrom('clients as cl')
      .leftJoin('users as u', 'u.id', 'cl.automationPausedBy')
      .select(['cl.id', 'cl.companyName', 'cl.status', 'cl.createdAt', 'cl.automationPausedAt', 'u.fullName as automationPausedBy', 'cl.leadQualification'])
      .where('cl.id', '=', clientId);
    if (scope.clientId !== null) q = q.where('cl.id', '=', scope.clientId);
    return q.executeTakeFirst();
  }

  /** Messages written in the period, per UTC day (only days with messages), by `messages_client_created_idx`. */
  async messagesPerDay(clientId: string, bounds: Bounds): Promise<{ day: string; messages: number }[]> {
    const { rows } = await sql<{ day: string; messages: number | string }>`
      select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*)::int as messages
      from messages
      where client_id = ${clientId}::uuid and created_at >= ${bounds.from} and created_at < ${bounds.until}
      group by 1
      order by 1`.execute(this.db);
    return rows.map((r) => ({ day: r.day, messages: Number(r.messages) }));
  }

  /** Conversations that became leads in the period, and how many of them the business marked converted. */
  async leads(clientId: string, bounds: Bounds): Promise<{ leads: number; converted: number }> {
    const row = await this.db
      .selectFrom('conversations')
      .select([sql<number>`count(*)::int`.as('leads'), sql<number>`count(converted_at)::int`.as('converted')])
      .where('clientId', '=', clientId)
      .where('isLead', '=', true)
      .where('leadAt', '>=', bounds.from)
      .where('leadAt', '<', bounds.until)
      .executeTakeFirstOrThrow();
    return { leads: Number(row.leads), converted: Number(row.converted) };
  }

  /** The client's conversations with the latest activity, newest first. */
  async recentConversations(clientId: string, limit: number): Promise<RecentConversationRow[]> {
    return this.db
      .selectFrom('conversations as c')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .innerJoin('channels as ch', 'ch.id', 'c.channelId')
      .select([
        'c.id',
        'ct.name as contactName',
        'ct.externalId as contactExternalId',
        'ch.kind as platform',
        'c.lastMessagePreview',
        'c.lastMessageAt',
        'c.status',
        'c.sentiment',
        'c.isLead',
        'c.convertedAt',
      ])
      .where('c.clientId', '=', clientId)
      .orderBy(sql`c.last_message_at desc nulls last`)
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute();
  }
}
