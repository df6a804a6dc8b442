import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation';
import * as messaging from './0002-messaging';
import * as presence from './0003-presence';

/** Every migration, in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-messaging': messaging,
  '0003-presence': presence,
};
