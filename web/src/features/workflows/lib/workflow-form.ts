/** The create/edit form of a workflow or zap and the request it becomes. */
import type { CreateWorkflowInput, UpdateWorkflowInput, WorkflowKind, WorkflowView } from '@common/api/workflows';
import { joinLines, splitLines } from './lines';

export interface WorkflowFormValues {
  name: string;
  description: string;
  webhookUrl: string;
  /** Zaps: app integrations, one per line. */
  apps: string;
}

export function workflowFormValues(workflow: WorkflowView | undefined): WorkflowFormValues {
  return {
    name: workflow?.name ?? '',
    description: workflow?.description ?? '',
    webhookUrl: workflow?.webhookUrl ?? '',
    apps: joinLines(workflow?.appIntegrations ?? []),
  };
}

export function toCreateWorkflowInput(kind: WorkflowKind, values: WorkflowFormValues): CreateWorkflowInput {
  return {
    kind,
    name: values.name.trim(),
    description: values.description.trim(),
    webhookUrl: values.webhookUrl.trim(),
    ...(kind === 'zapier' ? { appIntegrations: splitLines(values.apps) } : {}),
  };
}

export function toUpdateWorkflowInput(kind: WorkflowKind, values: WorkflowFormValues): UpdateWorkflowInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    webhookUrl: values.webhookUrl.trim(),
    ...(kind === 'zapier' ? { appIntegrations: splitLines(values.apps) } : {}),
  };
}
