/** The security module: the security log, written by the modules that see the events. */
export { SecurityEventsService } from './security-events.service';
export type { SecurityEventInput, SecurityEventType } from './security-events.repository';
