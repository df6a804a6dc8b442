/**
 * Workflows (n8n workflows and Zapier zaps) and templates, for administrators (server:
 * server/modules/workflows; spec part 2 "Workflow, zap and template admin", §3, §4, §5, §8).
 * Fields are camelCase like the rest of the API (the spec's `client_count` is `clientCount`, …).
 * Every route is admin-only (others: 403).
 *
 *   GET    /api/v1/workflows?kind=&q=                 -> findWorkflowsResponse (newest first; q: name or description, case-insensitive;
 *                                                        workflows linked to n8n show n8n's real active state, see `n8nSync`)
 *   POST   /api/v1/workflows/import-n8n               importN8nWorkflowsInput -> importN8nWorkflowsResponse (creates or refreshes linked records)
 *   POST   /api/v1/workflows                          createWorkflowInput -> workflowView (201, status draft)
 *   GET    /api/v1/workflows/:id                      -> workflowView
 *   PATCH  /api/v1/workflows/:id                      updateWorkflowInput -> workflowView
 *   DELETE /api/v1/workflows/:id                      -> 204
 *   POST   /api/v1/workflows/:id/toggle-status        -> workflowView (active -> paused, else -> active; linked n8n workflows switched in n8n first)
 *   POST   /api/v1/workflows/:id/clients              assignClientInput -> workflowView (201; 409 when already assigned)
 *   DELETE /api/v1/workflows/:id/clients/:clientId    -> workflowView
 *
 *   GET    /api/v1/templates?type=&q=                 -> findTemplatesResponse
 *   POST   /api/v1/templates                          createTemplateInput -> templateView (201, status draft)
 *   GET    /api/v1/templates/:id                      -> templateView
 *   GET    /api/v1/templates/:id/n8n-workflow         -> the importable n8n workflow JSON (404 when it has none)
 *   PATCH  /api/v1/templates/:id                      updateTemplateInput -> templateView
 *   DELETE /api/v1/templates/:id                      -> 204
 *   POST   /api/v1/templates/:id/toggle-status        -> templateView
 *   POST   /api/v1/templates/:id/clone                -> templateView (201: draft, name + ' (Copy)', no clients)
 *   POST   /api/v1/templates/:id/clients              assignClientInput -> templateView (201; creates the client's automation; 409 when already assigned)
 *   DELETE /api/v1/templates/:id/clients/:clientId    -> templateView (the automation it created stays)
 */
import { z } from 'zod';
import { automationEventTriggerView, templateTriggers } from './automations';

const isoDate = z.iso.datetime({ offset: true });

export const workflowKind = z.enum(['n8n', 'zapier']);
export type WorkflowKind = z.infer<typeof workflowKind>;
export const workflowStatus = z.enum(['draft', 'active', 'paused']);
export type WorkflowStatus = z.infer<typeof workflowStatus>;

/** The spec's texts (part 2 §5, §8) the admin screens show for these calls. */
export const WORKFLOW_TEXTS = {
  requiredFields: 'Please fill in all required fields',
  deleteConfirm: (name: string) => `Are you sure you want to delete "${name}"?`,
  clientAssigned: 'Client Assigned',
  clientRemoved: 'Client Removed',
  allClientsAssigned: 'All clients are already assigned to this workflow/zap',
  noWorkflows: 'No workflows found',
  noZaps: 'No zaps found',
  noTemplates: 'No templates found',
  noClients: 'No clients assigned yet',
  templateCloned: 'Template Cloned',
  templateDeleted: 'Template Deleted',
  /** Title of the refusal to assign a client twice (`error.details.title`; the message is `alreadyAssigned`). */
  alreadyAssignedTitle: 'Client Already Assigned',
  templateAlreadyAssigned: (client: string) => `${client} is already assigned to this template`,
  workflowAlreadyAssigned: (client: string, kind: WorkflowKind) => `${client} is already assigned to this ${kind === 'zapier' ? 'zap' : 'workflow'}`,
} as const;

const name = z.string().trim().min(1, { error: 'Name is required' }).max(200, { error: 'Name is too long' });
const description = z.string().trim().max(2000, { error: 'Description is too long' });
/** http(s) only; the server also refuses addresses it may not call (the guarded HTTP client's check). */
const webhookUrl = z
  .string()
  .trim()
  .min(1, { error: 'Webhook URL is required' })
  .max(2048, { error: 'Webhook URL is too long' })
  .refine((v) => z.url({ protocol: /^https?$/u }).safeParse(v).success, { error: 'Please enter a valid http(s) URL' });
const appIntegrations = z
  .array(z.string().trim().min(1, { error: 'App name is required' }).max(100, { error: 'App name is too long' }))
  .max(50, { error: 'At most 50 apps' });
/**
 * The spec's `workflow_config.triggers`: the public events (with filters) that run the automation
 * an assignment creates — the automations' own trigger shape (common/api/automations.ts, snake_case
 * inside), copied into the automation's `config.triggers`. A string is short for `{event: <string>}`.
 */
const triggers = templateTriggers;

export const assignedClient = z.object({ id: z.uuid(), name: z.string(), assignedAt: isoDate });
export type AssignedClient = z.infer<typeof assignedClient>;

export const workflowView = z.object({
  id: z.uuid(),
  kind: workflowKind,
  name: z.string(),
  description: z.string(),
  status: workflowStatus,
  webhookUrl: z.string(),
  /** Zaps' apps (empty for n8n workflows). */
  appIntegrations: z.array(z.string()),
  /** The linked workflow on the connected n8n instance, if any. */
  n8nWorkflowId: z.string().nullable(),
  clientCount: z.number().int(),
  /** Oldest assignment first. */
  assignedClients: z.array(assignedClient),
  createdBy: z.uuid().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type WorkflowView = z.infer<typeof workflowView>;

export const findWorkflowsQuery = z.object({
  kind: workflowKind.optional(),
  q: z.string().trim().max(200).optional(),
});
/**
 * How the list's linked workflows were checked against the connected n8n instance: null when the
 * list has none; `ok: false` when n8n could not be asked (not connected, unreachable, too slow) —
 * the stored states are shown and `message` says why; `ok: true` when every linked workflow's
 * status follows n8n's active flag (changed ones are stored: active, else paused).
 */
export const n8nSyncState = z.object({ ok: z.boolean(), message: z.string(), checkedAt: isoDate });
export type N8nSyncState = z.infer<typeof n8nSyncState>;
export const findWorkflowsResponse = z.object({ workflows: z.array(workflowView), n8nSync: n8nSyncState.nullable() });

/** One workflow of the connected instance by its n8n id, or (no id) every one that has a Webhook node taking POST. */
export const importN8nWorkflowsInput = z.object({
  n8nWorkflowId: z.string().trim().min(1, { error: 'Choose an n8n workflow' }).max(100, { error: 'The n8n workflow id is too long' }).optional(),
});
export type ImportN8nWorkflowsInput = z.infer<typeof importN8nWorkflowsInput>;
export const importN8nWorkflowsResponse = z.object({
  /** Created (new record) or refreshed (name, webhook URL, active state; assignments kept). */
  imported: z.array(z.object({ workflow: workflowView, created: z.boolean() })),
  /** Workflows of the instance left out, and why (no Webhook node taking POST). Importing all only. */
  skipped: z.array(z.object({ n8nWorkflowId: z.string(), name: z.string(), reason: z.string() })),
});
export type ImportN8nWorkflowsResponse = z.infer<typeof importN8nWorkflowsResponse>;

export const createWorkflowInput = z.object({
  kind: workflowKind,
  name,
  description: description.default(''),
  webhookUrl,
  /** Zaps only. */
  appIntegrations: appIntegrations.optional(),
});
export type CreateWorkflowInput = z.input<typeof createWorkflowInput>;
/** Only the fields given change; a given name or webhook URL is still required to be non-empty. */
export const updateWorkflowInput = z
  .object({ name, description, webhookUrl, appIntegrations })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type UpdateWorkflowInput = z.input<typeof updateWorkflowInput>;

export const idParams = z.object({ id: z.uuid() });
export const clientAssignmentParams = z.object({ id: z.uuid(), clientId: z.uuid() });
export const assignClientInput = z.object({ clientId: z.uuid({ error: 'Please choose a client' }) });
export type AssignClientInput = z.infer<typeof assignClientInput>;

export const templateWorkflowConfig = z.object({ webhookUrl: z.string(), triggers: z.array(automationEventTriggerView) });

export const templateClientAssignment = z.object({
  clientId: z.uuid(),
  clientName: z.string(),
  assignedAt: isoDate,
  /** The automation the assignment created (null if it was made before automations existed). */
  automationId: z.uuid().nullable(),
});
export type TemplateClientAssignment = z.infer<typeof templateClientAssignment>;

export const templateView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  type: workflowKind,
  status: workflowStatus,
  workflowConfig: templateWorkflowConfig,
  /** Whether it carries an importable n8n workflow (GET /api/v1/templates/:id/n8n-workflow). */
  hasN8nWorkflow: z.boolean(),
  clientCount: z.number().int(),
  /** Oldest assignment first. */
  clientAssignments: z.array(templateClientAssignment),
  createdBy: z.uuid().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type TemplateView = z.infer<typeof templateView>;

export const findTemplatesQuery = z.object({
  type: workflowKind.optional(),
  q: z.string().trim().max(200).optional(),
});
export const findTemplatesResponse = z.object({ templates: z.array(templateView) });

/** The JSON n8n exports and imports: nodes and their connections (other keys kept as given). */
export const n8nWorkflowJson = z.looseObject({
  name: z.string().max(300).optional(),
  nodes: z.array(z.looseObject({ type: z.string(), name: z.string() }), { error: 'An n8n workflow needs a list of nodes' }).max(500),
  connections: z.record(z.string(), z.unknown(), { error: 'An n8n workflow needs its connections' }),
});
export type N8nWorkflowJson = z.infer<typeof n8nWorkflowJson>;

export const createTemplateInput = z.object({
  name,
  description: description.default(''),
  type: workflowKind,
  workflowConfig: z.object({ webhookUrl, triggers: triggers.default([]) }),
  /** n8n templates only. */
  n8nWorkflowJson: n8nWorkflowJson.nullable().optional(),
});
export type CreateTemplateInput = z.input<typeof createTemplateInput>;
export const updateTemplateInput = z
  .object({
    name,
    description,
    workflowConfig: z.object({ webhookUrl, triggers }).partial(),
    n8nWorkflowJson: n8nWorkflowJson.nullable(),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });
export type UpdateTemplateInput = z.input<typeof updateTemplateInput>;
