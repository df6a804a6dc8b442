/**
 * The dashboard's figures over two windows, read from the messaging tables (`conversations`,
 * `messages`) and `clients`, which other modules own (docs/ARCHITECTURE.md, "One owner per
 * table"): read only, one query per card.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** Two adjacent half-open windows: [previousFrom, currentFrom) and [currentFrom, until). */
export interface Windows {
  previousFrom: Date;
  currentFrom: Date;
  until: Date;
}

/** null: every client's figures. */
export type ClientFilter = string | null;

export class DashboardRepository {
  constructor(private readonly db: Db) {}

  /** Conversations with at least one reply (the AI agent's or a person's) in each window. */
  async handled(w: Windows, clientId: ClientFilter): Promise<{ current: number; previous: number }> {
    const { rows } = await sql<{ current: number; previous: number }>`
      select
        count(distinct m.conversation_id) filter (where m.created_at >= ${w.currentFrom})::int as "current",
        count(distinct m.conversation_id) filter (where m.created_at < ${w.currentFrom})::int as "previous"
      from messages m
      where m.created_at >= ${w.previousFrom} and m.created_at < ${w.until}
        and m.sender_type in ('ai', 'agent')
        and (${clientId}::uuid is null or m.client_id = ${clientId}::uuid)`.execute(this.db);
    return rows[0] ?? { current: 0, previous: 0 };
  }

  /** Conversations open now (active, pending, escalated), and those started in each window. */
  async tickets(w: Windows, clientId: ClientFilter): Promise<{ openNow: number; openedCurrent: number; openedPrevious: number }> {
    const { rows } = await sql<{ openNow: number; openedCurrent: number; openedPrevious: number }>`
      select
        count(*) filter (where c.status in ('active', 'pending', 'escalated'))::int as "openNow",
        count(*) filter (where c.created_at >= ${w.currentFrom} and c.created_at < ${w.until})::int as "openedCurrent",
        count(*) filter (where c.created_at >= ${w.previousFrom} and c.created_at < ${w.currentFrom})::int as "openedPrevious"
      from conversations c
      where (${clientId}::uuid is null or c.client_id = ${clientId}::uuid)`.execute(this.db);
    return rows[0] ?? { openNow: 0, openedCurrent: 0, openedPrevious: 0 };
  }

  /**
   * The mean first-response time of the conversations first answered in each window: their first
   * reply less their first customer message (as the conversation list's response time), in seconds.
   */
  async firstResponses(
    w: Windows,
    clientId: ClientFilter,
  ): Promise<{ currentSeconds: number | null; currentSample: number; previousSeconds: number | null; previousSample: number }> {
    const { rows } = await sql<{ currentSeconds: number | null; currentSample: number; previousSeconds: number | null; previousSample: number }>`
      select
        avg(t.seconds) filter (where t.first_response_at >= ${w.currentFrom})::float8 as "currentSeconds",
        count(*) filter (where t.first_response_at >= ${w.currentFrom})::int as "currentSample",
        avg(t.seconds) filter (where t.first_response_at < ${w.currentFrom})::float8 as "previousSeconds",
        count(*) filter (where t.first_response_at < ${w.currentFrom})::int as "previousSample"
      from (
        select c.first_response_at,
          greatest(0, extract(epoch from c.first_response_at - (
            select min(m.created_at) from messages m where m.conversation_id = c.id and m.direction = 'inbound'
          ))) as seconds
        from conversations c
        where c.first_response_at >= ${w.previousFrom} and c.first_response_at < ${w.until}
          and (${clientId}::uuid is null or c.client_id = ${clientId}::uuid)
      ) t
      where t.seconds is not null`.execute(this.db);
    const row = rows[0];
    return {
      currentSeconds: row?.currentSeconds ?? null,
      currentSample: row?.currentSample ?? 0,
      previousSeconds: row?.previousSeconds ?? null,
      previousSample: row?.previousSample ?? 0,
    };
  }

  /**
   * Clients whose status is active, `demoClientId` left out: now, and those of them that existed
   * at `existedBy` (Parley keeps no history of status changes).
   */
  async activeClients(existedBy: Date, demoClientId: string | null): Promise<{ now: number; previous: number }> {
    const { rows } = await sql<{ now: number; previous: number }>`
      select
        count(*)::int as "now",
        count(*) filter (where c.created_at < ${existedBy})::int as "previous"
      from clients c
      where c.status = 'active'
        and (${demoClientId}::uuid is null or c.id <> ${demoClientId}::uuid)`.execute(this.db);
    return rows[0] ?? { now: 0, previous: 0 };
  }
}
