import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation';

/** Every migration, in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
};
