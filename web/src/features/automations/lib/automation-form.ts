/**
 * The automation dialog's form (spec §5: name, workflow_id and workflow_url required; description
 * and client optional), checked with the contract's own field rules.
 */
import { z } from 'zod';
import {
  automationEventTriggerView,
  automationStatus,
  createAutomationInput,
  type AutomationView,
  type CreateAutomationInput,
  type UpdateAutomationInput,
} from '@common/api/automations';

/** The client select's "No client" value: the automation belongs to no client (only staff see it). */
export const NO_CLIENT = 'none';

export const automationForm = z.object({
  name: createAutomationInput.shape.name,
  description: z.string().trim().max(2000, { error: 'Description is too long' }),
  workflow_id: createAutomationInput.shape.workflow_id,
  workflow_url: createAutomationInput.shape.workflow_url,
  /** 'error' only as an automation's current state: the form never sets it. */
  status: automationStatus,
  client_id: z.string(),
  /** `config.triggers`: the events that run it (the shared TriggersEditor). */
  triggers: z.array(automationEventTriggerView),
});
export type AutomationFormValues = z.input<typeof automationForm>;

export function initialFormValues(automation: AutomationView | undefined): AutomationFormValues {
  return {
    name: automation?.name ?? '',
    description: automation?.description ?? '',
    workflow_id: automation?.workflow_id ?? '',
    workflow_url: automation?.workflow_url ?? '',
    status: automation?.status ?? 'inactive',
    client_id: automation?.client_id ?? NO_CLIENT,
    triggers: triggersOf(automation?.config),
  };
}

/** The stored `config.triggers` (the server checked them), as the editor shows them. */
export function triggersOf(config: Record<string, unknown> | undefined): z.output<typeof automationEventTriggerView>[] {
  const parsed = z.array(automationEventTriggerView).safeParse(config?.triggers);
  return parsed.success ? parsed.data : [];
}

const clientOf = (value: string): string | null => (value === NO_CLIENT || value === '' ? null : value);
const settable = (status: AutomationFormValues['status']) => (status === 'error' ? undefined : status);

export function toCreateInput(values: z.output<typeof automationForm>): CreateAutomationInput {
  return {
    name: values.name,
    description: values.description === '' ? null : values.description,
    workflow_id: values.workflow_id,
    workflow_url: values.workflow_url,
    status: settable(values.status) ?? 'inactive',
    client_id: clientOf(values.client_id),
    ...(values.triggers.length > 0 ? { config: { triggers: values.triggers } } : {}),
  };
}

/**
 * Every field of the form; an unchanged 'error' status is left as it is. The config's other keys
 * (`current`) are kept; its triggers are the form's.
 */
export function toUpdateInput(values: z.output<typeof automationForm>, current?: Record<string, unknown>): UpdateAutomationInput {
  const config = current?.triggers === undefined && values.triggers.length === 0 ? undefined : { ...current, triggers: values.triggers };
  return {
    name: values.name,
    description: values.description === '' ? null : values.description,
    workflow_id: values.workflow_id,
    workflow_url: values.workflow_url,
    status: settable(values.status),
    client_id: clientOf(values.client_id),
    ...(config ? { config } : {}),
  };
}
