import { z } from 'zod';
import type { SaveN8nConnectionInput } from '@common/api/n8n';

/**
 * The connection form. The API key is write-only: the field always starts empty, and when a key is
 * saved an empty field keeps it (the server keeps the stored key for the same address).
 */
export const connectionForm = z.object({
  baseUrl: z.string().trim().min(1, { error: 'Enter the n8n base URL' }).max(2000, { error: 'The URL is too long' }),
  apiKey: z.string().trim().max(4000, { error: 'The API key is too long' }),
});
export type ConnectionForm = z.infer<typeof connectionForm>;

/** Whether a saved key exists changes while the form lives, so this rule sits outside the resolver. */
export function apiKeyProblem(apiKey: string, hasApiKey: boolean): string | null {
  return !hasApiKey && apiKey.trim() === '' ? 'Enter the n8n API key' : null;
}

export function toSaveConnectionInput(form: ConnectionForm): SaveN8nConnectionInput {
  const baseUrl = form.baseUrl.trim();
  const apiKey = form.apiKey.trim();
  return apiKey === '' ? { baseUrl } : { baseUrl, apiKey };
}
