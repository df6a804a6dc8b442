/**
 * Migration 0025 widens the check on `events.type` for `contact_form.submitted` (the only
 * constraint that lists the event types), and its `down` narrows it again.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../test/helpers/database';
import { createMigrator, migrateToLatest } from '../migrate';

describe.each(ENGINES)('migration 0025-contact-form-event (%s)', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('lets events.type be contact_form.submitted, and only after it', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const migrator = await createMigrator(database.db);
    expect((await migrator.migrateTo('0024-contact')).error).toBeUndefined();
    const db = database.db;
    const insert = (type: string, key: string) =>
      sql`insert into events (type, dedupe_key, performed_by, envelope) values (${type}, ${key}, '{"kind":"customer"}'::jsonb, '{}'::jsonb)`.execute(db);

    await expect(insert('contact_form.submitted', 'contact_message:before')).rejects.toThrow(/events_type_check/u);
    await migrateToLatest(db);
    await insert('contact_form.submitted', 'contact_message:1');
    await insert('lead.qualified', 'conversation:1');
    await expect(insert('contact_form.sent', 'contact_message:2')).rejects.toThrow(/events_type_check/u);

    expect((await migrator.migrateTo('0024-contact')).error).toBeUndefined();
    const left = await sql<{ type: string }>`select type from events order by type`.execute(db);
    expect(left.rows).toEqual([{ type: 'lead.qualified' }]);
    await expect(insert('contact_form.submitted', 'contact_message:3')).rejects.toThrow(/events_type_check/u);
  });
});
