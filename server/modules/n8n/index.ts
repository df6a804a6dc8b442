/**
 * The n8n module: the n8n connection of this installation (base URL + sealed API key), n8n's
 * public API through the guarded client (connection test, workflows with their webhook URL,
 * activate/deactivate, executions), the n8n tab's webhook Test and the starter workflow. Other
 * modules get `N8nService` from app.ts (the workflows module's switch, the automations module's
 * reconciliation).
 */
export { N8nService, N8N_TRUSTED_ORIGIN } from './n8n.service';
export { starterWorkflow, starterWorkflowVariant, STARTER_WORKFLOW_PATH, type N8nWorkflowJson } from './starter-workflow';
