/**
 * The automations module's database functions. Applied by `migrateToLatest` when this file
 * changes; the rules (only `create or replace`, signature changes need a migration) are in
 * server/db/routines.ts.
 */
import { defineSqlRoutines } from '../../db/routines';

export const automationsRoutines = defineSqlRoutines({
  name: 'automations',
  statements: [
    // The sink's interest (PublicEventSink.interest, AutomationsService.interest): is any
    // automation with an event trigger active? While none is (and nothing else listens), changes
    // queue no outbox work. The partial index automations_active_trigger_events_idx covers it.
    // PL/pgSQL: its plan is cached per connection (parley_gate_open calls it on every publication).
    `create or replace function parley_automations_interest() returns boolean language plpgsql stable as $$
    begin
      return exists (select 1 from automations where status = 'active' and trigger_events <> '[]'::jsonb);
    end $$`,
  ],
});
