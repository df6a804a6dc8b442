/**
 * The SQL routine sources (server/db/routines.ts), in the order they are applied: each module's
 * database functions, kept beside the code that calls them. Every `migrateToLatest` caller passes
 * these (`{ routines: SQL_ROUTINES }`); server/db imports no module, so the list lives here.
 */
import { eventsRoutines } from './events/events.sql';
import { jobsRoutines } from './jobs/jobs.sql';
import { agentsRoutines } from './modules/agents/agents.sql';
import { automationsRoutines } from './modules/automations/automations.sql';
import { eventsOutboxRoutines } from './modules/events/events.sql';
import { hooksRoutines } from './modules/hooks/hooks.sql';
import { insightsRoutines } from './modules/insights/insights.sql';
import { messagingRoutines } from './modules/messaging/messaging.sql';
import type { SqlRoutines } from './db/routines';

export const SQL_ROUTINES: readonly SqlRoutines[] = [jobsRoutines, eventsRoutines, messagingRoutines, agentsRoutines, eventsOutboxRoutines, hooksRoutines, automationsRoutines, insightsRoutines];
