/**
 * The automations module (issue 13): automations, their executions and step messages; Run (a
 * signed POST to the workflow URL, by a job), the workflows' callbacks, the silence timeout and
 * the reconciliation with n8n (an injected ExecutionReconciler). Owns automations,
 * automation_executions and automation_messages.
 */
export { AutomationsService, type CreateFromTemplateCommand, type ExecutionReconciler } from './automations.service';
export { runAutomationJob, checkExecutionSilenceJob } from './automation-jobs';
