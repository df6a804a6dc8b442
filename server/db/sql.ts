import { sql, type RawBuilder } from 'kysely';

/** A jsonb value. Always stringify: node-postgres would turn a JS array into a PostgreSQL array. */
export function json(value: unknown): RawBuilder<string> {
  return sql<string>`${JSON.stringify(value)}::jsonb`;
}
