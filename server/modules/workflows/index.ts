/**
 * The workflows module: n8n workflows, Zapier zaps and templates with their client assignments
 * (admin screens). It needs the automations module (a template assigned to a client becomes that
 * client's automation) and the n8n module (switching a linked workflow) only through the ports in
 * `workflow-ports.ts`, which `app.ts` fills in: `POST /api/v1/workflows/import-n8n` reads the
 * instance's workflows through `N8nWorkflowSource` and stores them with `importLinked`.
 */
export { WorkflowsService, type ImportLinkedCommand } from './workflows.service';
export type { AutomationCreator, AutomationFromTemplate, N8nWorkflowInfo, N8nWorkflowSource, N8nWorkflowSwitch } from './workflow-ports';
