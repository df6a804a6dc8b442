/**
 * The automations module (issue 13): automations, their executions and step messages; Run (a
 * signed POST to the workflow URL, by a job), the workflows' callbacks, the silence timeout and
 * the reconciliation with n8n (an injected ExecutionReconciler). Owns automations,
 * automation_executions and automation_messages.
 *
 * Event triggers (issue 14 §3): `AutomationsService` is a `PublicEventSink` (server/events/
 * public-events.ts) — `app.ts` hands the service itself to the events module's sinks, and its
 * `accept(trx, events)` starts the active automations whose `config.triggers` match.
 */
export { AutomationsService, type CreateFromTemplateCommand, type ExecutionReconciler } from './automations.service';
export { runAutomationJob, checkExecutionSilenceJob } from './automation-jobs';
