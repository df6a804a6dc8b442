/**
 * The automation dialog's form (spec §5: name, workflow_id and workflow_url required; description
 * and client optional), checked with the contract's own field rules.
 */
import { z } from 'zod';
import {
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
  };
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
  };
}

/** Every field of the form; an unchanged 'error' status is left as it is. */
export function toUpdateInput(values: z.output<typeof automationForm>): UpdateAutomationInput {
  return {
    name: values.name,
    description: values.description === '' ? null : values.description,
    workflow_id: values.workflow_id,
    workflow_url: values.workflow_url,
    status: settable(values.status),
    client_id: clientOf(values.client_id),
  };
}
