/**
 * The insights module (issue 16; docs/insights.md): service levels — one row per conversation
 * (`conversation_service_levels`: first response, resolution, each also in business hours,
 * automated resolution, hand-offs, reopenings, replies) and per client and UTC day
 * (`service_level_daily`), kept current by the domain events, with the hand-offs, reopenings and
 * resolutions it records itself (`service_level_events`). Owns those three tables; reads
 * conversations, messages, channels and agents in its repository.
 */
export { InsightsService, type InsightsPeriod, type InsightsServiceDeps, type RecordedEvent, BACKFILL_BATCH } from './insights.service';
export type { DailyRollup, ServiceLevelMedians, ServiceLevelRow } from './insights.repository';
export { backfillJob, recomputeJob, serviceLevelJob } from './insights.jobs';
export { insightsRoutes } from './insights.routes';
export { computeServiceLevel, type ServiceLevel, type ServiceLevelFacts } from './service-level';
export { ReportsService, type ReportsServiceDeps } from './reports.service';
export { reportsRoutes } from './reports.routes';
/** The standard PDF font's text rule, for other modules' PDFs (the billing module's invoices). */
export { toPdfText } from './pdf-text';
