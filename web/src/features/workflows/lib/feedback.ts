/**
 * The toasts of the admin screens (spec part 2 §5, §8), as data so they can be tested without a
 * browser: each function answers the title and description to show.
 */
import { WORKFLOW_TEXTS, type WorkflowKind, type WorkflowStatus } from '@common/api/workflows';
import { errorMessage, isApiError } from '@/lib/api-client';
import { KIND_WORDS, STATUS_LABEL } from './status';

export interface Feedback {
  title: string;
  description?: string;
}

export const REQUIRED_FIELDS: Feedback = { title: 'Error', description: WORKFLOW_TEXTS.requiredFields };
export const URL_COPIED: Feedback = { title: 'Copied', description: 'URL copied to clipboard' };
export const URL_NOT_COPIED: Feedback = { title: 'Error', description: 'The browser did not allow copying. Select the URL and copy it by hand.' };

/** Name and webhook URL are required (spec part 2 §5); answers the toast when one is blank. */
export function checkRequired(values: { name: string; webhookUrl: string }): Feedback | null {
  return values.name.trim() === '' || values.webhookUrl.trim() === '' ? REQUIRED_FIELDS : null;
}

export function savedFeedback(kind: WorkflowKind, editing: boolean, name: string): Feedback {
  return { title: `${KIND_WORDS[kind].noun} ${editing ? 'Updated' : 'Created'}`, description: name };
}

export function deletedFeedback(kind: WorkflowKind | 'template', name: string): Feedback {
  return { title: kind === 'template' ? WORKFLOW_TEXTS.templateDeleted : `${KIND_WORDS[kind].noun} Deleted`, description: name };
}

/** After the toggle: the new status, and for a workflow linked to n8n, that n8n switched it too. */
export function toggledFeedback(noun: string, status: WorkflowStatus, linkedToN8n: boolean): Feedback {
  const title = `${noun} ${STATUS_LABEL[status]}`;
  if (!linkedToN8n) return { title };
  return { title, description: status === 'active' ? 'The workflow is now active in n8n.' : 'The workflow is now deactivated in n8n.' };
}

/** Any refusal, with the server's exact message (a 502 from n8n included). */
export function errorFeedback(error: unknown, fallback: string): Feedback {
  return { title: 'Error', description: errorMessage(error, fallback) };
}

/** A refused assignment: 409 (already assigned) carries its own title; anything else is an 'Error'. */
export function assignErrorFeedback(error: unknown): Feedback {
  if (isApiError(error) && error.status === 409) {
    const title = error.details?.['title'];
    return { title: typeof title === 'string' ? title : WORKFLOW_TEXTS.alreadyAssignedTitle, description: error.message };
  }
  return errorFeedback(error, 'The client could not be assigned.');
}

/** Templates refuse a client that is already assigned before asking the server (spec part 2 §5). */
export function templateAssignRefusal(assignedClientIds: readonly string[], client: { id: string; name: string }): Feedback | null {
  if (!assignedClientIds.includes(client.id)) return null;
  return { title: WORKFLOW_TEXTS.alreadyAssignedTitle, description: WORKFLOW_TEXTS.templateAlreadyAssigned(client.name) };
}
