/**
 * Migration 0019 turns the triggers stored as strings (templates' `workflow_config.triggers` and the
 * automations made from them) into event triggers: event types kept, the old placeholder names
 * mapped, anything else dropped; and fills `trigger_events`, the column the sink's query uses.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../test/helpers/database';
import { createMigrator, migrateToLatest } from '../migrate';

describe.each(ENGINES)('migration 0019-automation-triggers (%s)', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('turns string triggers into event triggers', async () => {
    database = await createTestDatabase(engine, { migrate: false });
    const result = await (await createMigrator(database.db)).migrateTo('0015-n8n');
    expect(result.error).toBeUndefined();
    const db = database.db;
    const legacy = ['new_lead', ' message.received ', 'Escalation', 'whatever', { event: 'conversation.resolved', filters: { channel: ['webchat'] } }];
    await sql`insert into templates (type, name, workflow_config) values ('n8n', 'Old', ${JSON.stringify({ webhookUrl: 'https://x.example/w', triggers: legacy })}::jsonb)`.execute(db);
    const client = await sql<{ id: string }>`insert into clients (company_name) values ('Old Co') returning id`.execute(db);
    await sql`insert into automations (name, client_id, config, signing_secret, status)
      values ('Old', ${client.rows[0]!.id}, ${JSON.stringify({ triggers: legacy, templateId: 'x' })}::jsonb, 'sealed', 'active'),
             ('Plain', null, '{"crm": 1}'::jsonb, 'sealed', 'active')`.execute(db);

    await migrateToLatest(db);

    const expected = [
      { event: 'lead.qualified' },
      { event: 'message.received' },
      { event: 'conversation.escalated' },
      { event: 'conversation.resolved', filters: { channel: ['webchat'] } },
    ];
    const template = await sql<{ config: { triggers: unknown } }>`select workflow_config as config from templates`.execute(db);
    expect(template.rows[0]!.config.triggers).toEqual(expected);
    const automations = await sql<{ name: string; config: Record<string, unknown>; events: unknown }>`
      select name, config, trigger_events as events from automations order by name`.execute(db);
    expect(automations.rows).toEqual([
      { name: 'Old', config: { triggers: expected, templateId: 'x' }, events: ['lead.qualified', 'message.received', 'conversation.escalated', 'conversation.resolved'] },
      { name: 'Plain', config: { crm: 1 }, events: [] },
    ]);
  });
});
