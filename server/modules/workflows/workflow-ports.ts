/**
 * What the workflows module needs from other modules, as interfaces `app.ts` fills in: the
 * automations module creates a client's automation from a template, the n8n module switches a
 * linked workflow on the connected n8n instance and reads its workflows (import, real active
 * state). The workflows module imports neither.
 */
import type { AutomationEventTrigger } from '../../../common/api/automations';
import type { Db } from '../../db/database';

export interface AutomationFromTemplate {
  clientId: string;
  templateId: string;
  name: string;
  description: string;
  /** The template's `workflowConfig.webhookUrl`. */
  workflowUrl: string;
  /** The template's `workflowConfig.triggers`: the events that run the automation (its `config.triggers`). */
  triggers: AutomationEventTrigger[];
  /** The admin who assigned the template. */
  createdBy: string;
}

export interface AutomationCreator {
  /**
   * Creates the client's automation inside the caller's transaction `db`, so the assignment and
   * the automation are made together or not at all. Throws to refuse (an `AppError` is answered as is).
   */
  createFromTemplate(input: AutomationFromTemplate, db: Db): Promise<{ id: string }>;
}

export interface N8nWorkflowSwitch {
  /**
   * Activates or deactivates the workflow on the connected n8n instance. Throws when n8n refuses
   * or cannot be reached: an `AppError` is answered as is, any other error as a 502 with its
   * message.
   */
  setActive(n8nWorkflowId: string, active: boolean): Promise<void>;
}

/** A workflow of the connected n8n instance, as the workflows module reads it. */
export interface N8nWorkflowInfo {
  id: string;
  name: string;
  active: boolean;
  /** The production URL of its first enabled Webhook node taking POST; null without one. */
  webhookUrl: string | null;
}

export interface N8nWorkflowSource {
  /** One workflow; throws an `AppError` (404 unknown id, 409 not connected, 502 unreachable) otherwise. */
  getWorkflow(n8nWorkflowId: string): Promise<N8nWorkflowInfo>;
  /** Every workflow of the instance; throws like `getWorkflow`. */
  listWorkflows(): Promise<N8nWorkflowInfo[]>;
}
