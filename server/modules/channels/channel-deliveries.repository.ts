/**
 * The delivery log of custom-platform (API) channels: one row per attempt to POST to the
 * business's callback URL — sends and credential tests alike — with what came back.
 */
import type { z } from 'zod';
import type { channelDelivery } from '../../../common/api/channels';
import type { Db } from '../../db/database';

/** Longest response body kept per attempt (characters). */
export const DELIVERY_BODY_MAX = 2000;

export interface ChannelDeliveryInput {
  channelId: string;
  messageId: string | null;
  attempt: number;
  url: string;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

export type ChannelDeliveryView = z.infer<typeof channelDelivery>;

export class ChannelDeliveriesRepository {
  constructor(private readonly db: Db) {}

  async record(input: ChannelDeliveryInput): Promise<void> {
    await this.db
      .insertInto('channelDeliveries')
      .values({
        ...input,
        responseBody: input.responseBody === null ? null : input.responseBody.slice(0, DELIVERY_BODY_MAX),
        error: input.error === null ? null : input.error.slice(0, DELIVERY_BODY_MAX),
        durationMs: Math.max(0, Math.round(input.durationMs)),
      })
      .execute();
  }

  /** Attempts already made for one message (the next attempt's number is this plus one). */
  async countAttempts(messageId: string): Promise<number> {
    const row = await this.db
      .selectFrom('channelDeliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('messageId', '=', messageId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The latest attempts of one channel, newest first (by id: the order they were recorded in). */
  async findChannelDeliveries(channelId: string, limit = 100): Promise<ChannelDeliveryView[]> {
    const rows = await this.db
      .selectFrom('channelDeliveries')
      .selectAll()
      .where('channelId', '=', channelId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id), // bigint: a string from node-postgres
      messageId: r.messageId,
      attempt: r.attempt,
      url: r.url,
      statusCode: r.statusCode,
      responseBody: r.responseBody,
      error: r.error,
      durationMs: r.durationMs,
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
