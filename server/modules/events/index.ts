/**
 * The events module (issue 14 §1): the public events' outbox `events` — each public event
 * (common/api/events.ts) stored once, in the order of its conversation's changes, and handed to the
 * sinks (outbound webhooks, event-triggered automations: `PublicEventSink`, server/events/
 * public-events.ts) in the transaction that stores it. Owns `events`. docs/events.md.
 */
export { EventsService, EVENT_RETENTION_MS, type EventsServiceDeps, type RecordEventPayload } from './events.service';
export { recordEventJob } from './events.jobs';
export { exampleEnvelope } from '../../../common/api/event-examples';
