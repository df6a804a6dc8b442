import { z } from 'zod';
import type { SaveN8nConnectionInput } from '@common/api/n8n';

/**
 * The connection form. The API key is write-only: the field always starts empty, and when a key is
 * saved an empty field keeps it (the server then keeps the stored key for the same address).
 */
export function connectionFormSchema(hasApiKey: boolean) {
  return z.object({
    baseUrl: z.string().trim().min(1, { error: 'Enter the n8n base URL' }).max(2000, { error: 'The URL is too long' }),
    apiKey: hasApiKey
      ? z.string().trim().max(4000, { error: 'The API key is too long' })
      : z.string().trim().min(1, { error: 'Enter the n8n API key' }).max(4000, { error: 'The API key is too long' }),
  });
}
export type ConnectionForm = z.infer<ReturnType<typeof connectionFormSchema>>;

export function toSaveConnectionInput(form: ConnectionForm): SaveN8nConnectionInput {
  const baseUrl = form.baseUrl.trim();
  const apiKey = form.apiKey.trim();
  return apiKey === '' ? { baseUrl } : { baseUrl, apiKey };
}
