/**
 * Migration 0027 creates the insights module's tables and, on a database that already holds
 * conversations, queues the backfill that gives them their rows (once: a singleton); its `down`
 * drops them and the module's waiting jobs.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../test/helpers/database';
import { createMigrator, migrateToLatest } from '../migrate';

describe.each(ENGINES)('migration 0027-insights (%s)', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  const backfillJobs = (db: TestDatabase['db']) =>
    sql<{ payload: unknown; status: string; singletonKey: string | null }>`select payload, status, singleton_key from jobs where name = 'insights.backfill'`.execute(db);

  it('queues the backfill when there are conversations, and only then', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const migrator = await createMigrator(database.db);
    expect((await migrator.migrateTo('0026-job-coalescing')).error).toBeUndefined();
    const db = database.db;
    await migrateToLatest(db);
    expect((await backfillJobs(db)).rows).toEqual([]);

    expect((await migrator.migrateTo('0026-job-coalescing')).error).toBeUndefined();
    await sql`
      with client as (insert into clients (company_name) values ('History Ltd') returning id),
      channel as (insert into channels (client_id, kind, name, external_id) select id, 'webchat', 'Website', 'site-1' from client returning id, client_id),
      contact as (insert into contacts (client_id, channel_id, external_id) select client_id, id, 'visitor-1' from channel returning id, client_id, channel_id)
      insert into conversations (client_id, channel_id, contact_id) select client_id, channel_id, id from contact`.execute(db);
    await migrateToLatest(db);
    expect((await backfillJobs(db)).rows).toEqual([{ payload: { after: null }, status: 'queued', singletonKey: 'backfill' }]);

    expect((await migrator.migrateTo('0026-job-coalescing')).error).toBeUndefined();
    expect((await backfillJobs(db)).rows).toEqual([]);
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_name in ('conversation_service_levels', 'service_level_events', 'service_level_daily')`.execute(db);
    expect(tables.rows).toEqual([]);
  });
});
