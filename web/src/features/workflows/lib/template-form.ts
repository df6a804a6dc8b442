/** The create/edit form of a template and the request it becomes. */
import type { AutomationEventTrigger } from '@common/api/automations';
import { n8nWorkflowJson, type CreateTemplateInput, type N8nWorkflowJson, type TemplateView, type UpdateTemplateInput, type WorkflowKind } from '@common/api/workflows';

export interface TemplateFormValues {
  name: string;
  description: string;
  type: WorkflowKind;
  webhookUrl: string;
  /** The events that run the automations made from it (the shared TriggersEditor). */
  triggers: AutomationEventTrigger[];
  /** n8n templates: the importable workflow as exported from n8n (blank: none). */
  n8nJson: string;
}

export function templateFormValues(template: TemplateView | undefined, n8nJson: N8nWorkflowJson | undefined): TemplateFormValues {
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    type: template?.type ?? 'n8n',
    webhookUrl: template?.workflowConfig.webhookUrl ?? '',
    triggers: template?.workflowConfig.triggers.map((t) => ({ ...t })) ?? [],
    n8nJson: n8nJson ? JSON.stringify(n8nJson, null, 2) : '',
  };
}

export type ParsedN8nJson = { ok: true; value: N8nWorkflowJson | null } | { ok: false; error: string };

/** Blank is "no workflow"; otherwise it must be JSON shaped like an n8n export (nodes and connections). */
export function parseN8nJson(text: string): ParsedN8nJson {
  if (text.trim() === '') return { ok: true, value: null };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'This is not valid JSON. Paste the workflow as n8n exports it.' };
  }
  const parsed = n8nWorkflowJson.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'This is not an n8n workflow.' };
  return { ok: true, value: parsed.data };
}

export function toCreateTemplateInput(values: TemplateFormValues, json: N8nWorkflowJson | null): CreateTemplateInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    type: values.type,
    workflowConfig: { webhookUrl: values.webhookUrl.trim(), triggers: values.triggers },
    ...(values.type === 'n8n' && json ? { n8nWorkflowJson: json } : {}),
  };
}

/** `hadJson`: the template carries an n8n workflow now, so a blank field removes it. */
export function toUpdateTemplateInput(values: TemplateFormValues, json: N8nWorkflowJson | null, hadJson: boolean): UpdateTemplateInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    workflowConfig: { webhookUrl: values.webhookUrl.trim(), triggers: values.triggers },
    ...(values.type === 'n8n' && (json !== null || hadJson) ? { n8nWorkflowJson: json } : {}),
  };
}

/** `welcome-flow.n8n.json` for a template named "Welcome flow". */
export function n8nWorkflowFileName(templateName: string): string {
  const slug = templateName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, 60);
  return `${slug === '' ? 'template' : slug}.n8n.json`;
}
