import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import { type Db, PREPARED } from '../../db/database';
import type { InboundProvider } from '../../db/schema';

export interface NewInboundEvent {
  provider: InboundProvider;
  /** The channels the delivery was verified for (its signature's app owns them). */
  channelIds: string[];
  /** The raw body as received (UTF-8). */
  body: string;
}

export interface PendingInboundEvent {
  id: number;
  provider: InboundProvider;
  channelIds: string[];
  body: string;
}

const PREPARED_UP_TO_ROWS = 64;

/** Raw webhook deliveries (`inbound_events`): kept for audit and replay, processed by a job. */
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  /** One multi-row insert; the ids in the order given. */
  async insertEvents(trx: Db, events: readonly NewInboundEvent[]): Promise<number[]> {
    const rows = await trx
      .insertInto('inboundEvents')
      .values(events.map((e) => ({ provider: e.provider, channelIds: e.channelIds, body: e.body })))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** A delivery handled as it arrived (the custom-platform API channel), kept for audit. */
  async insertProcessed(event: NewInboundEvent, processedAt: Date): Promise<void> {
    await this.db.insertInto('inboundEvents').values({ provider: event.provider, channelIds: event.channelIds, body: event.body, processedAt }).execute();
  }

  /**
   * One statement: a multi-row insert of the events and, over their ids (the CTE `stored`), what
   * `then` writes — the processing job (`JobQueue.insertJobSql`). Atomic on its own and one round
   * trip, so the group commit needs no transaction. Returns what `then` returned and, when
   * `withEvents`, the stored events (what the job will process, for a job run here at once).
   */
  async insertEventsWith<R>(
    events: readonly NewInboundEvent[],
    then: (source: string) => RawBuilder<R>,
    withEvents: boolean,
  ): Promise<{ rows: R[]; events: PendingInboundEvent[] | null }> {
    // The statement is written out here rather than built with Kysely's sql template: at Meta's
    // delivery rates building and transforming one node per row cost more than the rest of the
    // group commit. The tail's parameters come first ($1…), the rows' after them.
    const tail = then('stored').compile(this.db);
    // Prepared on PostgreSQL up to this many rows (one text per row count and tail): the server
    // then skips parsing and planning a statement of a few dozen parameters on every commit.
    const prepared = events.length <= PREPARED_UP_TO_ROWS ? PREPARED : '';
    const params: unknown[] = [...tail.parameters];
    const values = events
      .map((e) => {
        params.push(e.provider, e.channelIds, e.body);
        const n = params.length;
        return `($${n - 2}, $${n - 1}::uuid[], $${n})`;
      })
      .join(', ');
    if (!withEvents) {
      const result = await this.db.executeQuery<R>(
        CompiledQuery.raw(`${prepared}with stored as (insert into inbound_events (provider, channel_ids, body) values ${values} returning id) ${tail.sql}`, params),
      );
      return { rows: result.rows, events: null };
    }
    // (CamelCasePlugin maps the nested keys too: channel_ids arrives as channelIds.)
    const result = await this.db.executeQuery<{ then: R; events: PendingInboundEvent[] | null }>(
      CompiledQuery.raw(
        `${prepared}with stored as (insert into inbound_events (provider, channel_ids, body) values ${values} returning id, provider, channel_ids, body),
          done as (${tail.sql})
        select (select row_to_json(done) from done) as then,
          (select jsonb_agg(jsonb_build_object('id', id, 'provider', provider, 'channel_ids', channel_ids, 'body', body) order by id) from stored) as events`,
        params,
      ),
    );
    const row = result.rows[0];
    return { rows: row ? [row.then] : [], events: row?.events ?? [] };
  }

  /** The processing job's payload over `insertEventsWith`'s CTE `stored`: `{ eventIds }`, the stored ids in order. */
  storedIdsPayload(): RawBuilder<unknown> {
    return sql`jsonb_build_object('eventIds', jsonb_agg(id order by id))`;
  }

  async findUnprocessed(ids: readonly number[]): Promise<PendingInboundEvent[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('inboundEvents')
      .select(['id', 'provider', 'channelIds', 'body'])
      .where('id', 'in', [...ids])
      .where('processedAt', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** Marks events processed (with the error of each, or null), in one statement. */
  async markProcessed(results: readonly { id: number; error: string | null }[]): Promise<void> {
    if (results.length === 0) return;
    await sql`
      update inbound_events set processed_at = ${new Date()}, error = r.error
      from unnest(${results.map((r) => r.id)}::bigint[], ${results.map((r) => r.error)}::text[]) as r(id, error)
      where inbound_events.id = r.id`.execute(this.db);
  }
}
