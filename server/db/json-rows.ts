/**
 * Rows that a database function returns inside JSON (`to_jsonb(row)`), in the shape Kysely gives
 * the same row from a query: camelCase keys (as CamelCasePlugin maps them) and Date timestamps.
 */
import type { Channel, Message } from './schema';

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/gu, (_, c: string) => c.toUpperCase());
}

function rowFromJson<T>(json: unknown, dateKeys: readonly string[]): T {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('Expected a row as a JSON object');
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) row[camelCase(key)] = value;
  for (const key of dateKeys) {
    const value = row[key];
    if (typeof value === 'string') row[key] = new Date(value);
  }
  return row as T;
}

const MESSAGE_DATES = ['readAt', 'sentAt', 'deliveredAt', 'seenAt', 'sendStartedAt', 'createdAt'] as const satisfies readonly (keyof Message)[];
const CHANNEL_DATES = ['createdAt', 'updatedAt'] as const satisfies readonly (keyof Channel)[];

export const messageFromJson = (json: unknown): Message => rowFromJson<Message>(json, MESSAGE_DATES);
export const channelFromJson = (json: unknown): Channel => rowFromJson<Channel>(json, CHANNEL_DATES);
