/** Workflow, zap and template status (spec part 2 §4). */
import { WORKFLOW_TEXTS, type WorkflowKind, type WorkflowStatus } from '@common/api/workflows';

/** The toggle: active becomes paused, anything else (draft or paused) becomes active. */
export function nextStatus(status: WorkflowStatus): WorkflowStatus {
  return status === 'active' ? 'paused' : 'active';
}

export const STATUS_LABEL: Record<WorkflowStatus, string> = { draft: 'Draft', active: 'Active', paused: 'Paused' };

export const STATUS_BADGE: Record<WorkflowStatus, 'success' | 'warning' | 'secondary'> = {
  active: 'success',
  paused: 'warning',
  draft: 'secondary',
};

/** The words each list uses for its items. */
export const KIND_WORDS: Record<WorkflowKind, { noun: string; plural: string; empty: string; app: string }> = {
  n8n: { noun: 'Workflow', plural: 'workflows', empty: WORKFLOW_TEXTS.noWorkflows, app: 'n8n' },
  zapier: { noun: 'Zap', plural: 'zaps', empty: WORKFLOW_TEXTS.noZaps, app: 'Zapier' },
};
