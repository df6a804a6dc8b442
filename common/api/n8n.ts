/**
 * The n8n integration (server: server/modules/n8n; part 1 §2.17 "n8n Integration" tab, issue 13
 * §5). One n8n connection per installation, managed by administrators: the instance's base URL
 * and a public-API key (n8n → Settings → n8n API), the key write-only — sealed at rest, never
 * returned. Every route is admin only.
 *
 *   GET    /api/v1/n8n/connection                 -> n8nConnectionResponse
 *   PUT    /api/v1/n8n/connection                 saveN8nConnectionInput -> n8nConnectionView (saves, then tests)
 *   DELETE /api/v1/n8n/connection                 -> 204
 *   POST   /api/v1/n8n/connection/test            -> n8nConnectionTest (the instance's workflow count or the exact error)
 *   GET    /api/v1/n8n/workflows                  -> n8nWorkflowsResponse (the instance's workflows, webhook URL from the Webhook node)
 *   GET    /api/v1/n8n/workflows/:id              -> n8nWorkflow
 *   POST   /api/v1/n8n/workflows/:id/activate     -> n8nWorkflow (active in n8n)
 *   POST   /api/v1/n8n/workflows/:id/deactivate   -> n8nWorkflow
 *   GET    /api/v1/n8n/executions/:id             -> n8nExecution (status, finished, times, n8n's error message)
 *   GET    /api/v1/n8n/payload-template           -> n8nPayloadTemplateResponse (the copyable payload, this installation's URLs)
 *   POST   /api/v1/n8n/webhook-test               n8nWebhookTestInput -> n8nWebhookTestResult (server-side POST, the real answer)
 *   GET    /api/v1/n8n/starter-workflow           -> the starter workflow's n8n JSON (a download)
 *
 * Errors from n8n: no connection → 409 CONFLICT; n8n unreachable, refused or answering an error
 * → 502 BAD_GATEWAY with the exact reason (n8n's own message and status); an unknown workflow or
 * execution → 404.
 */
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });

export const WEBHOOK_URL_REQUIRED = 'Please enter a webhook URL first.';
export const N8N_NOT_CONNECTED = 'n8n is not connected: save its base URL and an API key first.';

export const n8nConnectionTest = z.object({
  ok: z.boolean(),
  /** 'Connected: 3 workflows' or the exact error (n8n's status and message, or why it could not be reached). */
  message: z.string(),
  workflowCount: z.number().int().nullable(),
  testedAt: isoDate,
});
export type N8nConnectionTest = z.infer<typeof n8nConnectionTest>;

export const n8nConnectionView = z.object({
  baseUrl: z.string(),
  /** Always true for a saved connection: the key itself is never returned. */
  hasApiKey: z.boolean(),
  updatedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  lastTest: n8nConnectionTest.nullable(),
  /** Where this installation's n8n workflows answer (`${baseUrl}/webhook/`). */
  webhookBaseUrl: z.string(),
});
export type N8nConnectionView = z.infer<typeof n8nConnectionView>;
export const n8nConnectionResponse = z.object({ connection: n8nConnectionView.nullable() });

export const saveN8nConnectionInput = z.object({
  /** The instance's address, e.g. http://n8n.internal:5678 (a path prefix is kept). */
  baseUrl: z.string().trim().min(1, { error: 'Enter the n8n base URL' }).max(2000, { error: 'The URL is too long' }),
  /** Required when nothing is stored yet or when the base URL's origin changes; omit to keep the stored key. */
  apiKey: z.string().trim().min(1, { error: 'Enter the n8n API key' }).max(4000, { error: 'The API key is too long' }).optional(),
});
export type SaveN8nConnectionInput = z.infer<typeof saveN8nConnectionInput>;

export const n8nWorkflow = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  /** The Webhook node's production URL (`${baseUrl}/webhook/${path}`) when it takes POST; else null. */
  webhookUrl: z.string().nullable(),
  webhookPath: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type N8nWorkflow = z.infer<typeof n8nWorkflow>;
export const n8nWorkflowsResponse = z.object({ workflows: z.array(n8nWorkflow) });

/** n8n's execution statuses (the spec's execution statuses are n8n's); anything else reads `unknown`. */
export const n8nExecutionStatus = z.enum(['success', 'error', 'running', 'waiting', 'canceled', 'new', 'unknown', 'crashed']);
export type N8nExecutionStatus = z.infer<typeof n8nExecutionStatus>;
export const n8nExecution = z.object({
  id: z.string(),
  workflowId: z.string().nullable(),
  status: n8nExecutionStatus,
  finished: z.boolean(),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  /** `data.resultData.error.message` of a failed execution. */
  errorMessage: z.string().nullable(),
});
export type N8nExecution = z.infer<typeof n8nExecution>;

export const n8nIdParams = z.object({ id: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/u, { error: 'Not an n8n id' }) });

export const n8nWebhookTestInput = z.object({
  url: z
    .string({ error: WEBHOOK_URL_REQUIRED })
    .trim()
    .min(1, { error: WEBHOOK_URL_REQUIRED })
    .max(2000, { error: 'The URL is too long' }),
  /** The JSON to send (the payload template when omitted). */
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type N8nWebhookTestInput = z.infer<typeof n8nWebhookTestInput>;

export const n8nWebhookTestResult = z.object({
  ok: z.boolean(),
  /** The answer's HTTP status, null when none came. */
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** The answer's first characters (up to 1,000). */
  bodyExcerpt: z.string(),
  contentType: z.string().nullable(),
  /** 'Webhook Test Successful' or the real failure: the status, or why no answer came. */
  message: z.string(),
});
export type N8nWebhookTestResult = z.infer<typeof n8nWebhookTestResult>;

export const n8nPayloadTemplateResponse = z.object({ template: z.record(z.string(), z.unknown()) });

/**
 * What a run POSTs to a workflow (issue 13 §4), with example values: the copyable payload template
 * of the n8n tab and the webhook test's default body. The callback URLs are this installation's.
 */
export function n8nPayloadTemplate(publicUrl: string, now: Date): Record<string, unknown> {
  const executionId = '00000000-0000-0000-0000-000000000000';
  return {
    execution_id: executionId,
    automation_config: { name: 'Webhook test', description: 'A test run from Parley', triggers: [] },
    client_id: null,
    timestamp: now.toISOString(),
    callback: {
      messages_url: `${publicUrl}/api/v1/automation-executions/${executionId}/messages`,
      status_url: `${publicUrl}/api/v1/automation-executions/${executionId}`,
      token: 'example-token',
    },
  };
}
