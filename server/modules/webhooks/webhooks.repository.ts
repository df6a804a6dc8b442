import type { Db } from '../../db/database';
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

  async markProcessed(id: number, error: string | null): Promise<void> {
    await this.db.updateTable('inboundEvents').set({ processedAt: new Date(), error }).where('id', '=', id).execute();
  }
}
