import type { WorkflowKind } from '@common/api/workflows';

export const workflowKeys = {
  all: ['workflows'] as const,
  list: (kind: WorkflowKind, q: string) => [...workflowKeys.all, 'list', kind, q] as const,
};

export const templateKeys = {
  all: ['templates'] as const,
  list: (q: string) => [...templateKeys.all, 'list', q] as const,
  n8nWorkflow: (id: string) => [...templateKeys.all, 'n8n-workflow', id] as const,
};

export const workflowPath = (id: string) => `/api/v1/workflows/${encodeURIComponent(id)}`;
export const templatePath = (id: string) => `/api/v1/templates/${encodeURIComponent(id)}`;
