/**
 * The workflows module: n8n workflows, Zapier zaps and templates with their client assignments
 * (admin screens). It needs the automations module (a template assigned to a client becomes that
 * client's automation) and the n8n module (switching a linked workflow) only through the ports in
 * `workflow-ports.ts`, which `app.ts` fills in; the n8n module imports linked workflows through
 * `WorkflowsService.importLinked`.
 */
export { WorkflowsService, type ImportLinkedCommand } from './workflows.service';
export type { AutomationCreator, AutomationFromTemplate, N8nWorkflowSwitch } from './workflow-ports';
